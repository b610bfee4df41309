/*
 * exit.c - the end of a user task: what it holds above the task table
 * let go, then the task ended (task_exit).
 *
 * task.c and sched.c are the bottom of the kernel proper: they call
 * nothing above them, so what a task holds that lives above them (a
 * service whose objects sleep and wake tasks through the scheduler) is
 * not theirs to let go.  This file is above them and is the one way a
 * user task ends: by the exit system call, or by a kill (kill_current,
 * which arch/ calls for a fault, or on the way back to user mode once
 * kill asked for it).  The kernel's threads end by task_exit alone.
 */
#include <kernel.h>
#include <arch_door.h>
#include <exit.h>
#include <task.h>

void exit_current(int status)
{
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
