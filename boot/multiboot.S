/*
 * multiboot.S - where pv386 starts: the Multiboot v1 header that GRUB and
 * QEMU's -kernel look for, and the first instructions after it.
 *
 * The loader jumps to _start in 32-bit protected mode with paging off,
 * EAX = 0x2BADB002 and EBX = the physical address of the Multiboot info.
 * Nothing else is promised: no stack, maybe no valid GDTR.  So _start only
 * sets up a stack, fills paravirt_ops, checks the magic and calls
 * kmain(info); the first thing kmain does with segments is load pv386's
 * own GDT (gdt_init).
 */
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <multiboot_header.h>

#define MULTIBOOT_BOOT_MAGIC	0x2BADB002	/* what the loader puts in EAX */

/* linker.ld places the header's section first, well inside the first 8 KiB. */
	MULTIBOOT_HEADER (MULTIBOOT_PAGE_ALIGN | MULTIBOOT_MEMORY_INFO)

	.section .bss
	.balign 16
	.globl boot_stack, boot_stack_top
boot_stack:
	.skip 16384
boot_stack_top:

	.text
	.globl _start
	.type _start, @function
_start:
	/* Loaders zero .bss for an ELF kernel; do it anyway, so a loader
	 * that does not cannot leave stale data behind.  EAX, EBX survive. */
	cld
	movl $__bss_start, %edi
	movl $__bss_end, %ecx
	subl %edi, %ecx
	movl %eax, %edx
	xorl %eax, %eax
	rep stosb
	movl %edx, %eax
	movl $boot_stack_top, %esp
	xorl %ebp, %ebp			/* ends frame-pointer backtraces here */
	/* The loader promises IF=0 and VM=0 and nothing else about EFLAGS:
	 * NT=1, say, would turn the first iret into a task switch.  Start
	 * from a clean EFLAGS (all clear but the always-one bit 1), set
	 * through the table like any other privileged operation. */
	pushl %eax
#ifdef CONFIG_PARAVIRT
	call paravirt_init		/* the table, before anything uses it */
#endif
	movl $X86_EFLAGS_FIXED, %eax
	RESTORE_FLAGS_FROM_EAX
	popl %eax
	cmpl $MULTIBOOT_BOOT_MAGIC, %eax
	jne 1f
	movl %ebx, %eax			/* kmain(info): regparm, first arg in EAX */
	call kmain
	jmp 2f
1:	call boot_bad_magic		/* EAX still holds the wrong magic */
2:	DISABLE_INTERRUPTS		/* neither returns; if one did, stop here */
	HALT
	jmp 2b
	.size _start, . - _start
