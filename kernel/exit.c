/*
 * exit.c - the end of a user task: what it holds above the task table
 * let go, then the task ended (task_exit).
 *
 * A task's descriptors (kernel/fd.c) name pipes, and a pipe sleeps and
 * wakes tasks through the scheduler, so descriptors sit above the task
 * table and the scheduler (task.c, sched.c): those call nothing up
 * there.  This file is above both and is the one way a user task ends,
 * by the exit system call or by a kill (kill_current, which arch/ calls
 * for a fault or on the way back to user mode once kill asked for it).
 * It closes the descriptors first, so that a pipe's other end sees end
 * of file or -EPIPE, then lets task.c do the rest.  task_exit checks
 * that none is left open, so a new way to end a task that skips this
 * file is caught at once.  The kernel's threads end by task_exit alone:
 * they hold no descriptors.
 */
#include <kernel.h>
#include <arch_door.h>
#include <exit.h>
#include <fd.h>
#include <lockdep.h>
#include <task.h>

void exit_current(int status)
{
	/* Before the pipes' locks: a lock the task still holds is reported
	 * as such, not as taken out of order behind them (task_exit's
	 * own call then finds nothing). */
	lockdep_task_exit();
	fd_close_all(current);
	task_exit(status);
}

/* The line is formatted whole, then printed by one printk: each printk
 * is one piece on every console, but pieces printed apart let another
 * CPU's line in between ("task 42 (x) killed: task 43 (x) killed: ..."). */
void kill_current(int status, const char *fmt, ...)
{
	char why[256];	/* the longest reason (traps.c) is under 240 */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	printk("task %d (%s) killed: %s\n", current->pid, current->name, why);
	exit_current(status);
}
