/*
 * power.c - the shell's reboot and poweroff
 * (arch/x86/kernel/machine.c does the work).
 *
 *   reboot     the keyboard controller pulses the reset line; without
 *              one, a triple fault resets the PC.  QEMU started with
 *              -no-reboot (as tests/run does) exits instead.
 *   poweroff   QEMU: its ACPI port, QEMU exits with status 0.  Bochs:
 *              its shutdown port.  A real PC: pv386 has no ACPI, so it
 *              says it cannot, and halts with interrupts off.
 */
#include <kernel.h>
#include <shell.h>
#include <asm/machine.h>

static int cmd_reboot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk("reboot: resetting the machine\n");
	machine_restart();
}
shell_command("reboot", cmd_reboot, "", "reset: keyboard controller, else triple fault");

static int cmd_poweroff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk("poweroff: powering off\n");
	machine_power_off();
	printk("poweroff: this machine cannot be powered off by pv386 (no ACPI "
	       "support); halted with interrupts off: switch it off now\n");
	machine_halt();
}
shell_command("poweroff", cmd_poweroff, "", "QEMU and Bochs: power off; a PC: halt");
