/*
 * asm/irq.h - hardware interrupts: the two 8259 PICs and the handlers
 * drivers attach to IRQ lines 0-15.
 */
#ifndef ASM_IRQ_H
#define ASM_IRQ_H

#include <types.h>
#include <asm/traps.h>

#define NR_IRQS		16
#define IRQ_TIMER	0
#define IRQ_CASCADE	2	/* the slave PIC hangs off the master's line 2 */

typedef void (*irq_handler_t)(struct pt_regs *regs);

void pic_init(void);
void pic_mask(unsigned int irq);
void pic_unmask(unsigned int irq);
void pic_eoi(unsigned int irq);
bool pic_irq_in_service(unsigned int irq);
bool pic_irq_pending(unsigned int irq);

void request_irq(unsigned int irq, irq_handler_t handler);
void disable_irq(unsigned int irq);
void enable_irq(unsigned int irq);
void irq_dispatch(struct pt_regs *regs, unsigned int irq);
unsigned long irq_count(unsigned int irq);
unsigned long spurious_irq_count(void);

#endif
