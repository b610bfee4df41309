/*
 * count_entry.S - one counting stub per paravirt_ops slot.
 *
 * install.c puts stub N in slot N of the table, and the installed
 * backend's function is in slot N of paravirt_installed_ops.  The stub
 * adds one to paravirt_op_calls[N] and jumps on, leaving every register, the flags
 * and the stack as the caller left them: it works for the ops that are
 * jumped to with an interrupt frame on the stack (iret, sysexit) and for
 * save_fl, which must see the caller's flags.  Hence lea, not inc, and
 * %ss: overrides: iret's caller may already have loaded a user %ds.
 */
#include <asm/slot_stubs.h>

.macro COUNT_STUB n
	SLOT_COUNT paravirt_op_calls, \n
	jmp *%ss:paravirt_installed_ops + 4 * \n
.endm

	.text
	.globl paravirt_count_stub_table
	.type paravirt_count_stub_table, @function
paravirt_count_stub_table:
	SLOT_STUBS paravirt_count_stubs, COUNT_STUB
	.size paravirt_count_stub_table, . - paravirt_count_stub_table
