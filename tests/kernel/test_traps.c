/*
 * test_traps.c - CPU exceptions raised on purpose, and caught.
 *
 * Each faulting instruction carries an exception-table entry (as
 * rdmsr_safe does), so the handler resumes after it; the test then checks
 * the trap was counted, i.e. that it went through the IDT, the entry code
 * and the handler, and came back through INTERRUPT_RETURN.
 */
#include <ktest.h>
#include <string.h>
#include <asm/extable.h>
#include <asm/privileged.h>
#include <asm/traps.h>

/* int3 is a trap, not a fault: the kernel reports it and carries on. */
KTEST(breakpoint_is_caught)
{
	unsigned long before = trap_count(X86_TRAP_BP);

	asm volatile("int3");
	KT_EXPECT_EQ(trap_count(X86_TRAP_BP), before + 1);
}

KTEST(invalid_opcode_is_caught)
{
	unsigned long before = trap_count(X86_TRAP_UD);
	int reached = 0;

	asm volatile("1: ud2\n\t"
		     "movl $1, %0\n"	/* skipped: the fixup jumps past it */
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : "+r" (reached));
	KT_EXPECT_EQ(trap_count(X86_TRAP_UD), before + 1);
	KT_EXPECT_EQ(reached, 0);
}

KTEST(divide_error_is_caught)
{
	unsigned long before = trap_count(X86_TRAP_DE);
	u32 eax = 10, edx = 0, zero = 0;

	asm volatile("1: divl %2\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : "+a" (eax), "+d" (edx) : "r" (zero));
	KT_EXPECT_EQ(trap_count(X86_TRAP_DE), before + 1);
}

KTEST(page_fault_reports_address)
{
	unsigned long before = trap_count(X86_TRAP_PF);
	u32 value = 0;

	asm volatile("1: movl 0x10, %0\n"	/* page 0 is not mapped */
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : "+r" (value));
	KT_EXPECT_EQ(trap_count(X86_TRAP_PF), before + 1);
	KT_EXPECT_EQ(read_cr2(), 0x10);
}

KTEST(general_protection_is_caught)
{
	unsigned long before = trap_count(X86_TRAP_GP);

	/* 0xfff8 is far beyond the GDT's limit: loading it faults. */
	asm volatile("movl $0xfff8, %%eax\n"
		     "1: movl %%eax, %%fs\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : : : "eax");
	KT_EXPECT_EQ(trap_count(X86_TRAP_GP), before + 1);
}

KTEST(unknown_vector_names)
{
	KT_EXPECT(!strcmp(trap_name(X86_TRAP_DE), "divide error"));
	KT_EXPECT(!strcmp(trap_name(X86_TRAP_PF), "page fault"));
	KT_EXPECT(!strcmp(trap_name(31), "reserved (31)"));	/* the last exception */
	KT_EXPECT(!strcmp(trap_name(32), "IRQ"));		/* the first IRQ */
	KT_EXPECT(!strcmp(trap_name(47), "IRQ"));		/* the last */
	KT_EXPECT(!strcmp(trap_name(48), "unused vector"));
	KT_EXPECT(!strcmp(trap_name(255), "unused vector"));
}
