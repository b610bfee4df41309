/*
 * panic.c - the end of the line: a kernel bug or an impossible state.
 *
 * panic() prints the reason, the registers and a backtrace, then stops
 * the CPU.  During a test run it also leaves the emulator with a failure
 * status, so a hung suite is never mistaken for a passing one.
 */
#include <kernel.h>
#include <ktest.h>
#include <asm/machine.h>
#include <asm/privileged.h>
#include <asm/traps.h>

void panic(const char *fmt, ...)
{
	static bool in_panic;
	va_list ap;

	raw_local_irq_disable();
	if (in_panic)		/* a fault while panicking: just stop */
		machine_halt();
	in_panic = true;

	printk("\nKERNEL PANIC: ");
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
	show_current_regs();
	if (ktest_running())
		emulator_exit(EMU_EXIT_FAIL);
	printk("System halted.\n");
	machine_halt();
}
