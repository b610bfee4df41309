/*
 * rom_entry.S - the ROM's ops that cannot be C functions: iret and
 * sysexit are jumped to with the interrupt frame on the stack (see
 * arch/x86/native_entry.S for the kernel's own), and sync_core must find
 * its own address without an absolute relocation.
 *
 * A faulting iret (a bad user frame) must reach the kernel's handler,
 * whose address the ROM cannot know: its fixup is the ABI's
 * PVROM_FIXUP_USER_RETURN, which the glue turns into that handler.
 */
#include <asm/extable.h>
#include <asm/pvrom.h>

	.text

	.globl native_iret
	.type native_iret, @function
native_iret:
1:	iret
	_ASM_EXTABLE 1b, PVROM_FIXUP_USER_RETURN
	.size native_iret, . - native_iret

	.globl native_irq_enable_sysexit
	.type native_irq_enable_sysexit, @function
native_irq_enable_sysexit:
	sti
	sysexit
	.size native_irq_enable_sysexit, . - native_irq_enable_sysexit

/* Serialize by an iret to the next instruction, as the kernel's does,
 * but with the return address computed from where the code runs. */
	.globl native_sync_core
	.type native_sync_core, @function
native_sync_core:
	pushfl
	pushl %cs
	call 1f
1:	addl $(2f - 1b), (%esp)
	iret
2:	ret
	.size native_sync_core, . - native_sync_core
