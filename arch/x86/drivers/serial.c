/*
 * serial.c - COM1 (a 16550-compatible UART at port 0x3f8) as a console:
 * 115200 baud, 8 data bits, no parity, 1 stop bit.  Output is polled;
 * input, for the kernel shell, comes by IRQ 4 into the console's input
 * queue (kernel/console_input.c).
 *
 * The serial line is what tests read, so it is the first console up.
 */
#include <console.h>
#include <console_input.h>
#include <string.h>
#include <asm/io.h>
#include <asm/irq.h>

#define COM1		0x3f8
#define UART_DATA	0	/* receive / transmit buffer */
#define UART_IER	1	/* interrupt enable */
#define UART_FCR	2	/* FIFO control */
#define UART_LCR	3	/* line control; bit 7 exposes the divisor */
#define UART_MCR	4	/* modem control */
#define UART_LSR	5	/* line status */
#define UART_DLL	0	/* divisor latch, low and high byte */
#define UART_DLM	1

#define IER_RX_READY	0x01	/* interrupt when a byte has arrived */
#define MCR_DTR_RTS	0x03
#define MCR_OUT2	0x08	/* on a PC, gates the UART's line to the PIC */
#define LSR_DATA_READY	0x01
#define LSR_THR_EMPTY	0x20	/* ready for the next byte */
#define LSR_TX_IDLE	0x40	/* transmitter empty: the last bit is out */
#define LCR_DLAB	0x80
#define LCR_8N1		0x03

static bool serial_present;

static void serial_putc(char c)
{
	int spins = 100000;	/* give up rather than hang on a dead UART */

	while (!(inb(COM1 + UART_LSR) & LSR_THR_EMPTY) && --spins)
		;
	outb(COM1 + UART_DATA, c);
}

static void serial_write(const char *s, size_t n)
{
	while (n--) {
		if (*s == '\n')
			serial_putc('\r');
		serial_putc(*s++);
	}
}

void serial_puts(const char *s)
{
	if (serial_present)
		serial_write(s, strlen(s));
}

void serial_flush(void)
{
	int spins = 100000;

	while (serial_present && !(inb(COM1 + UART_LSR) & LSR_TX_IDLE) && --spins)
		;
}

static struct console serial_console = {
	.name = "ttyS0",
	.write = serial_write,
};

void serial_init(void)
{
	/* A missing UART floats the bus: every register reads 0xff. */
	if (serial_present || inb(COM1 + UART_LSR) == 0xff)
		return;
	outb(COM1 + UART_IER, 0x00);		/* polled: no UART interrupts */
	outb(COM1 + UART_LCR, LCR_DLAB);
	outb(COM1 + UART_DLL, 1);		/* 115200 = 115200 / 1 */
	outb(COM1 + UART_DLM, 0);
	outb(COM1 + UART_LCR, LCR_8N1);
	outb(COM1 + UART_FCR, 0xc7);		/* enable and clear FIFOs */
	outb(COM1 + UART_MCR, MCR_DTR_RTS);
	serial_present = true;
	register_console(&serial_console);
}

#define IRQ_COM1	4

static console_receive_fn receive;	/* the console's input queue */

/* Everything the FIFO holds: one interrupt may stand for many bytes. */
static void serial_interrupt(struct pt_regs *regs)
{
	int limit = 64;		/* a UART stuck "ready" must not hang us */

	(void)regs;
	while ((inb(COM1 + UART_LSR) & LSR_DATA_READY) && limit--)
		receive(inb(COM1 + UART_DATA));
	if (inb(COM1 + UART_LSR) & LSR_DATA_READY) {
		/* Bytes left: the UART keeps its line up, and the 8259 only
		 * sees edges.  Drop and raise it, for an interrupt to come. */
		outb(COM1 + UART_IER, 0);
		outb(COM1 + UART_IER, IER_RX_READY);
	}
}

bool serial_input_init(console_receive_fn receiver)
{
	if (!serial_present)
		return false;
	receive = receiver;
	request_irq(IRQ_COM1, serial_interrupt);
	outb(COM1 + UART_MCR, MCR_DTR_RTS | MCR_OUT2);
	outb(COM1 + UART_IER, IER_RX_READY);	/* bytes already there raise it too */
	return true;
}
