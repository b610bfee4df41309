/*
 * irq.c - delivers hardware interrupts to the driver that asked for them.
 *
 * IRQ 7 and IRQ 15 can be spurious: the 8259 raises them when a request
 * vanished before it could be acknowledged.  Such an interrupt is not in
 * the PIC's in-service register and must not get an EOI from its own
 * chip (a spurious IRQ 15 still needs one at the master, which did see a
 * real request on the cascade line).
 */
#include <kernel.h>
#include <asm/irq.h>
#include <asm/platform.h>

static irq_handler_t irq_handlers[NR_IRQS];
static unsigned long irq_counts[NR_IRQS];
static unsigned long spurious_irqs;

void request_irq(unsigned int irq, irq_handler_t handler)
{
	irq_handlers[irq] = handler;
	platform->irq_unmask(irq);
}

/* A line held off, or let through again, on whatever controller the
 * platform has (the PIC, or the host's mask in a guest). */
void disable_irq(unsigned int irq)
{
	platform->irq_mask(irq);
}

void enable_irq(unsigned int irq)
{
	platform->irq_unmask(irq);
}

unsigned long irq_count(unsigned int irq)
{
	return irq < NR_IRQS ? irq_counts[irq] : 0;
}

unsigned long spurious_irq_count(void)
{
	return spurious_irqs;
}

static bool irq_is_spurious(unsigned int irq)
{
	if ((irq != 7 && irq != 15) || platform->irq_in_service(irq))
		return false;
	spurious_irqs++;
	if (irq == 15)
		platform->irq_eoi(0);
	return true;
}

void irq_dispatch(struct pt_regs *regs, unsigned int irq)
{
	if (irq_is_spurious(irq))
		return;
	irq_counts[irq]++;
	if (irq_handlers[irq])
		irq_handlers[irq](regs);
	else
		printk("irq: unexpected IRQ %u\n", irq);
	platform->irq_eoi(irq);
}
