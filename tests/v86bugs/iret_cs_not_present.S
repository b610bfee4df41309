/*
 * iret_cs_not_present.S - a ring-3 iret whose frame's CS (0x3b) is a
 * ring-3 code segment marked not present: a CPU raises #NP(0038); v86
 * panics "not present" (docs/v86-bugs.md).  Linked with rig.S.
 */
	.section .rodata
	.globl case_name
case_name:	.asciz "iret_cs_not_present"

	.text
	.globl case_ring3, case_iret
case_ring3:
	pushfl
	pushl $0x3b			/* ring-3 code, present bit clear */
	pushl $landing_pad
case_iret:
	iret
