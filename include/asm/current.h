/*
 * asm/current.h - the task running on this CPU.
 *
 * Arch keeps it because the context switch is where it changes:
 * arch_switch_to sets it for the next task, arch_task_setup_boot for the
 * boot thread that becomes the first task, and nothing else writes it.
 * Each CPU has its own, in its per-CPU area (asm/percpu.h): reading it
 * is one load through %fs, with no call back into the scheduler.
 */
#ifndef ASM_CURRENT_H
#define ASM_CURRENT_H

#include <asm/percpu.h>

struct task;

static inline struct task *get_current(void)
{
	return this_cpu_read(current_task);
}

#define current	get_current()

#endif
