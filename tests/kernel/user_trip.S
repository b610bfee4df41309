/*
 * user_trip.S - enter ring 3 through INTERRUPT_RETURN or
 * ENABLE_INTERRUPTS_SYSEXIT, run a few user instructions, come back.
 *
 * user_trip(method) saves the callee-saved registers and the stack
 * pointer, then drops to user mode at user_trip_entry, which raises
 * int $USER_TRIP_VECTOR.  The C handler of that vector looks at the
 * registers the user code had and calls user_trip_resume(result), which
 * puts the saved stack back and returns from user_trip(): a longjmp.
 * The user code and stack are in .user.* sections, on pages that
 * paging_set_user() opens to ring 3.
 */
#include <asm/segment.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include "user_trip.h"

	.section .user.data, "aw"
	.balign 4096
	.skip 4096
	.globl user_trip_stack_top
user_trip_stack_top:

	.section .user.text, "ax"
	.type user_trip_entry, @function
user_trip_entry:
	movl $USER_TRIP_MAGIC, %eax
	int $USER_TRIP_VECTOR
	jmp .				/* never resumed */
	.size user_trip_entry, . - user_trip_entry

	.data
	.balign 4
user_trip_kernel_esp:
	.long 0

	.text
/* int user_trip(int method): method in EAX (regparm). */
	.globl user_trip
	.type user_trip, @function
user_trip:
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	movl %esp, user_trip_kernel_esp
	movl $__USER_DS, %ecx
	cmpl $TRIP_BY_SYSEXIT, %eax
	je 1f

	/* An interrupt frame for a return to ring 3: SS, ESP, EFLAGS, CS, EIP. */
	pushl %ecx
	pushl $user_trip_stack_top
	pushl $(X86_EFLAGS_IF | X86_EFLAGS_FIXED)
	pushl $__USER_CS
	pushl $user_trip_entry
	movl %ecx, %ds
	movl %ecx, %es
	INTERRUPT_RETURN		/* %cs: override: %ds is the user's now */

	/* sysexit: EIP from EDX, ESP from ECX, CS/SS from the SYSENTER_CS MSR. */
1:	movl %ecx, %ds
	movl %ecx, %es
	movl $user_trip_entry, %edx
	movl $user_trip_stack_top, %ecx
	ENABLE_INTERRUPTS_SYSEXIT
	.size user_trip, . - user_trip

/* void user_trip_resume(int result): result in EAX, returned by user_trip. */
	.globl user_trip_resume
	.type user_trip_resume, @function
user_trip_resume:
	movl user_trip_kernel_esp, %esp
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret
	.size user_trip_resume, . - user_trip_resume
