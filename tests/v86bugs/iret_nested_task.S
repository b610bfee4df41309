/*
 * iret_nested_task.S - a ring-3 iret with EFLAGS.NT set (popf may set
 * it at any CPL): a return from a nested task, through the TSS's back
 * link, which is 0 here.  A CPU raises #TS(0000); v86 panics "#GP
 * handler" (docs/v86-bugs.md).  Linked with rig.S.
 */
	.section .rodata
	.globl case_name
case_name:	.asciz "iret_nested_task"

	.text
	.globl case_ring3, case_iret
case_ring3:
	pushfl
	orl $0x4000, (%esp)		/* NT */
	popfl
	pushfl
	pushl $0x1b			/* ring 3's own code: a valid frame */
	pushl $landing_pad
case_iret:
	iret
