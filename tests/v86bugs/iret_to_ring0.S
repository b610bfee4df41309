/*
 * iret_to_ring0.S - a ring-3 iret whose frame names ring 0's code
 * segment (0x08, RPL 0): a CPU raises #GP(0008), as the RPL is below the
 * CPL; v86 panics "rpl < cpl" (docs/v86-bugs.md).  Linked with rig.S.
 */
	.section .rodata
	.globl case_name
case_name:	.asciz "iret_to_ring0"

	.text
	.globl case_ring3, case_iret
case_ring3:
	pushfl
	pushl $0x08			/* ring 0's code segment */
	pushl $landing_pad
case_iret:
	iret
