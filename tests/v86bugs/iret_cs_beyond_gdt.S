/*
 * iret_cs_beyond_gdt.S - a ring-3 iret whose frame's CS (0x0043) lies
 * past the GDT's limit (0x3f): a CPU raises #GP(0040); v86 panics
 * "Unimplemented: CS selector is invalid" (docs/v86-bugs.md).  Linked
 * with rig.S.
 */
	.section .rodata
	.globl case_name
case_name:	.asciz "iret_cs_beyond_gdt"

	.text
	.globl case_ring3, case_iret
case_ring3:
	pushfl
	pushl $0x0043			/* GDT index 8, RPL 3: past the limit */
	pushl $landing_pad
case_iret:
	iret
