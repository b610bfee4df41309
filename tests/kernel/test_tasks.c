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
	static const struct kill_expect oom = {
		"crash", "touch_all_memory", X86_TRAP_PF, 0,
		"4??????? (not present, write, user)", "out of memory", NULL };

	check_kill(kt_ctx, &oom);
}

/* Bad pointers to every call that takes one: errors, no kernel fault
 * (badptr's exit status counts its mismatches). */
KTEST(system_calls_refuse_bad_pointers)
{
	check_end(kt_ctx, "badptr", "all", 0, NULL);
}

/*
 * Preemption: spin computes without a system call; hello, spawned after
 * it, must still finish while spin runs.  Without the timer taking the
 * CPU from spin, hello would only run once spin had exited.
 */
KTEST(timer_preempts_a_task_that_never_yields)
{
	int spin = task_spawn("spin", "30"), hello = task_spawn("hello", "");
	int status = -1;
	struct task *t;

	KT_EXPECT(spin > 0 && hello > 0);
	KT_EXPECT_EQ(task_wait(hello, &status), hello);
	KT_EXPECT_EQ(status, 0);
	t = task_by_pid(spin);
	KT_EXPECT(t && t->state == TASK_RUNNABLE);	/* still spinning */
	KT_EXPECT_EQ(task_wait(spin, &status), spin);
	KT_EXPECT_EQ(status, 0);
}
