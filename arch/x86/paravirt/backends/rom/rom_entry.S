/*
 * rom_entry.S - the ROM's sync_core, which must find its own address
 * without an absolute relocation (the kernel's pushes `$1f`, an address
 * that would be wrong once the ROM is copied).
 *
 * The ROM's iret and sysexit are the kernel's own file,
 * arch/x86/paravirt/backends/native_entry.S, assembled into the ROM: its iret's fixup,
 * iret_fault, is defined by rom/rom.ld as ROM_FIXUP_USER_RETURN, which
 * the glue turns into the kernel's handler.
 */

	.text

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
