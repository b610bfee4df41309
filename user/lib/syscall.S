/*
 * syscall.S - the two ways into the kernel (uapi/syscalls.h), as cdecl
 * functions: long f(long nr, long a, long b, long c).
 */
	.text

/* int $0x80: number in EAX, arguments in EBX, ECX, EDX. */
	.globl syscall_int80
syscall_int80:
	pushl %ebx
	movl 8(%esp), %eax
	movl 12(%esp), %ebx
	movl 16(%esp), %ecx
	movl 20(%esp), %edx
	int $0x80
	popl %ebx
	ret

/* sysenter: the same registers.  The CPU keeps neither our EIP nor our
 * ESP: push where to come back to, and leave the stack pointer in EBP,
 * where the kernel looks.  It returns past that word, with ECX and EDX
 * spent on sysexit; EBP, EBX come back from our stack. */
	.globl syscall_sysenter
syscall_sysenter:
	pushl %ebx
	pushl %ebp
	movl 12(%esp), %eax
	movl 16(%esp), %ebx
	movl 20(%esp), %ecx
	movl 24(%esp), %edx
	pushl $1f
	movl %esp, %ebp
	sysenter
1:	popl %ebp
	popl %ebx
	ret
