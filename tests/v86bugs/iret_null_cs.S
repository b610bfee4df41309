/*
 * iret_null_cs.S - a ring-3 iret whose frame's CS is the null selector
 * (0x0003): a CPU raises #GP(0000); v86 panics "Unimplemented: CS
 * selector is null" (docs/v86-bugs.md).  Linked with rig.S.
 */
	.section .rodata
	.globl case_name
case_name:	.asciz "iret_null_cs"

	.text
	.globl case_ring3, case_iret
case_ring3:
	pushfl
	pushl $0x0003			/* null, RPL 3 */
	pushl $landing_pad
case_iret:
	iret
