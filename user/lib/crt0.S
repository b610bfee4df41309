/*
 * crt0.S - where every user program starts.  The kernel enters at
 * _start in ring 3 with EAX = 1 if sysenter may be used (0: int $0x80
 * only) and ESP at the top of a fresh stack.  Call main(), then exit
 * with what it returns.
 */
	.text
	.globl _start
_start:
	movl %eax, sysenter_ok
	xorl %ebp, %ebp
	call main
	pushl %eax
	call exit

	.data
	.globl sysenter_ok
sysenter_ok:
	.long 0
