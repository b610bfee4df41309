/*
 * iret_to_data_segment.S - a ring-3 iret whose frame's CS is ring 3's
 * own data segment (0x23): a CPU raises #GP(0020), not a code segment;
 * v86 panics "not exec" (docs/v86-bugs.md).  Linked with rig.S.
 */
	.section .rodata
	.globl case_name
case_name:	.asciz "iret_to_data_segment"

	.text
	.globl case_ring3, case_iret
case_ring3:
	pushfl
	pushl $0x23			/* ring 3's data segment */
	pushl $landing_pad
case_iret:
	iret
