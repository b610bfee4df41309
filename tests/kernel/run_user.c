/*
 * run_user.c - the tests' way to run user programs: task_spawn() from
 * the boot thread, task_wait() for the end, as the run= boot option
 * does, but giving the status back to the test instead of printing it.
 */
#include <kernel.h>
#include <task.h>
#include "run_user.h"

int start_program(const char *name, const char *arg)
{
	int pid = task_spawn(name, arg);

	if (pid < 0) {
		printk("ktest:   cannot spawn %s: error %d\n", name, pid);
		return RUN_FAILED;
	}
	return pid;
}

int finish_program(int pid)
{
	int status = RUN_FAILED, got;

	if (pid == RUN_FAILED)
		return RUN_FAILED;
	got = task_wait(pid, &status);
	if (got != pid) {
		printk("ktest:   waiting for pid %d gave %d\n", pid, got);
		return RUN_FAILED;
	}
	return status;
}

int finish_program_within(int pid, unsigned long ticks)
{
	struct task *t = pid == RUN_FAILED ? NULL : task_by_pid(pid);

	while (t && t->state != TASK_ZOMBIE && ticks--)
		sched_sleep_ticks(1);
	if (t && t->state != TASK_ZOMBIE) {
		printk("ktest:   pid %d (%s) still running: killed\n", pid, t->name);
		task_kill_pid(pid);
	}
	return finish_program(pid);
}

/* The survivor starts first, so it is already holding its values when
 * the other program begins to misbehave; it yields enough times to be
 * alive throughout. */
int run_beside_survivor(const char *name, const char *arg, int *pid, int *survivor)
{
	int survivor_pid = start_program("survivor", "20");
	int status;

	*pid = start_program(name, arg);
	status = finish_program(*pid);
	*survivor = finish_program(survivor_pid);
	return status;
}
