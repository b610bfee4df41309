/*
 * ioport.c - port I/O from ring 3 with I/O privilege (iopl(3)), which
 * the kernel grants only to programs named in the `iopl=` boot option
 * (default: this one) or marked allowed.
 *
 * It reads CMOS status register D (write 0x0d to the index port 0x70,
 * read port 0x71): bit 7, "RAM and time valid", reads 1 on the PC
 * (QEMU and Bochs answer 0x80), and the kernel never uses the CMOS, so
 * the access is harmless.  Arguments:
 *
 *   (none)  iopl(3), read it, exit 0
 *   yield   hold IOPL 3 across many task switches, reading the port after
 *           each: the kernel must restore this task's IOPL (and only
 *           this task's) at every switch
 *   drop    then iopl(0) and read again: the kernel must kill the task
 *           with #GP
 *   step    then single-step an in: the #DB must come after it, at the
 *           next instruction, whoever did the in (the CPU, or a guest's
 *           host, which must then raise the #DB itself); it prints where
 *   host    (in a guest) then reach for the host's devices: QEMU's exit
 *           port, which would end the host, COM1's line status, which
 *           must read as nothing there (all ones, 8, 16 and 32 bits),
 *           and the CMOS beyond its clock
 *
 * In a guest of a pv386 host, its host does the in and out instead
 * (arch/x86/host/port_io.c: the CMOS read-only, nothing elsewhere) and
 * the CPU's IOPL stays 0, which is what pushf shows there.
 *
 * Exit status: 1 iopl(3) failed, 2 EFLAGS.IOPL is not what was asked,
 * 3 the port read something else, 4 a host's device answered, 5 no
 * single step after the in, 100 the read after iopl(0) worked.
 */
#include "lib/pv386.h"
#include <asm/io.h>	/* in/out: the same instructions the kernel uses */

#define ROUNDS		50
#define CMOS_INDEX	0x70
#define CMOS_DATA	0x71
#define CMOS_STATUS_D	0x0d	/* bit 7 clear in the index: NMIs stay on */
#define CMOS_D_VALID	0x80
#define EFLAGS_IOPL	0x3000
#define QEMU_EXIT_PORT	0xf4	/* isa-debug-exit: QEMU leaves with (v << 1) | 1 */
#define COM1_LINE_STATUS 0x3fd

static uint32_t iopl_bits(void)
{
	uint32_t f;

	asm volatile("pushfl; popl %0" : "=r" (f));
	return f & EFLAGS_IOPL;
}

/* What pushf shows once this program has I/O privilege: the CPU's IOPL
 * is 3 on a PC, and stays 0 in a guest (the host counts its exits:
 * host_counts works only there). */
static uint32_t iopl_granted_bits(void)
{
	uint32_t counts[2];

	return host_counts(counts) == 0 ? 0 : EFLAGS_IOPL;
}

/* CMOS register index: pick it, read it.  In a guest the host reads it,
 * if it is one of the clock's (its NVRAM, and status C, whose read would
 * clear the clock's interrupt flags, are not on the host's bus). */
static uint8_t cmos(uint8_t index)
{
	outb(CMOS_INDEX, index);
	return inb(CMOS_DATA);
}

static int read_status_d(void)
{
	uint8_t v = cmos(CMOS_STATUS_D);

	if (v != CMOS_D_VALID) {
		printf("ioport: CMOS status D reads %x, expected %x\n", v, CMOS_D_VALID);
		return 3;
	}
	return 0;
}

#define UNUSED_PORT	0x80	/* POST codes: nothing reads them back */

/* TF set by popf traps after the instruction that follows: the in. */
static int __attribute__((noinline)) step_over_in(void)
{
	extern const char ioport_after_in[];

	printf("ioport: after the in at %08x\n", (uint32_t)ioport_after_in);
	asm volatile("pushfl; orl $0x100, (%%esp); popfl\n\t"
		     "inb $%c0, %%al\n"
		     ".globl ioport_after_in\n"
		     "ioport_after_in:\n\t"
		     "nop; nop"
		     : : "i" (UNUSED_PORT) : "eax", "memory", "cc");
	return 5;	/* not reached: the #DB ends it */
}

/* in %dx, %al (or %eax): the rest of EAX kept, as the CPU keeps it. */
static uint32_t in_byte_keeping(uint16_t port, uint32_t eax)
{
	asm volatile("inb %%dx, %%al" : "+a" (eax) : "d" (port));
	return eax;
}

static uint32_t in_dword(uint16_t port)
{
	uint32_t v;

	asm volatile("inl %%dx, %%eax" : "=a" (v) : "d" (port));
	return v;
}

/*
 * A guest's host does this program's port I/O on a bus of its own: its
 * emulator's exit and its UART are not on it (were the exit, the host
 * would be gone after the first out), and of the clock chip only the
 * clock's registers, with NMIs left on whatever the index asks.
 */
static int reach_for_the_host(void)
{
	outb(QEMU_EXIT_PORT, 0x7f);
	if (inb(COM1_LINE_STATUS) != 0xff || inw(COM1_LINE_STATUS - 1) != 0xffff ||
	    in_dword(COM1_LINE_STATUS - 1) != 0xffffffffu ||
	    in_byte_keeping(COM1_LINE_STATUS, 0x12345600) != 0x123456ff)
		return 4;
	if (cmos(0x80 | CMOS_STATUS_D) != CMOS_D_VALID || cmos(0x0c) != 0xff ||
	    cmos(0x0e) != 0xff || cmos(0x7f) != 0xff)
		return 4;
	return 0;
}

int main(void)
{
	char arg[16];
	int i, err;
	uint32_t granted = iopl_granted_bits();

	getarg(arg, sizeof(arg));
	if (iopl_bits() != 0)
		return 2;
	if (iopl(3)) {
		printf("ioport: iopl(3) refused\n");
		return 1;
	}
	if (iopl_bits() != granted)
		return 2;
	if ((err = read_status_d()))
		return err;
	for (i = 0; !strcmp(arg, "yield") && i < ROUNDS; i++) {
		yield();
		if (iopl_bits() != granted)
			return 2;
		if ((err = read_status_d()))
			return err;
	}
	if (!strcmp(arg, "host"))
		return reach_for_the_host();
	if (!strcmp(arg, "step"))
		return step_over_in();
	if (!strcmp(arg, "drop")) {
		if (iopl(0) || iopl_bits() != 0)
			return 2;
		read_status_d();	/* #GP: the end */
		return 100;
	}
	printf("ioport: ok\n");
	return 0;
}
