/*
 * test_entry_macros.c - the assembly macros of asm/privileged.h, through
 * the wrappers in entry_macros.S: the same effect as the C wrappers, and
 * no register lost that the macro promises to keep.
 */
#include <ktest.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>

int macro_disable_interrupts(void);
int macro_enable_interrupts(void);
u32 macro_get_cr0(u32 *regs_kept);

KTEST(macro_disable_enable_interrupts)
{
	unsigned long flags = raw_local_save_flags();

	KT_EXPECT_EQ(macro_disable_interrupts(), 1);
	KT_EXPECT(!(raw_local_save_flags() & X86_EFLAGS_IF));
	KT_EXPECT_EQ(macro_enable_interrupts(), 1);
	KT_EXPECT(raw_local_save_flags() & X86_EFLAGS_IF);
	raw_local_irq_restore(flags);
}

KTEST(macro_get_cr0_into_eax)
{
	u32 kept = 0, cr0 = macro_get_cr0(&kept);

	KT_EXPECT_EQ(cr0, read_cr0());
	/* Known bits too, or a macro and an op that agree on garbage pass. */
	KT_EXPECT_EQ(cr0 & (X86_CR0_PE | X86_CR0_PG), X86_CR0_PE | X86_CR0_PG);
	KT_EXPECT_EQ(kept, 1);
}
