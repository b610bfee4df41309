/*
 * test_timer.c - the PIT tick and IRQ dispatch.
 */
#include <ktest.h>
#include <asm/irq.h>
#include <asm/privileged.h>
#include <asm/timer.h>

KTEST(timer_ticks_advance)
{
	unsigned long start, irqs;
	int i;

	raw_local_irq_enable();
	start = timer_ticks();
	irqs = irq_count(IRQ_TIMER);
	for (i = 0; i < 5; i++)
		raw_safe_halt();
	KT_EXPECT(timer_ticks() - start >= 5);
	KT_EXPECT(irq_count(IRQ_TIMER) - irqs >= 5);
}

/* The PIT really counts down from the divisor this kernel programmed. */
KTEST(timer_counts_down_from_divisor)
{
	unsigned int a, b, spins = 0;

	KT_EXPECT_EQ(timer_divisor(), (PIT_HZ + timer_hz() / 2) / timer_hz());
	a = timer_read_count();
	do
		b = timer_read_count();
	while (b == a && ++spins < 1000000);
	KT_EXPECT(a <= timer_divisor() && b <= timer_divisor());
	KT_EXPECT(b != a);
}

/* A spurious IRQ 7 (not in the PIC's in-service register) is counted and
 * goes to no handler. */
static unsigned long irq7_calls;

static void irq7_handler(struct pt_regs *regs)
{
	(void)regs;
	irq7_calls++;
}

KTEST(spurious_irq7_is_ignored)
{
	struct pt_regs regs = { .vector = FIRST_EXTERNAL_VECTOR + 7 };
	unsigned long spurious = spurious_irq_count(), flags = raw_local_irq_save();

	request_irq(7, irq7_handler);
	pic_mask(7);			/* request_irq unmasked it */
	irq_dispatch(&regs, 7);
	raw_local_irq_restore(flags);
	KT_EXPECT_EQ(spurious_irq_count(), spurious + 1);
	KT_EXPECT_EQ(irq7_calls, 0);
	KT_EXPECT_EQ(irq_count(7), 0);
}
