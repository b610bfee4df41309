/*
 * iret_to_empty_slot.S - a ring-3 iret whose frame's CS (0x33) names an
 * all-zero GDT entry, as unused slots are: a CPU raises #GP(0030), not a
 * code segment; v86 panics "not present" (docs/v86-bugs.md).  Linked
 * with rig.S.
 */
	.section .rodata
	.globl case_name
case_name:	.asciz "iret_to_empty_slot"

	.text
	.globl case_ring3, case_iret
case_ring3:
	pushfl
	pushl $0x33			/* the empty GDT slot, RPL 3 */
	pushl $0			/* EIP 0: see the header */
case_iret:
	iret
