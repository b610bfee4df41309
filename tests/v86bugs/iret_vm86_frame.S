/*
 * iret_vm86_frame.S - a ring-3 iret with EFLAGS.VM set in its frame,
 * returning to ring 3's own code segment (0x1b).  A CPU ignores VM
 * below CPL 0 and returns in protected mode: no fault.  v86 does the
 * same (docs/v86-bugs.md: VM is not what stops it).  Linked with rig.S.
 */
	.section .rodata
	.globl case_name
case_name:	.asciz "iret_vm86_frame"

	.text
	.globl case_ring3, case_iret
case_ring3:
	pushl $0x20002			/* VM and the always-one bit */
	pushl $0x1b			/* ring 3's own code */
	pushl $landing_pad
case_iret:
	iret
