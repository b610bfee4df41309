/*
 * asm/processor.h - the CPU state a task owns beyond its registers:
 * what arch/x86/process.c puts into the CPU when the task is switched
 * in, and what the paravirt ops load_tls and load_esp0 read.
 */
#ifndef ASM_PROCESSOR_H
#define ASM_PROCESSOR_H

#include <types.h>
#include <asm/segment.h>

#define NR_WATCHPOINTS	4	/* DR0-DR3 */

/* The x87/SSE register file: fnsave needs 108 bytes, fxsave 512 bytes on
 * a 16-byte boundary. */
union fpu_state {
	u8 fxsave[512];
	u8 fnsave[108];
} __attribute__((aligned(16)));

struct thread_struct {
	u64 tls_array[GDT_ENTRY_TLS_ENTRIES];	/* GDT slots load_tls fills */
	u32 esp0;		/* kernel stack top, copied into the TSS */
	u32 iopl;		/* EFLAGS IOPL bits the task runs with */
	u32 debugreg[NR_WATCHPOINTS];	/* watchpoint addresses */
	u32 dr7;		/* 0: no watchpoint armed */
	u64 ldt[LDT_ENTRIES];	/* its own LDT ... */
	bool has_ldt;		/* ... if set_ldt gave it one */
	bool fpu_used;		/* fpu holds state worth restoring */
	u64 pmc_count;		/* performance counter 0, while it ran */
	union fpu_state fpu;
};

#endif
