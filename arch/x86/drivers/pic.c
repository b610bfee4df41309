/*
 * pic.c - the two cascaded 8259A programmable interrupt controllers.
 *
 * At power-on the master PIC delivers IRQs 0-7 on vectors 8-15, which
 * collide with CPU exceptions; pic_init moves IRQs 0-15 to vectors
 * 32-47.  Every line starts masked; request_irq unmasks one.
 */
#include <asm/io.h>
#include <asm/irq.h>

#define PIC1_CMD	0x20
#define PIC1_DATA	0x21
#define PIC2_CMD	0xa0
#define PIC2_DATA	0xa1

#define ICW1_INIT	0x11	/* edge-triggered, cascade, ICW4 follows */
#define ICW4_8086	0x01
#define OCW2_EOI	0x20	/* non-specific end of interrupt */
#define OCW3_READ_IRR	0x0a	/* next read of the command port gives IRR */
#define OCW3_READ_ISR	0x0b	/* next read of the command port gives ISR */

static u16 irq_mask = 0xffff & ~(1 << IRQ_CASCADE);

static void pic_write_masks(void)
{
	outb(PIC1_DATA, irq_mask & 0xff);
	outb(PIC2_DATA, irq_mask >> 8);
}

void pic_init(void)
{
	outb(PIC1_CMD, ICW1_INIT);  io_delay();
	outb(PIC2_CMD, ICW1_INIT);  io_delay();
	outb(PIC1_DATA, FIRST_EXTERNAL_VECTOR);     io_delay();	/* ICW2: base */
	outb(PIC2_DATA, FIRST_EXTERNAL_VECTOR + 8); io_delay();
	outb(PIC1_DATA, 1 << IRQ_CASCADE); io_delay();	/* ICW3: slave on 2 */
	outb(PIC2_DATA, IRQ_CASCADE);      io_delay();	/* ICW3: my id is 2 */
	outb(PIC1_DATA, ICW4_8086); io_delay();
	outb(PIC2_DATA, ICW4_8086); io_delay();
	pic_write_masks();
}

void pic_mask(unsigned int irq)
{
	irq_mask |= 1 << irq;
	pic_write_masks();
}

void pic_unmask(unsigned int irq)
{
	irq_mask &= ~(1 << irq);
	pic_write_masks();
}

/* A slave IRQ needs an EOI at both chips: the master saw it on line 2. */
void pic_eoi(unsigned int irq)
{
	if (irq >= 8)
		outb(PIC2_CMD, OCW2_EOI);
	outb(PIC1_CMD, OCW2_EOI);
}

static bool pic_read_bit(unsigned int irq, u8 ocw3)
{
	u16 port = irq >= 8 ? PIC2_CMD : PIC1_CMD;

	outb(port, ocw3);
	return inb(port) & (1 << (irq & 7));
}

/* The CPU has taken the interrupt and not yet acknowledged it (EOI). */
bool pic_irq_in_service(unsigned int irq)
{
	return pic_read_bit(irq, OCW3_READ_ISR);
}

/* The line has raised a request the CPU has not taken yet. */
bool pic_irq_pending(unsigned int irq)
{
	return pic_read_bit(irq, OCW3_READ_IRR);
}
