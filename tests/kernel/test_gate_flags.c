/*
 * test_gate_flags.c - the interrupt flag a handler starts with: off
 * through an interrupt gate, as it was through a trap gate (Intel SDM
 * vol. 3, 6.12.1.3).  Natively the CPU decides; in a guest of a pv386
 * host, the host's delivery (arch/x86/host/interrupts.c) does it for the
 * guest's own IDT, in the flag word the guest's save_fl reads - where
 * the two kinds could be swapped without any other test seeing it.
 */
#include <ktest.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/traps.h>

#define INTR_GATE_VECTOR	0xf4	/* free software vectors */
#define TRAP_GATE_VECTOR	0xf5

static unsigned long flags_seen;

static void note_flags(struct pt_regs *regs)
{
	(void)regs;
	flags_seen = raw_local_save_flags();
}

/* The flags note_flags saw through `int $vector`, raised with
 * interrupts on. */
#define FLAGS_THROUGH(vector)						\
	({								\
		flags_seen = ~0ul;					\
		raw_local_irq_enable();					\
		asm volatile("int %0" : : "i" (vector) : "memory");	\
		flags_seen;						\
	})

KTEST(interrupt_gate_clears_if_trap_gate_keeps_it)
{
	unsigned long flags = raw_local_save_flags(), intr, trap;

	set_system_gate(INTR_GATE_VECTOR, note_flags);
	set_syscall_gate(TRAP_GATE_VECTOR, note_flags);
	intr = FLAGS_THROUGH(INTR_GATE_VECTOR);
	trap = FLAGS_THROUGH(TRAP_GATE_VECTOR);
	set_system_gate(INTR_GATE_VECTOR, NULL);
	set_system_gate(TRAP_GATE_VECTOR, NULL);
	raw_local_irq_restore(flags);
	KT_EXPECT(intr != ~0ul && trap != ~0ul);	/* both handlers ran */
	KT_EXPECT_EQ(intr & X86_EFLAGS_IF, 0);
	KT_EXPECT_EQ(trap & X86_EFLAGS_IF, X86_EFLAGS_IF);
	/* and after each, the interrupted code's own flag is back */
	KT_EXPECT_EQ(raw_local_save_flags() & X86_EFLAGS_IF, flags & X86_EFLAGS_IF);
}
