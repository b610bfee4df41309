/*
 * machine.c - halting the machine, and leaving an emulator.
 *
 * emulator_exit() is for test runs only: it writes to QEMU's
 * isa-debug-exit device (port 0xf4, when QEMU was given one) and then to
 * Bochs's shutdown port (0x8900).  On a real PC, or an emulator without
 * those devices, the writes do nothing and the caller goes on to halt.
 */
#include <console.h>
#include <asm/io.h>
#include <asm/machine.h>
#include <asm/privileged.h>

#define QEMU_DEBUG_EXIT_PORT	0xf4
#define BOCHS_SHUTDOWN_PORT	0x8900

void emulator_exit(u8 value)
{
	const char *s;

	serial_flush();		/* the harness needs the last line */
	outb(QEMU_DEBUG_EXIT_PORT, value);
	for (s = "Shutdown"; *s; s++)
		outb(BOCHS_SHUTDOWN_PORT, *s);
}

/* With interrupts off, only an NMI can end hlt: loop in case one does. */
void machine_halt(void)
{
	for (;;) {
		raw_local_irq_disable();
		halt();
	}
}
