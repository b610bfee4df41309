/*
 * panic.c - the end of the line: a kernel bug or an impossible state.
 *
 * panic() prints the reason, the registers and a backtrace, calls the
 * panic hook if one is set (panic.h; the test runner sets one to leave
 * the emulator with a failure status), then stops the CPU.
 */
#include <kernel.h>
#include <console.h>
#include <panic.h>
#include <asm/machine.h>
#include <asm/privileged.h>
#include <asm/traps.h>

static panic_hook_t panic_hook;

void panic_set_hook(panic_hook_t hook)
{
	panic_hook = hook;
}

void panic(const char *fmt, ...)
{
	static bool in_panic;
	va_list ap;

	raw_local_irq_disable();
	if (in_panic)		/* a fault while panicking: just stop */
		machine_halt();
	in_panic = true;
	console_bust();		/* print even if the console lock's holder
				   never lets go (printk.c) */

	printk("\nKERNEL PANIC: ");
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
	show_current_regs();
	if (panic_hook)
		panic_hook();
	printk("System halted.\n");
	machine_halt();
}
