/*
 * enter_kernel.S - leaves real mode for good and jumps into the kernel
 * the way a Multiboot v1 loader does: flat 32-bit protected mode (the
 * GDT of gdt.S), paging off, interrupts off, EAX = 0x2BADB002 and EBX =
 * the Multiboot info.  Multiboot promises no stack; the kernel gets a
 * valid one under the boot sector anyway.
 */
#include "loader_asm.h"

#define MULTIBOOT_BOOT_MAGIC	0x2badb002

	.code16
	.text
	.globl enter_kernel
	.type enter_kernel, @function
/* void enter_kernel(u32 entry [EAX], u32 info [EDX]), never returns */
enter_kernel:
	cli
	movl %eax, %edi
	movl %edx, %esi
	lgdtl gdt_descriptor
	movl %cr0, %eax
	orb $1, %al			/* PE, and PG stays off */
	movl %eax, %cr0
	ljmpl $LOADER_CODE32, $1f	/* CS becomes 32-bit */
	.code32
1:	movw $LOADER_DATA32, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %fs
	movw %ax, %gs
	movw %ax, %ss
	movl $0x7c00, %esp
	movl $MULTIBOOT_BOOT_MAGIC, %eax
	movl %esi, %ebx
	jmp *%edi
	.size enter_kernel, . - enter_kernel
