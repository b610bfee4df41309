/*
 * a20.c - turns the A20 gate on, and makes sure it is on.
 *
 * With A20 off, address bit 20 is forced to 0 and the odd megabytes
 * alias the even ones, so a kernel loaded at 1 MiB would land on the
 * interrupt vectors.  Three ways, from the gentlest: the BIOS (INT 15h
 * AX=2401), the keyboard controller's output port, the "fast A20" bit of
 * port 0x92.  After each, a20_is_on() looks: a check that trusted the
 * method, or that compared two places that happen to hold the same value,
 * would say "on" on a machine where it is not.
 */
#include "loader.h"
#include <asm/io.h>	/* the kernel's port I/O, shared */

#define KBC_DATA	0x60
#define KBC_STATUS	0x64
#define KBC_INPUT_FULL	0x02
#define KBC_WRITE_OUTPUT 0xd1
#define KBC_A20_ON	0xdf	/* output port: A20 and the CPU's reset line high */
#define PORT92		0x92
#define PORT92_A20	0x02
#define PORT92_RESET	0x01	/* writing 1 resets the CPU: never set it */
#define SPIN		100000
#define CHECK_TRIES	1000	/* the KBC takes a while to act */

/* Write a value at 0x500 and its complement at 0x100500; with A20 off
 * the second write lands on the first.  0x500 is free low memory; both
 * places get their old contents back. */
static int a20_is_on(void)
{
	volatile u32 *low = phys(0x000500);
	volatile u32 *high = phys(0x100500);
	u32 old_low = *low, old_high = *high;
	int on;

	*low = 0x20a20a20;
	*high = ~0x20a20a20u;
	on = *low == 0x20a20a20;
	*high = old_high;
	*low = old_low;
	return on;
}

static int a20_is_on_soon(void)
{
	int i;

	for (i = 0; i < CHECK_TRIES; i++)
		if (a20_is_on())
			return 1;
	return 0;
}

static void a20_by_bios(void)
{
	struct biosregs r = { .eax = 0x2401 };

	bios_call(0x15, &r);
}

static void kbc_wait(void)
{
	int i;

	for (i = 0; i < SPIN && (inb(KBC_STATUS) & KBC_INPUT_FULL); i++)
		;
}

static void a20_by_kbc(void)
{
	kbc_wait();
	outb(KBC_STATUS, KBC_WRITE_OUTPUT);
	kbc_wait();
	outb(KBC_DATA, KBC_A20_ON);
	kbc_wait();
}

static void a20_port92(int on)
{
	u8 v = inb(PORT92) & ~PORT92_RESET;

	outb(PORT92, on ? (v | PORT92_A20) : (v & ~PORT92_A20));
}

void a20_enable(u32 header_flags)
{
	/* A test image starts with A20 off, as a real PC would. */
	if (header_flags & HEADER_F_A20_OFF_FIRST)
		a20_port92(0);
	if (a20_is_on()) {
		print("a20: on already\n");
		return;
	}
	print("a20: off, ");
	if (!(header_flags & HEADER_F_A20_NO_BIOS)) {
		a20_by_bios();
		if (a20_is_on_soon()) {
			print("on by the BIOS (int 15h ax=2401)\n");
			return;
		}
	}
	if (!(header_flags & HEADER_F_A20_NO_KBC)) {
		a20_by_kbc();
		if (a20_is_on_soon()) {
			print("on by the keyboard controller\n");
			return;
		}
	}
	a20_port92(1);
	if (a20_is_on_soon()) {
		print("on by port 0x92\n");
		return;
	}
	die("the A20 gate stays off (tried the BIOS, the keyboard controller, port 0x92)");
}
