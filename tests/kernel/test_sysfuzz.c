/*
 * test_sysfuzz.c - random system calls (user/sysfuzz.c) leave the
 * kernel as it was: every result right (sysfuzz exits with its count of
 * mismatches), no trap of the kernel's own, every page, task slot and
 * pipe given back, and a fresh program still runs.  And each number
 * outside the table gives -ENOSYS, by int $0x80 and by sysenter.
 *
 * The run is short by default, for every configuration of the suite;
 * the boot option sysfuzz= gives sysfuzz another argument, for a longer
 * run (tests/run's sysfuzz rows, make fuzz-syscalls):
 *
 *     test=sysfuzz sysfuzz=seed=7,calls=50000
 *     test=sysfuzz sysfuzz=seed=7,seconds=600
 *     test=sysfuzz sysfuzz=wild,seed=7,calls=200000
 */
#include <ktest.h>
#include <cmdline.h>
#include <page_alloc.h>
#include <pipe.h>
#include <string.h>
#include <task.h>
#include "console_capture.h"
#include "run_program.h"

static char fuzz_arg[64] = "seed=1,calls=1500";

static int parse_sysfuzz(const char *value)
{
	if (!value || !value[0] || strlen(value) >= sizeof(fuzz_arg))
		return -EINVAL;
	strlcpy(fuzz_arg, value, sizeof(fuzz_arg));
	return 0;
}
boot_option("sysfuzz", parse_sysfuzz,
	    "sysfuzz's argument in test=sysfuzz: seed=S,calls=N or seed=S,seconds=T");

/* Free pages once the idle task has collected the orphans earlier tests
 * left (their kernel stacks come back then): a tick's sleep lets it run. */
static unsigned long free_pages_settled(void)
{
	sched_sleep_ticks(1);
	return pages_free_count();
}

/*
 * sysfuzz's status is its count of mismatches, and it names each (the
 * first 20) on a line of its own: each named one is a check line here,
 * so that a failure says which calls went wrong (and
 * tests/suite/gaps/dosbox.py can tell a known one from any other).  The
 * status must then be the count of those lines.
 */
#define MISMATCH_PREFIX	"sysfuzz: call "

static void check_status(struct ktest_ctx *kt_ctx, int status)
{
	char line[160];
	int named = captured_lines(MISMATCH_PREFIX);
	int i;

	for (i = 0; i < named && captured_nth_line(MISMATCH_PREFIX, i, line, sizeof(line)); i++) {
		kt_ctx->failures++;
		printk("ktest:   %s\n", line);
	}
	KT_EXPECT_EQ(status, named);
}

/* sysfuzz's console: its summary line, no kernel trap or panic, no task
 * killed (its children are sleeps that end by themselves).  Under
 * `wild` some threads are started to die, and do: there the status
 * alone says that sysfuzz itself lived (a killed task's is not a count). */
static void check_console(struct ktest_ctx *kt_ctx)
{
	char line[120];

	KT_EXPECT(captured_line("sysfuzz: ", line, sizeof(line)));
	KT_EXPECT_EQ(captured_lines("sysfuzz: seed "), 1);
	KT_EXPECT_EQ(captured_lines("trap:"), 0);
	KT_EXPECT(!captured_anywhere("KERNEL PANIC"));
	if (!strstr(fuzz_arg, "wild"))
		KT_EXPECT(!captured_anywhere(") killed"));
	KT_EXPECT(!capture_overflowed());
}

KTEST(sysfuzz_unknown_numbers_give_enosys)
{
	KT_EXPECT_EQ(run_program("sysfuzz", "edges"), 0);
}

KTEST(sysfuzz_random_calls_leave_nothing_behind)
{
	unsigned long pages = free_pages_settled();
	unsigned int slots = task_slots_free(), pipes = pipes_open();
	int status;

	printk("test_sysfuzz: running sysfuzz %s\n", fuzz_arg);
	capture_start();
	status = run_program("sysfuzz", fuzz_arg);
	capture_stop();
	check_status(kt_ctx, status);
	check_console(kt_ctx);
	KT_EXPECT_EQ(free_pages_settled(), pages);
	KT_EXPECT_EQ(task_slots_free(), slots);
	KT_EXPECT_EQ(pipes_open(), pipes);
	KT_EXPECT_EQ(run_program("hello", ""), 0);
}
