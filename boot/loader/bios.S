/*
 * bios.S - bios_call(): a BIOS interrupt from C, with all its registers.
 *
 * C fills a struct biosregs (bios.h), bios_call loads it, calls the
 * handler the interrupt vector table names for that interrupt (pushf +
 * far call through the IVT: what INT does, without having to patch an
 * INT instruction's operand at run time), and writes back every register
 * and the flags the BIOS returned.  Afterwards it restores DS = ES = 0 and
 * the unreal-mode limits, which some BIOS services throw away.
 */
	.code16
	.text
	.globl bios_call
	.type bios_call, @function
/* void bios_call(u8 vector [AL], struct biosregs *r [EDX]) */
bios_call:
	pushal
	movzbl %al, %eax
	movl (,%eax,4), %eax		/* the IVT entry: offset, then segment */
	movl %eax, bios_vector
	pushl %edx			/* r, for after the call */
	movw 24(%edx), %es
	movl 0(%edx), %eax
	movl 4(%edx), %ebx
	movl 8(%edx), %ecx
	movl 16(%edx), %esi
	movl 20(%edx), %edi
	movl 12(%edx), %edx
	pushfw				/* the handler's iret pops this */
	cli				/* as INT would */
	lcallw *%cs:bios_vector
	pushl %edx
	pushfw
	pushw %ax
	xorw %ax, %ax			/* the BIOS may have left DS elsewhere */
	movw %ax, %ds
	popw %ax
	movl 6(%esp), %edx		/* r */
	popw 26(%edx)			/* flags */
	popl 12(%edx)			/* edx */
	movl %eax, 0(%edx)
	movl %ebx, 4(%edx)
	movl %ecx, 8(%edx)
	movl %esi, 16(%edx)
	movl %edi, 20(%edx)
	movw %es, 24(%edx)
	popl %edx
	xorw %ax, %ax
	movw %ax, %es
	calll unreal_enter
	popal
	retl
	.size bios_call, . - bios_call

	.bss
	.balign 4
bios_vector:
	.skip 4
