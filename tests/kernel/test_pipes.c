/*
 * test_pipes.c - pipes and file descriptors (kernel/pipe.c, kernel/fd.c).
 *
 * Most of it from ring 3: each check of user/pipes.c (order, end of
 * file, -EPIPE, waiters woken, whole small writes, bad descriptors and
 * pointers, the table's limit, threads' copies) must end with status 0
 * - its count of mismatches - and leave every page, pipe and task slot
 * as it found them.  A check that hangs (a lost wake-up) is killed and
 * fails.  Then the system's limit: programs that make pipes until they
 * are refused get PIPES_MAX between them and -ENFILE beyond, and each,
 * waiting for ever on a pipe of its own, is killed like any task, every
 * pipe and page coming back.  And the pipe objects themselves, from the
 * kernel: made and let go, the limit, nothing kept.
 */
#include <ktest.h>
#include <cmdline.h>
#include <page_alloc.h>
#include <pipe.h>
#include <string.h>
#include <task.h>
#include <asm/timer.h>
#include "console_capture.h"
#include "run_user.h"

#define HOG_PIPES	(NR_FDS / 2)	/* a hog's table holds this many */
#define HOGS		(PIPES_MAX / HOG_PIPES + 1)	/* one more than fit */
#define HOG_LINE	"pipes hog: "

/* Free pages once the idle task has collected any orphan (a tick's
 * sleep lets it run). */
static unsigned long free_pages_settled(void)
{
	sched_sleep_ticks(1);
	return pages_free_count();
}

/* Long enough for any emulator here; a check past it hangs. */
static unsigned long patience(void)
{
	return 60 * timer_hz();
}

static void run_check(struct ktest_ctx *kt_ctx, const char *word)
{
	unsigned long pages = free_pages_settled();
	unsigned int pipes = pipes_open(), slots = task_slots_free();

	KT_EXPECT_EQ(finish_program_within(start_program("pipes", word), patience()), 0);
	KT_EXPECT_EQ(pipes_open(), pipes);
	KT_EXPECT_EQ(free_pages_settled(), pages);
	KT_EXPECT_EQ(task_slots_free(), slots);
}

KTEST(pipe_bytes_come_out_whole_and_in_order)
{
	run_check(kt_ctx, "order");
}

KTEST(pipe_reads_end_of_file_once_no_writer_is_left)
{
	run_check(kt_ctx, "eof");
}

KTEST(pipe_write_with_no_reader_gives_epipe)
{
	run_check(kt_ctx, "epipe");
}

KTEST(pipe_waiting_reader_and_writer_are_woken)
{
	run_check(kt_ctx, "wake");
}

KTEST(pipe_small_writes_are_never_interleaved)
{
	run_check(kt_ctx, "atomic");
}

KTEST(pipe_bad_descriptors_give_ebadf)
{
	run_check(kt_ctx, "badfd");
}

KTEST(pipe_bad_pointers_change_nothing)
{
	run_check(kt_ctx, "badptr");
}

KTEST(pipe_descriptor_table_holds_nr_fds)
{
	run_check(kt_ctx, "limits");
}

KTEST(pipe_threads_get_a_copy_of_the_table)
{
	run_check(kt_ctx, "thread");
}

/* "pipes hog: N pipes, then error E": N and -E. */
static bool parse_hog_line(const char *line, unsigned long *pipes, unsigned long *err)
{
	char number[12];
	const char *p = line + strlen(HOG_LINE), *q = strstr(p, " pipes, then error -");
	size_t n = q ? (size_t)(q - p) : 0;

	if (!n || n >= sizeof(number))
		return false;
	memcpy(number, p, n);
	number[n] = '\0';
	return !parse_ulong(number, pipes) &&
	       !parse_ulong(q + strlen(" pipes, then error -"), err);
}

/* The hogs' lines: the pipes they got, how many were refused -ENFILE;
 * false if a line does not read. */
static bool count_hogs(unsigned long *pipes, unsigned int *enfile)
{
	unsigned long n, err;
	char line[80];
	unsigned int i;

	*pipes = *enfile = 0;
	for (i = 0; captured_nth_line(HOG_LINE, i, line, sizeof(line)); i++) {
		if (!parse_hog_line(line, &n, &err) || (err != ENFILE && err != EMFILE))
			return false;
		*pipes += n;
		*enfile += err == ENFILE;
	}
	return true;
}

/*
 * HOGS programs each open pipes until refused: their own tables allow
 * HOG_PIPES each, more than PIPES_MAX together, so between them they get
 * exactly PIPES_MAX and at least one is refused -ENFILE.  Each then
 * waits for ever on a pipe whose write end it holds itself; one left
 * with none ends at once (status 1).  Killed, each waiting one ends
 * (EXIT_KILLED_BY_REQUEST), and its end gives every pipe and page back.
 */
KTEST(pipe_system_limit_holds_and_killed_waiters_give_pipes_back)
{
	unsigned long pages = free_pages_settled(), got, ticks;
	unsigned int pipes = pipes_open(), enfile, i;
	int pid[HOGS], status;

	if (pages < 4 * PIPES_MAX + 16 * HOGS)
		KT_SKIP("too little RAM for every pipe and the programs");
	capture_start();
	for (i = 0; i < HOGS; i++)
		pid[i] = start_program("pipes", "hog");
	for (ticks = 0; captured_lines(HOG_LINE) < HOGS && ticks < patience(); ticks++)
		sched_sleep_ticks(1);
	capture_stop();
	KT_EXPECT_EQ(captured_lines(HOG_LINE), HOGS);
	KT_EXPECT(count_hogs(&got, &enfile));
	KT_EXPECT_EQ(got, PIPES_MAX - pipes);
	KT_EXPECT(enfile >= 1);
	KT_EXPECT_EQ(pipes_open(), PIPES_MAX);
	for (i = 0; i < HOGS; i++) {
		task_kill_pid(pid[i]);		/* -ESRCH for one that ended */
		status = finish_program(pid[i]);
		KT_EXPECT(status == EXIT_KILLED_BY_REQUEST || status == 1);
	}
	KT_EXPECT_EQ(pipes_open(), pipes);
	KT_EXPECT_EQ(free_pages_settled(), pages);
}

/* From the kernel: a pipe costs one page and a slot while any end is
 * open, PIPES_MAX at most (-ENFILE past them), and all come back. */
KTEST(pipe_objects_are_bounded_and_given_back)
{
	static struct pipe *made[PIPES_MAX];
	unsigned long pages = pages_free_count();
	unsigned int pipes = pipes_open(), n, i;
	struct pipe *p;

	KT_EXPECT_EQ(pipe_create(&p), 0);
	KT_EXPECT_EQ(pipes_open(), pipes + 1);
	KT_EXPECT_EQ(pages_free_count(), pages - 1);
	pipe_hold(p, true);
	pipe_release(p, true);
	pipe_release(p, false);
	KT_EXPECT_EQ(pipes_open(), pipes + 1);	/* a write end is still held */
	pipe_release(p, true);
	KT_EXPECT_EQ(pipes_open(), pipes);
	KT_EXPECT_EQ(pages_free_count(), pages);

	for (n = 0; n < PIPES_MAX && pipe_create(&made[n]) == 0; n++)
		;
	KT_EXPECT_EQ(n, PIPES_MAX - pipes);
	KT_EXPECT_EQ(pipe_create(&p), -ENFILE);
	for (i = 0; i < n; i++) {
		pipe_release(made[i], false);
		pipe_release(made[i], true);
	}
	KT_EXPECT_EQ(pipes_open(), pipes);
	KT_EXPECT_EQ(pages_free_count(), pages);
}
