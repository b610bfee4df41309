/*
 * crt0.S - where every user program starts.  The kernel enters at
 * _start in ring 3 with EAX = 1 if sysenter may be used (0: int $0x80
 * only) and ESP at the top of a fresh stack.  Keep every register as the
 * kernel gave it (entry_state, for programs that check what a new task
 * starts with: user/fresh.c), call main(), then exit with what it
 * returns.
 */
	.text
	.globl _start
_start:
	movl %eax, entry_state + 0
	movl %ebx, entry_state + 4
	movl %ecx, entry_state + 8
	movl %edx, entry_state + 12
	movl %esi, entry_state + 16
	movl %edi, entry_state + 20
	movl %ebp, entry_state + 24
	movl %esp, entry_state + 28
	movw %cs, entry_state + 36
	movw %ds, entry_state + 40
	movw %es, entry_state + 44
	movw %fs, entry_state + 48
	movw %gs, entry_state + 52
	movw %ss, entry_state + 56
	pushfl				/* the one that needs the stack: last */
	popl entry_state + 32
	movl %eax, sysenter_ok
	xorl %ebp, %ebp
	call main
	pushl %eax
	call exit

	.bss
	.globl entry_state
	.balign 4
entry_state:				/* struct entry_state (pv386.h) */
	.skip 60

	.data
	.globl sysenter_ok
sysenter_ok:
	.long 0
