/*
 * paravirt_count_entry.S - one counting stub per paravirt_ops slot.
 *
 * paravirt_count.c puts stub N in slot N of the table and the real
 * function in paravirt_op_real[N].  The stub adds one to
 * paravirt_op_calls[N] and jumps on, leaving every register, the flags
 * and the stack as the caller left them: it works for the ops that are
 * jumped to with an interrupt frame on the stack (iret, sysexit) and for
 * save_fl, which must see the caller's flags.  Hence lea, not inc, and
 * %ss: overrides: iret's caller may already have loaded a user %ds.
 */
#include <generated/asm-offsets.h>

	.text
	.globl paravirt_count_stub_table
	.type paravirt_count_stub_table, @function
paravirt_count_stub_table:
	.pushsection .rodata
	.balign 4
	.globl paravirt_count_stubs
paravirt_count_stubs:			/* const u32 paravirt_count_stubs[slots] */
	.popsection
	slot = 0
	.rept PARAVIRT_SLOTS
	.pushsection .rodata
	.long 1f
	.popsection
1:	pushl %eax
	movl %ss:paravirt_op_calls + 4 * slot, %eax
	leal 1(%eax), %eax
	movl %eax, %ss:paravirt_op_calls + 4 * slot
	popl %eax
	jmp *%ss:paravirt_op_real + 4 * slot
	slot = slot + 1
	.endr
	.size paravirt_count_stub_table, . - paravirt_count_stub_table
