/*
 * test_irqflags.c - the interrupt-flag ops: irq_disable, irq_enable,
 * save_fl, restore_fl, save_fl_irq_disable, safe_halt and halt.
 *
 * The effect of each is visible in EFLAGS.IF (read back with save_fl),
 * and, for the halts, in the timer tick that must have woken the CPU.
 */
#include <ktest.h>
#include <asm/apic.h>
#include <asm/irq.h>
#include <asm/platform.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/timer.h>

static bool irqs_on(void)
{
	return raw_local_save_flags() & X86_EFLAGS_IF;
}

/* EFLAGS without the arithmetic flags (CF PF AF ZF SF OF), which change
 * with every instruction: what the kernel sets on purpose.  In a test
 * that is bit 1 (always one), IF when interrupts are on, nothing else. */
#define ARITHMETIC_FLAGS	0x8d5ul
#define FLAGS_IRQS_OFF		0x00000002ul
#define FLAGS_IRQS_ON		0x00000202ul

static unsigned long system_flags(void)
{
	return raw_local_save_flags() & ~ARITHMETIC_FLAGS;
}

/* save_fl reads the CPU, not a copy kept somewhere: DF, which nothing
 * but std and cld changes (neither privileged), shows up in it. */
KTEST(save_fl_reads_known_flags)
{
	unsigned long saved = raw_local_irq_save(), with_df;

	KT_EXPECT_EQ(system_flags(), FLAGS_IRQS_OFF);
	asm volatile("std" : : : "memory");
	with_df = system_flags();
	asm volatile("cld" : : : "memory");
	KT_EXPECT_EQ(with_df, FLAGS_IRQS_OFF | X86_EFLAGS_DF);
	raw_local_irq_enable();
	KT_EXPECT_EQ(system_flags(), FLAGS_IRQS_ON);
	raw_local_irq_restore(saved);
}

KTEST(irq_disable_clears_if)
{
	unsigned long flags = raw_local_save_flags();

	raw_local_irq_disable();
	KT_EXPECT(!irqs_on());
	raw_local_irq_restore(flags);
}

KTEST(irq_enable_sets_if)
{
	unsigned long flags = raw_local_save_flags();

	raw_local_irq_disable();
	raw_local_irq_enable();
	KT_EXPECT(irqs_on());
	raw_local_irq_restore(flags);
}

KTEST(save_fl_irq_disable_returns_old_flags)
{
	unsigned long before, saved;

	raw_local_irq_enable();
	before = raw_local_save_flags();
	saved = raw_local_irq_save();
	KT_EXPECT_EQ(saved, before);
	KT_EXPECT_EQ(saved & ~ARITHMETIC_FLAGS, FLAGS_IRQS_ON);
	KT_EXPECT_EQ(system_flags(), FLAGS_IRQS_OFF);
	raw_local_irq_restore(saved);
	KT_EXPECT(irqs_on());
}

KTEST(restore_fl_restores_both_states)
{
	unsigned long off, on;

	raw_local_irq_disable();
	off = raw_local_save_flags();
	raw_local_irq_enable();
	on = raw_local_save_flags();
	raw_local_irq_restore(off);
	KT_EXPECT(!irqs_on());
	raw_local_irq_restore(on);
	KT_EXPECT(irqs_on());
	KT_EXPECT(off & X86_EFLAGS_FIXED);	/* bit 1 always reads 1 */
	/* Known values in, the same out: not only what save_fl gave. */
	raw_local_irq_restore(FLAGS_IRQS_OFF);
	KT_EXPECT_EQ(system_flags(), FLAGS_IRQS_OFF);
	raw_local_irq_restore(FLAGS_IRQS_ON);
	KT_EXPECT_EQ(system_flags(), FLAGS_IRQS_ON);
}

/*
 * With interrupts off, a timer interrupt held pending (by the PIC, or by
 * the host in a guest) must wait: the tick count cannot move.  Once they
 * are back on - by irq_enable or by restore_fl - it is taken at once: in
 * a guest, only if both ops look for what came meanwhile (lguest once
 * shipped without that check).
 */
static void hold_off_timer(struct ktest_ctx *kt_ctx, bool by_restore)
{
	unsigned long start, spins = 0, flags = raw_local_irq_save();

	start = timer_ticks();
	while (!platform->irq_pending(IRQ_TIMER) && ++spins < 100000000)
		;
	KT_EXPECT(platform->irq_pending(IRQ_TIMER));
	KT_EXPECT_EQ(timer_ticks(), start);
	if (by_restore)
		raw_local_irq_restore(flags | X86_EFLAGS_IF);
	else
		raw_local_irq_enable();
	KT_EXPECT(timer_ticks() != start);	/* delivered right away */
}

KTEST(irq_disable_holds_off_timer)
{
	hold_off_timer(kt_ctx, false);
}

KTEST(irq_restore_takes_pending_timer)
{
	hold_off_timer(kt_ctx, true);
}

/* safe_halt = enable interrupts and sleep: it must come back, with
 * interrupts on, after the timer woke it: the PIT, or with more than
 * one CPU the local APIC's timer, which gives the scheduler's tick. */
KTEST(safe_halt_wakes_on_timer)
{
	unsigned long start, local_start;

	raw_local_irq_disable();
	start = timer_ticks();
	local_start = apic_timer_ticks();
	raw_safe_halt();
	KT_EXPECT(irqs_on());
	KT_EXPECT(timer_ticks() != start || apic_timer_ticks() != local_start);
}

KTEST(halt_waits_for_interrupt)
{
	unsigned long start;

	raw_local_irq_enable();
	start = timer_ticks();
	halt();
	halt();
	KT_EXPECT(timer_ticks() != start);
}
