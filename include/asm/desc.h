/*
 * asm/desc.h - pv386's descriptor tables: the GDT, the TSS, the LDT and
 * the IDT, set up by arch/x86/gdt.c and arch/x86/traps.c.
 */
#ifndef ASM_DESC_H
#define ASM_DESC_H

#include <types.h>
#include <asm/desc_defs.h>

/* The 32-bit task-state segment.  pv386 uses it only for the ring-0
 * stack the CPU switches to on an interrupt from user mode. */
struct tss {
	u32 prev, esp0, ss0, esp1, ss1, esp2, ss2;
	u32 cr3, eip, eflags, eax, ecx, edx, ebx, esp, ebp, esi, edi;
	u32 es, cs, ss, ds, fs, gs, ldt;
	u16 trap, iomap_base;
} __packed;

extern u64 gdt_table[GDT_ENTRIES];
extern u64 ldt_table[LDT_ENTRIES];
extern u64 idt_table[256];
extern struct tss kernel_tss;
extern struct thread_struct init_thread;

void gdt_init(void);

#endif
