/*
 * exception_raise.S - raise CPU exception vectors from ring 0 for
 * test_exceptions.c, for the vectors no instruction of the kernel can
 * provoke safely.
 *
 * raise_int_vector[v]() executes `int $v`: the CPU pushes no error code,
 * so only for vectors that have none.  The handler sees a fault at the
 * instruction after the int (where the CPU would report a fault): an
 * exception-table entry there lets it go on (traps.c applies fixups to
 * faults only; #DB, NMI and #BP are traps it continues after anyway).
 *
 * raise_with_error_code(vector, error, eflags) builds by hand the frame
 * the CPU pushes for an exception with an error code in ring 0 (EFLAGS,
 * CS, EIP, error code) and jumps to the vector's entry stub; an `int $v`
 * would leave the error code out and the frame misaligned.  The caller
 * passes EFLAGS with interrupts off, as the CPU would (and runs with them
 * off: an interrupt must not arrive inside the fake frame).
 */
#include <asm/extable.h>

/* Vectors for which the CPU pushes an error code (entry.S has the same). */
#define HAS_ERROR_CODE(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || \
			   (v) == 17 || (v) == 21 || (v) == 29 || (v) == 30)

/* One vector: its raise_int_<v> and its entry in raise_int_vector[]. */
.macro RAISE_INT v
	.if HAS_ERROR_CODE(\v)
	.pushsection .rodata
	.long 0				/* none: use raise_with_error_code */
	.popsection
	.else
	.type raise_int_\v, @function
raise_int_\v:
	int $\v
1:	ret
	_ASM_EXTABLE 1b, 1b
	.size raise_int_\v, . - raise_int_\v
	.pushsection .rodata
	.long raise_int_\v
	.popsection
	.endif
.endm

	.pushsection .rodata
	.balign 4
	.globl raise_int_vector
raise_int_vector:			/* void (*const raise_int_vector[32])(void) */
	.popsection
	.text
	.irp v, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
		16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	RAISE_INT \v
	.endr

/* void raise_with_error_code(u32 vector, u32 error, u32 eflags), regparm:
 * EAX, EDX, ECX. */
	.globl raise_with_error_code
	.type raise_with_error_code, @function
raise_with_error_code:
	pushl %ecx			/* EFLAGS */
	pushl %cs
	pushl $1f			/* EIP: the "faulting instruction" */
	pushl %edx			/* error code */
	jmp *trap_stubs(, %eax, 4)
1:	ret				/* the fixup resumes here */
	_ASM_EXTABLE 1b, 1b
	.size raise_with_error_code, . - raise_with_error_code
