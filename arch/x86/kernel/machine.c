/*
 * machine.c - halting, restarting and powering off the machine, and
 * leaving an emulator.
 *
 * emulator_exit() is for test runs only: it writes to QEMU's
 * isa-debug-exit device (port 0xf4, when QEMU was given one) and then to
 * Bochs's shutdown port (0x8900).  On a real PC, or an emulator without
 * those devices, the writes do nothing and the caller goes on to halt.
 *
 * machine_restart() asks the keyboard controller to pulse the CPU's reset
 * line, as every PC since the AT can; if nothing happens (no 8042), it
 * makes the CPU triple-fault, which resets any PC.  machine_power_off()
 * knows only emulators: QEMU's ACPI power-management port (where the
 * firmware put it: 0xb004 on the i440FX "pc" machine, 0x604 on q35) and
 * Bochs's shutdown port.  pv386 has no ACPI interpreter, so on a real PC
 * it cannot power off: it says so and halts.  These are the PC's ways
 * (pc_*); a guest asks its host instead (asm/platform.h).
 */
#include <string.h>
#include <console.h>
#include <asm/cpu.h>
#include <asm/desc_defs.h>
#include <asm/io.h>
#include <asm/machine.h>
#include <asm/platform.h>
#include <asm/privileged.h>

#define QEMU_DEBUG_EXIT_PORT	0xf4
#define BOCHS_SHUTDOWN_PORT	0x8900
#define I8042_STATUS		0x64
#define I8042_IN_FULL		0x02	/* it has not taken our last byte */
#define I8042_PULSE_RESET	0xfe	/* pulse output line 0: CPU reset */
#define ACPI_PM1A_CNT_PIIX4	0xb004	/* QEMU "pc": SeaBIOS's PM base + 4 */
#define ACPI_PM1A_CNT_ICH9	0x604	/* QEMU q35 */
#define ACPI_SLP_EN_S5		0x2000	/* SLP_EN with the sleep type QEMU takes as S5 */

static void bochs_shutdown(void)
{
	const char *s;

	for (s = "Shutdown"; *s; s++)
		outb(BOCHS_SHUTDOWN_PORT, *s);
}

void pc_emulator_exit(u8 value)
{
	serial_flush();		/* the harness needs the last line */
	outb(QEMU_DEBUG_EXIT_PORT, value);
	bochs_shutdown();
}

/* Where the platform has a way out (asm/platform.h); else it returns. */
void emulator_exit(u8 value)
{
	platform->emulator_exit(value);
}

/* An emulator acts on a reset or power-off request between instructions
 * of its own choosing: give it time before deciding nothing happened. */
static void wait_a_moment(void)
{
	int spins;

	for (spins = 100000; spins; spins--)
		io_delay();
}

static void i8042_pulse_reset(void)
{
	int spins = 100000;

	while ((inb(I8042_STATUS) & I8042_IN_FULL) && --spins)
		;
	outb(I8042_STATUS, I8042_PULSE_RESET);
	wait_a_moment();
}

/* No IDT at all: the next exception cannot be delivered, nor the double
 * fault that follows, and the CPU shuts down - a reset on a PC. */
static void triple_fault(void)
{
	static const struct desc_ptr no_idt = { 0, 0 };

	load_idt(&no_idt);
	asm volatile("int3");
}

void pc_restart(void)
{
	serial_flush();
	i8042_pulse_reset();
	triple_fault();
}

void machine_restart(void)
{
	raw_local_irq_disable();
	platform->restart();
	machine_halt();
}

/* Only where an emulator is known to listen; it returns if none did. */
void pc_power_off(void)
{
	serial_flush();
	if (!strcmp(boot_cpu.hypervisor, "QEMU TCG") ||
	    !strcmp(boot_cpu.hypervisor, "KVM")) {
		outw(ACPI_PM1A_CNT_PIIX4, ACPI_SLP_EN_S5);
		outw(ACPI_PM1A_CNT_ICH9, ACPI_SLP_EN_S5);
	}
	bochs_shutdown();
	wait_a_moment();
}

void machine_power_off(void)
{
	raw_local_irq_disable();
	platform->power_off();
}

/* With interrupts off, only an NMI can end hlt: loop in case one does. */
void machine_halt(void)
{
	for (;;) {
		raw_local_irq_disable();
		halt();
	}
}
