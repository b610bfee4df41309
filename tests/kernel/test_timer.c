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

KTEST(timer_hz_in_range)
{
	KT_EXPECT(timer_hz() >= 19 && timer_hz() <= 10000);
}
