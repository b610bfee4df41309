/*
 * trace_entry.S - the trace backend's functions: one stub per
 * slot of paravirt_ops (paravirt/backends/trace.c puts stub N in slot N).
 *
 * A stub counts the call and then jumps - not calls - to the real
 * function, through paravirt_trace_inner, the copy of the table trace
 * wraps (native's, or guest's in a guest).  Jumping keeps the caller's
 * stack exactly as it was, so one stub serves every op whatever its
 * arguments (some ops take stack arguments) and the real function
 * returns straight to the site.
 *
 * A called op's stub saves EAX, ECX and EDX (the arguments, under
 * -mregparm=3) around paravirt_trace_count(slot, return address): the
 * return address names the patch site.  The two ops that are jumped to
 * with an interrupt frame on the stack (iret, sysexit) have no return
 * address and may find a user %ds: their stub counts per op only, as
 * the opcount stubs do.  Their count is a load and a store (no flags
 * may change there): an interrupt that lands between the two, as one
 * can on the way out of an int $0x80 trap gate, loses its own count of
 * that op, so iret's and sysexit's counts may fall short by a few.
 */
#include <asm/slot_stubs.h>

#define SLOT_IRET	(PV_iret / 4)
#define SLOT_SYSEXIT	(PV_irq_enable_sysexit / 4)

.macro TRACE_STUB n
	.if \n == SLOT_IRET || \n == SLOT_SYSEXIT
	SLOT_COUNT paravirt_trace_op_calls, \n
	.else
	pushl %eax
	pushl %ecx
	pushl %edx
	movl $\n, %eax
	movl 12(%esp), %edx		/* the caller's return address */
	call paravirt_trace_count
	popl %edx
	popl %ecx
	popl %eax
	.endif
	jmp *%ss:paravirt_trace_inner + 4 * \n
.endm

	.text
	.globl paravirt_trace_stub_table
	.type paravirt_trace_stub_table, @function
paravirt_trace_stub_table:
	SLOT_STUBS paravirt_trace_stubs, TRACE_STUB
	.size paravirt_trace_stub_table, . - paravirt_trace_stub_table
