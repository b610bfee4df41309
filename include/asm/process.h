/*
 * asm/process.h - the x86 half of a task: its first kernel-stack frames
 * and the context switch (arch/x86/kernel/process.c), and the CPU state a task
 * may ask for: segments (task_segments.c), I/O privilege (ioperm.c),
 * watchpoints (hw_breakpoint.c), a performance counter (pmc.c).  The
 * FPU has asm/fpu.h.
 */
#ifndef ASM_PROCESS_H
#define ASM_PROCESS_H

#include <types.h>
#include <asm/traps.h>

struct task;

void arch_task_setup_user(struct task *t, u32 entry, u32 user_esp);
void arch_task_setup_kernel(struct task *t, void (*fn)(void));	/* fn never returns */
void arch_task_setup_boot(struct task *t);	/* the running boot thread */
void arch_task_release(struct task *t);		/* on exit: FPU, LDT */
void arch_switch_to(struct task *prev, struct task *next);	/* current = next */
void switch_stacks(u32 *save_esp, u32 next_esp);	/* entry.S */
struct pt_regs *task_user_regs(struct task *t);	/* its frame from ring 3 */

/* Per-task segments: GDT TLS slots and a private LDT. */
int arch_set_tls(struct task *t, unsigned int slot, u32 base, u32 limit);
int arch_set_ldt_entry(struct task *t, unsigned int slot, u32 base, u32 limit);
int arch_set_iopl(struct task *t, struct pt_regs *regs, unsigned int level);
int arch_set_watchpoint(struct task *t, u32 addr, u32 len);
bool arch_report_watchpoint(struct pt_regs *regs);	/* #DB from ring 3 */
bool arch_kernel_hit_user_watchpoint(void);	/* #DB in ring 0 */
int arch_task_pmc(struct task *t, u64 *count);	/* 0 or -ENODEV */
void pmc_init(void);
void pmc_switch(struct task *prev, struct task *next);

#endif
