/*
 * start.S - the first instructions of stage 2, jumped to by stage 1 at
 * 0x7e00 with DL = the BIOS drive it booted from.
 *
 * Sets segments and the stack, zeroes the bss (the Multiboot info is
 * built there), enters unreal mode (unreal.S) and calls the C part,
 * loader_main(drive), which ends by entering the kernel or halting.
 */
	.code16
	.section .text.start, "ax"
	.globl stage2_start
stage2_start:
	cli
	xorw %ax, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movl $0x7c00, %esp		/* gcc -m16 code uses all of ESP */
	movzbl %dl, %ebx
	cld
	movw $__bss_start, %di
	movw $__bss_end, %cx
	subw %di, %cx
	rep stosb			/* AL is 0 */
	calll unreal_enter
	sti				/* the BIOS needs its timer and disk IRQs */
	movl %ebx, %eax
	calll loader_main		/* regparm: drive in EAX */
1:	cli
	hlt
	jmp 1b
