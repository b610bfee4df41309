/*
 * asm/desc.h - pv386's descriptor tables: the GDT, the TSS, the LDT and
 * the IDT, set up by arch/x86/kernel/gdt.c and arch/x86/kernel/traps.c.
 */
#ifndef ASM_DESC_H
#define ASM_DESC_H

#include <types.h>
#include <asm/desc_defs.h>

extern u64 gdt_table[GDT_ENTRIES];
extern u64 ldt_table[LDT_ENTRIES];
extern u64 idt_table[256];
extern struct tss kernel_tss;
extern struct thread_struct init_thread;

void gdt_init(void);
void load_task_ldt(const u64 *ldt);

/* A data segment ring 3 may use: base, limit in bytes (byte-granular up
 * to 1 MiB, page-granular above). */
u64 user_data_segment(u32 base, u32 limit);

#endif
