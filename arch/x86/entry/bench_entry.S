/*
 * bench_entry.S - loops for kernel/bench.c that must be written in
 * assembly: an iret needs an interrupt frame on the stack.
 */
#include <asm/privileged.h>

	.text

/* void bench_iret_loop(u32 n, u32 eflags): n times, build a frame that
 * returns to the next instruction and leave through INTERRUPT_RETURN,
 * the same site the entry code uses. */
	.globl bench_iret_loop
	.type bench_iret_loop, @function
bench_iret_loop:
1:	pushl %edx			/* EFLAGS */
	pushl %cs
	pushl $2f			/* EIP */
	INTERRUPT_RETURN
2:	decl %eax
	jnz 1b
	ret
	.size bench_iret_loop, . - bench_iret_loop

/* void bench_empty_asm_loop(u32 n): the loop above without its body. */
	.globl bench_empty_asm_loop
	.type bench_empty_asm_loop, @function
bench_empty_asm_loop:
1:	decl %eax
	jnz 1b
	ret
	.size bench_empty_asm_loop, . - bench_empty_asm_loop
