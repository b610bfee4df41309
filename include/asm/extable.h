/*
 * asm/extable.h - the exception table: "if the instruction at A faults,
 * continue at B instead of dying".
 *
 * Each entry is two addresses placed in the __ex_table section by the
 * assembler, so the table is complete at link time and works from the
 * first instruction of C: nothing registers it.  The trap handler
 * (arch/x86/kernel/traps.c) looks up the faulting EIP before treating a kernel
 * fault as fatal.  This is how native_read_msr returns -EFAULT for an
 * MSR the CPU does not have, instead of crashing.
 */
#ifndef ASM_EXTABLE_H
#define ASM_EXTABLE_H

#ifdef __ASSEMBLER__

/* In .S files: _ASM_EXTABLE faulting_label, fixup_label */
.macro _ASM_EXTABLE from, to
	.pushsection __ex_table, "a"
	.balign 4
	.long \from, \to
	.popsection
.endm

#else

#include <types.h>

/* For inline asm: a string that records one entry. */
#define _ASM_EXTABLE(from, to)				\
	".pushsection __ex_table, \"a\"\n\t"		\
	".balign 4\n\t"					\
	".long " #from ", " #to "\n\t"			\
	".popsection\n\t"

struct exception_table_entry {
	unsigned long insn;	/* address of the instruction that may fault */
	unsigned long fixup;	/* where to continue if it does */
};

void extable_init(void);		/* sort, once, before paging */
/* Entries for code loaded at boot (the ops ROM): sorted in place and
 * searched after the kernel's own; they must stay where they are. */
void extable_add_loaded(struct exception_table_entry *entries, unsigned int n);
const struct exception_table_entry *search_exception_tables(unsigned long addr);

#endif
#endif
