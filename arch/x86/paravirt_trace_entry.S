/*
 * paravirt_trace_entry.S - the trace backend's functions: one stub per
 * slot of paravirt_ops (paravirt_trace.c puts stub N in slot N).
 *
 * A stub counts the call and then jumps - not calls - to the native
 * function, through paravirt_trace_native, the copy of the native table
 * the backend got from the native backend's prepare().  Jumping keeps
 * the caller's stack exactly as it was, so one stub serves every op
 * whatever its arguments (some ops take stack arguments) and the native
 * function returns straight to the site.
 *
 * A called op's stub saves EAX, ECX and EDX (the arguments, under
 * -mregparm=3) around paravirt_trace_count(slot, return address): the
 * return address names the patch site.  The two ops that are jumped to
 * with an interrupt frame on the stack (iret, sysexit) have no return
 * address and may find a user %ds: their stub counts per op only, like
 * the opcount stubs, with %ss: overrides and lea (no flag changes).
 */
#include <generated/asm-offsets.h>

#define SLOT_IRET	(PV_iret / 4)
#define SLOT_SYSEXIT	(PV_irq_enable_sysexit / 4)

	.text
	.globl paravirt_trace_stub_table
	.type paravirt_trace_stub_table, @function
paravirt_trace_stub_table:
	.pushsection .rodata
	.balign 4
	.globl paravirt_trace_stubs
paravirt_trace_stubs:			/* void *const paravirt_trace_stubs[slots] */
	.popsection
	slot = 0
	.rept PARAVIRT_SLOTS
	.pushsection .rodata
	.long 1f
	.popsection
1:	.if slot == SLOT_IRET || slot == SLOT_SYSEXIT
	pushl %eax
	movl %ss:paravirt_trace_op_calls + 4 * slot, %eax
	leal 1(%eax), %eax
	movl %eax, %ss:paravirt_trace_op_calls + 4 * slot
	popl %eax
	.else
	pushl %eax
	pushl %ecx
	pushl %edx
	movl $slot, %eax
	movl 12(%esp), %edx		/* the caller's return address */
	call paravirt_trace_count
	popl %edx
	popl %ecx
	popl %eax
	.endif
	jmp *%ss:paravirt_trace_native + 4 * slot
	slot = slot + 1
	.endr
	.size paravirt_trace_stub_table, . - paravirt_trace_stub_table
