/*
 * test_tasks.c - tasks as a whole: spawn and wait give the documented
 * errors, many programs run at once and all end with their own status,
 * running out of task slots or of RAM is an error the program gets
 * (user/spawnbomb.c), a bad pointer to a system call is an error too
 * (user/badptr.c), and after all of it every page is back.
 */
#include <ktest.h>
#include <page_alloc.h>
#include <task.h>
#include <asm/fpu.h>
#include <asm/process.h>
#include <asm/timer.h>
#include <asm/traps.h>
#include "console_capture.h"
#include "kill_check.h"
#include "run_program.h"
#include "run_user.h"

#define TOGETHER	8

KTEST(task_spawn_unknown_program)
{
	KT_EXPECT_EQ(task_spawn("nosuch", ""), -ENOENT);
}

KTEST(task_wait_without_children)
{
	int status = 12345;

	KT_EXPECT_EQ(task_wait(-1, &status), -ECHILD);
	KT_EXPECT_EQ(task_wait(1, &status), -ECHILD);	/* itself */
	KT_EXPECT_EQ(status, 12345);
}

/* Eight at once, some killed, each status to its own pid. */
KTEST(tasks_end_with_their_own_status)
{
	static const char *const progs[TOGETHER][2] = {
		{ "survivor", "" }, { "crash", "ud2" }, { "fpu", "5" }, { "crash", "divide" },
		{ "tls", "3" }, { "priv", "hlt" }, { "ldt", "8" }, { "survivor", "5" },
	};
	static const int want[TOGETHER] = {
		0, EXIT_KILLED(X86_TRAP_UD), 0, EXIT_KILLED(X86_TRAP_DE),
		0, EXIT_KILLED(X86_TRAP_GP), 0, 0,
	};
	unsigned long pages = pages_free_count();
	unsigned int alive = tasks_alive();
	int pid[TOGETHER], i;

	if (!fpu_present())
		KT_SKIP("no FPU: fpu would be killed");
	for (i = 0; i < TOGETHER; i++)
		pid[i] = start_program(progs[i][0], progs[i][1]);
	for (i = TOGETHER - 1; i >= 0; i--)	/* not in the order they end */
		KT_EXPECT_EQ(finish_program(pid[i]), want[i]);
	KT_EXPECT_EQ(tasks_alive(), alive);
	KT_EXPECT_EQ(pages_free_count(), pages);
}

/* The task table fills: -EAGAIN; RAM runs out: -ENOMEM, for spawn and
 * brk alike.  The kernel stays up, and gets every page back. */
KTEST(spawnbomb_gets_errors_not_a_crash)
{
	unsigned long pages = pages_free_count();

	capture_start();
	KT_EXPECT_EQ(run_program("spawnbomb", ""), 0);
	capture_stop();
	KT_EXPECT(!captured_lines("trap:"));
	KT_EXPECT_EQ(pages_free_count(), pages);
	/* and the next program runs as before */
	KT_EXPECT_EQ(run_program("survivor", "3"), 0);
}

/* A task that touches more than RAM holds is killed for it, with the
 * reason, and alone. */
KTEST(out_of_memory_kills_only_the_task)
{
	/* Where the heap runs out depends on the RAM: with 1 GiB free it
	 * reaches past 0x80000000. */
	static const struct kill_expect oom = {
		"crash", "touch_all_memory", X86_TRAP_PF, 0,
		"???????? (not present, write, user)", "out of memory", NULL };

	check_kill(kt_ctx, &oom);
}

/* Bad pointers to every call that takes one: errors, no kernel fault
 * (badptr's exit status counts its mismatches). */
KTEST(system_calls_refuse_bad_pointers)
{
	check_end(kt_ctx, "badptr", "all", 0, NULL);
}

/* A call answered -EFAULT, its page then mapped: the next call reads its
 * own argument, not the old address (DOSBox does not:
 * tests/suite/gaps/dosbox.py). */
KTEST(system_call_after_efault_reads_its_own_argument)
{
	int status;

	capture_start();
	status = finish_program(start_program("badptr", "refault"));
	capture_stop();
	KT_EXPECT_EQ(status, 0);
	KT_EXPECT_EQ(captured_lines("badptr: refault A"), 1);
}

/*
 * Preemption: spin computes without a system call; hello, spawned after
 * it, must still finish while spin runs.  Without the timer taking the
 * CPU from spin, hello would only run once spin had exited.  How long
 * spin runs depends on the emulator and hz=, so a spin that ended before
 * the first slice was over proves nothing: try again with four times
 * the rounds.  One that outlived several slices and still went first
 * proves there was no preemption.
 */
#define SLICES_WITHOUT_PREEMPTION	4	/* 2-tick slices (sched.c) */
#define MAX_MILLIONS			4096	/* spin's rounds, in millions */

/* true: hello ended while spin still ran; *ticks: how long it took. */
static bool hello_ends_before_spin(unsigned int millions, unsigned long *ticks)
{
	char arg[12];
	unsigned long start = timer_ticks();
	int spin, hello, status = -1;
	bool before;

	snprintf(arg, sizeof(arg), "%u", millions);
	spin = task_spawn("spin", arg);
	hello = task_spawn("hello", "");
	if (spin < 0 || hello < 0 || task_wait(hello, &status) != hello || status)
		return false;
	before = task_by_pid(spin)->state == TASK_RUNNABLE;
	task_wait(spin, &status);
	*ticks = timer_ticks() - start;
	return before;
}

KTEST(timer_preempts_a_task_that_never_yields)
{
	unsigned int millions = 4;
	unsigned long ticks = 0;

	while (!hello_ends_before_spin(millions, &ticks)) {
		if (ticks > 2 * SLICES_WITHOUT_PREEMPTION) {
			printk("ktest:   spin ran %lu ticks alone\n", ticks);
			KT_EXPECT(!"the timer preempted spin");
			return;
		}
		if (millions > MAX_MILLIONS / 4) {	/* rounds fit in 32 bits */
			KT_EXPECT(!"spin ever ran for more than a slice");
			return;
		}
		millions *= 4;
	}
}
