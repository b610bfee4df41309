/*
 * test_fresh_task.c - a new task sees nothing of the tasks before it
 * (user/fresh.c): general, segment and flags registers as the kernel
 * documents them, a clean FPU (x87, MMX, SSE: every register zero, the
 * control words at their defaults), no TLS or LDT descriptor and no
 * watchpoint of another task's.  Each case first lets a task fill all
 * of that with values of its own, once dead (it exits, leaving an
 * unmasked x87 error pending) and once alive (it waits for the new task
 * while still owning the FPU, then checks it got its own values back).
 */
#include <kernel.h>
#include <ktest.h>
#include <asm/fpu.h>
#include "console_capture.h"
#include "run_program.h"

/* "fresh" with mode, and -nofpu where there is no FPU to use. */
static int run_fresh(const char *mode)
{
	char arg[24];

	snprintf(arg, sizeof(arg), "%s%s", mode, fpu_present() ? "" : "-nofpu");
	return run_program("fresh", arg);
}

static void expect_clean_console(struct ktest_ctx *kt_ctx)
{
	/* one line from fresh, its verdict: no mismatch was printed */
	KT_EXPECT_EQ(captured_lines("fresh: "), 1);
	KT_EXPECT_EQ(captured_lines("fresh: check: all clean") +
		     captured_lines("fresh: check (no FPU): all clean"), 1);
	KT_EXPECT_EQ(captured_lines("task "), 0);	/* no kill, no watchpoint */
}

KTEST(fresh_task_after_a_dead_one)
{
	capture_start();
	KT_EXPECT_EQ(run_fresh("plant"), 0);
	KT_EXPECT_EQ(run_fresh("check"), 0);
	capture_stop();
	expect_clean_console(kt_ctx);
}

KTEST(fresh_task_beside_a_live_one)
{
	capture_start();
	KT_EXPECT_EQ(run_fresh("hold"), 0);
	capture_stop();
	expect_clean_console(kt_ctx);
}
