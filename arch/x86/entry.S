/*
 * entry.S - the way into the kernel for every interrupt and exception.
 *
 * Each of the 256 IDT vectors gets a small stub that makes the stack look
 * the same for all of them (a 0 where the CPU pushes no error code, then
 * the vector number) and jumps to common_trap.  common_trap saves the
 * registers as a struct pt_regs, calls trap_dispatch() in C and returns
 * with INTERRUPT_RETURN, which goes through paravirt_ops like every other
 * privileged operation.
 */
#include <asm/segment.h>
#include <asm/privileged.h>

/* Exceptions for which the CPU pushes an error code itself. */
#define HAS_ERROR_CODE(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || \
			   (v) == 17 || (v) == 21 || (v) == 29 || (v) == 30)

	.text
	.globl trap_entry_stubs
	.type trap_entry_stubs, @function
trap_entry_stubs:
	.pushsection .rodata
	.balign 4
	.globl trap_stubs
trap_stubs:				/* const u32 trap_stubs[256], filled below */
	.popsection
	vector = 0
	.rept 256
	.pushsection .rodata
	.long 1f			/* this stub's address: trap_stubs[vector] */
	.popsection
1:	.if !HAS_ERROR_CODE(vector)
	pushl $0
	.endif
	pushl $vector
	jmp common_trap
	vector = vector + 1
	.endr
	.size trap_entry_stubs, . - trap_entry_stubs

	.type common_trap, @function
common_trap:
	cld				/* C code expects DF clear */
	pushl %ds
	pushl %es
	pushl %fs
	pushl %gs
	pushal
	movl $__KERNEL_DS, %eax		/* the interrupted code's %ds may be anything */
	movl %eax, %ds
	movl %eax, %es
	movl %esp, %eax			/* struct pt_regs *, first regparm argument */
	call trap_dispatch
	popal
	popl %gs
	popl %fs
	popl %es
	popl %ds
	addl $8, %esp			/* drop vector and error code */
	INTERRUPT_RETURN
	.size common_trap, . - common_trap
