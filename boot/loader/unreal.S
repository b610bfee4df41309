/*
 * unreal.S - "unreal mode": real mode with 4 GiB data segment limits.
 *
 * Why unreal mode rather than a trip to protected mode per copy: stage 2
 * is C compiled with gcc -m16, which addresses memory with 32-bit offsets
 * from DS and ES.  With 4 GiB limits in those segments' hidden caches, a
 * plain C pointer reaches the track buffer at 64 KiB and the kernel above
 * 1 MiB, while the BIOS stays callable.  Loading a segment register in
 * real mode changes only its base, so the limits last, until something
 * (a BIOS that visits protected mode) resets them: bios.S therefore calls
 * unreal_enter again after every BIOS call.
 */
#include "loader_asm.h"

	.code16
	.text
	.globl unreal_enter
	.type unreal_enter, @function
unreal_enter:
	pushfl				/* keep the caller's IF */
	pushl %eax
	pushl %ebx
	cli
	lgdtl gdt_descriptor
	movl %cr0, %eax
	orb $1, %al			/* PE */
	movl %eax, %cr0
	jmp 1f				/* a 386 wants its prefetch queue flushed */
1:	movw $LOADER_DATA32, %bx	/* 4 GiB limits into the hidden caches */
	movw %bx, %ds
	movw %bx, %es
	movw %bx, %fs
	movw %bx, %gs
	andb $0xfe, %al
	movl %eax, %cr0
	jmp 2f
2:	xorw %bx, %bx			/* real-mode bases 0; the limits stay */
	movw %bx, %ds
	movw %bx, %es
	movw %bx, %fs
	movw %bx, %gs
	popl %ebx
	popl %eax
	popfl
	retl
	.size unreal_enter, . - unreal_enter
