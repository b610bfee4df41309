/*
 * console.c - the loader's output and input: the screen through the BIOS
 * (INT 10h teletype, INT 16h keyboard) and COM1 directly, so a machine
 * without a screen, or a test reading the serial line, sees everything.
 * print() knows %s %c %u %x, all the loader's messages need.
 */
#include "loader.h"
#include <asm/io.h>	/* the kernel's port I/O, shared */

#define COM1		0x3f8
#define COM1_LSR	(COM1 + 5)
#define LSR_DATA_READY	0x01
#define LSR_THR_EMPTY	0x20
#define COM1_SPIN	100000	/* give up on a COM1 that never gets ready */
#define BDA_TICKS	((volatile u32 *)0x46c)

/* 115200 baud, 8N1, FIFOs on: what the kernel's serial driver uses too. */
void console_init(void)
{
	outb(COM1 + 1, 0x00);		/* no interrupts */
	outb(COM1 + 3, 0x80);		/* DLAB: the divisor follows */
	outb(COM1 + 0, 0x01);
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03);		/* 8 bits, no parity, 1 stop bit */
	outb(COM1 + 2, 0xc7);
	outb(COM1 + 4, 0x03);		/* DTR, RTS */
}

static void serial_putc(char c)
{
	u32 spin;

	for (spin = 0; spin < COM1_SPIN; spin++)
		if (inb(COM1_LSR) & LSR_THR_EMPTY)
			break;
	outb(COM1, (u8)c);
}

static void screen_putc(char c)
{
	struct biosregs r = { .eax = 0x0e00 | (u8)c, .ebx = 0x0007 };

	bios_call(0x10, &r);
}

void console_putc(char c)
{
	if (c == '\n')
		console_putc('\r');
	screen_putc(c);
	serial_putc(c);
}

static void put_number(u32 n, u32 base)
{
	char digits[12];
	int i = 0;

	do {
		digits[i++] = "0123456789abcdef"[n % base];
		n /= base;
	} while (n);
	while (i)
		console_putc(digits[--i]);
}

static void vprint(const char *fmt, va_list ap)
{
	const char *s;

	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			console_putc(*fmt);
			continue;
		}
		switch (*++fmt) {
		case 's':
			for (s = va_arg(ap, const char *); *s; s++)
				console_putc(*s);
			break;
		case 'c':
			console_putc((char)va_arg(ap, int));
			break;
		case 'u':
			put_number(va_arg(ap, u32), 10);
			break;
		case 'x':
			put_number(va_arg(ap, u32), 16);
			break;
		default:
			console_putc('%');
			console_putc(*fmt);
			break;
		}
	}
}

void print(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint(fmt, ap);
	va_end(ap);
}

/* Every error ends here: one clear line on both outputs, then halt with
 * interrupts off so nothing else gets printed after it. */
void die(const char *fmt, ...)
{
	va_list ap;

	print("\npv386 loader: error: ");
	va_start(ap, fmt);
	vprint(fmt, ap);
	va_end(ap);
	print("; stopped\n");
	for (;;)
		asm volatile("cli; hlt");
}

int console_getc(void)
{
	struct biosregs r = { .eax = 0x0100 };	/* a key waiting? */

	bios_call(0x16, &r);
	if (!(r.flags & 0x0040)) {		/* ZF clear: yes, take it */
		r.eax = 0x0000;
		bios_call(0x16, &r);
		return (u8)r.eax;
	}
	if (inb(COM1_LSR) & LSR_DATA_READY)
		return inb(COM1);
	return -1;
}

u32 bios_ticks(void)
{
	return *BDA_TICKS;
}
