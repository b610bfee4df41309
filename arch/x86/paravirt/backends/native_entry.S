/*
 * native_entry.S - the native ops that cannot be C functions.
 *
 * iret and sysexit are reached by a jump (INTERRUPT_RETURN,
 * ENABLE_INTERRUPTS_SYSEXIT) with the interrupt frame on top of the
 * stack, so there is no return address for a C function to use.
 */

#include <asm/extable.h>

	.text

/* Return from an interrupt or exception: pops EIP, CS, EFLAGS (and ESP, SS
 * when going back to a less privileged ring). */
	.globl native_iret
	.type native_iret, @function
native_iret:
1:	iret
	_ASM_EXTABLE 1b, iret_fault	/* a bad user frame: entry.S */
	.size native_iret, . - native_iret

/* Return to user mode after sysenter: EDX = user EIP, ECX = user ESP.
 * sti delays interrupts by one instruction, which covers sysexit: no
 * interrupt can arrive while still in the kernel with user registers. */
	.globl native_irq_enable_sysexit
	.type native_irq_enable_sysexit, @function
native_irq_enable_sysexit:
	sti
	sysexit
	.size native_irq_enable_sysexit, . - native_irq_enable_sysexit
