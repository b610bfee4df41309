/*
 * asm/current.h - the task running on the CPU.
 *
 * Arch keeps it because the context switch is where it changes:
 * arch_switch_to sets it for the next task, arch_task_setup_boot for the
 * boot thread that becomes the first task, and nothing else writes it.
 * Everyone reads it as `current`, with no call back into the scheduler.
 */
#ifndef ASM_CURRENT_H
#define ASM_CURRENT_H

struct task;

extern struct task *current_task;	/* arch/x86/kernel/process.c */

static inline struct task *get_current(void)
{
	return current_task;
}

#define current	get_current()

#endif
