/*
 * asm/desc.h - pv386's descriptor tables: each CPU's GDT and TSS (in its
 * per-CPU area, asm/percpu.h), the LDT and the IDT, set up by
 * arch/x86/kernel/gdt.c, percpu.c and traps.c.
 */
#ifndef ASM_DESC_H
#define ASM_DESC_H

#include <types.h>
#include <asm/desc_defs.h>
#include <asm/percpu.h>

/* The GDT and the TSS of the CPU running this: the uniprocessor kernel's
 * names, kept for the code that means "this CPU's" (the context switch,
 * the tests).  Another CPU's are per_cpu(n)->gdt and ->tss. */
#define gdt_table	(this_cpu_ptr()->gdt)
#define kernel_tss	(this_cpu_ptr()->tss)

extern u64 ldt_table[LDT_ENTRIES];
extern u64 idt_table[256];
extern struct thread_struct init_thread;

void load_task_ldt(const u64 *ldt);

/* Building and loading a CPU's tables (gdt.c), for percpu.c. */
void gdt_fill(struct percpu *pc);
void tss_fill(struct percpu *pc, struct thread_struct *boot);
void gdt_load(struct percpu *pc, const struct thread_struct *boot);
void gdt_load_segments(void);

/* A data segment ring 3 may use: base, limit in bytes (byte-granular up
 * to 1 MiB, page-granular above). */
u64 user_data_segment(u32 base, u32 limit);

#endif
