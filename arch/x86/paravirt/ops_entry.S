/*
 * ops_entry.S - two tiny functions the patcher recognises by address:
 * the op that does nothing, and where a call to an empty op lands.
 */

	.text

/* A backend puts paravirt_nop in an op that has nothing to do (a void op
 * only); the patcher then turns that op's sites into NOPs. */
	.globl paravirt_nop
	.type paravirt_nop, @function
paravirt_nop:
	ret
	.size paravirt_nop, . - paravirt_nop

/* A site whose op is NULL is patched to "push $slot; call here": report
 * which op it was, and from where, rather than jump to address 0. */
	.globl paravirt_empty_op_entry
	.type paravirt_empty_op_entry, @function
paravirt_empty_op_entry:
	movl 4(%esp), %eax		/* the op's slot, pushed by the site */
	movl (%esp), %edx		/* return address: the site's start + 7 */
	subl $7, %edx
	call paravirt_empty_op		/* panics */
	.size paravirt_empty_op_entry, . - paravirt_empty_op_entry
