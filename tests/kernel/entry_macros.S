/*
 * entry_macros.S - small functions around the entry-code macros
 * (DISABLE_INTERRUPTS, ENABLE_INTERRUPTS, GET_CR0_INTO_EAX), so that
 * test_entry_macros.c can check each one's effect and its promise about
 * registers: the first two keep every register, the third all but EAX.
 * With PARAVIRT=y each is a patch site, so the checks hold in every
 * patcher mode (nopatch, patched, pvdebug).
 *
 * (The macros expand to several ;-separated statements, which is why
 * these are C-preprocessor macros: a GAS .macro argument would end at
 * the first ';'.)
 */
#include <asm/privileged.h>

#define SET_REGS			\
	movl $0x11111111, %eax;		\
	movl $0x22222222, %ecx;		\
	movl $0x33333333, %edx

/* EBX = 1 if ECX and EDX still hold what SET_REGS put there, else 0. */
#define CHECK_ECX_EDX			\
	xorl %ebx, %ebx;		\
	cmpl $0x22222222, %ecx;		\
	jne 1f;				\
	cmpl $0x33333333, %edx;		\
	jne 1f;				\
	incl %ebx;			\
1:

/* And EAX too. */
#define CHECK_ALL			\
	cmpl $0x11111111, %eax;		\
	jne 2f;				\
	CHECK_ECX_EDX;			\
	jmp 3f;				\
2:	xorl %ebx, %ebx;		\
3:

	.text

/* int macro_disable_interrupts(void): 1 if every register was kept */
	.globl macro_disable_interrupts
	.type macro_disable_interrupts, @function
macro_disable_interrupts:
	pushl %ebx
	SET_REGS
	DISABLE_INTERRUPTS
	CHECK_ALL
	movl %ebx, %eax
	popl %ebx
	ret
	.size macro_disable_interrupts, . - macro_disable_interrupts

/* int macro_enable_interrupts(void): 1 if every register was kept */
	.globl macro_enable_interrupts
	.type macro_enable_interrupts, @function
macro_enable_interrupts:
	pushl %ebx
	SET_REGS
	ENABLE_INTERRUPTS
	CHECK_ALL
	movl %ebx, %eax
	popl %ebx
	ret
	.size macro_enable_interrupts, . - macro_enable_interrupts

/* u32 macro_get_cr0(u32 *regs_kept): %cr0, and whether ECX/EDX were kept */
	.globl macro_get_cr0
	.type macro_get_cr0, @function
macro_get_cr0:
	pushl %esi
	pushl %ebx
	movl %eax, %esi			/* regs_kept (regparm) */
	SET_REGS
	GET_CR0_INTO_EAX
	CHECK_ECX_EDX
	movl %ebx, (%esi)
	popl %ebx
	popl %esi
	ret
	.size macro_get_cr0, . - macro_get_cr0
