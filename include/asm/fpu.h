/*
 * asm/fpu.h - the x87/SSE registers, shared between tasks
 * (arch/x86/kernel/fpu.c): lazily (CR0.TS at switches, the state handed
 * over on #NM) or eagerly (handed over at the switch), as the backend
 * or the fpu= boot option chooses.
 */
#ifndef ASM_FPU_H
#define ASM_FPU_H

#include <types.h>
#include <asm/traps.h>

struct task;

void fpu_init(void);
bool fpu_present(void);
bool fpu_eager(void);				/* the mode in force */
void fpu_init_task(struct task *t);		/* a new task's: the clean image */
bool fpu_handle_nm(struct pt_regs *regs);	/* #NM: false = kill the task */
void fpu_switch(struct task *prev, struct task *next);
void fpu_release(struct task *t);
void fpu_trap_next_use(void);		/* CR0.TS on, for a guest (host/) */
void fpu_load_for_guest(void);		/* a host's thread about to enter its guest */

#endif
