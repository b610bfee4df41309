/*
 * trampoline.S - the first instructions of an application processor
 * (AP): from the real mode a STARTUP message leaves it in to the
 * kernel's 32-bit C code.
 *
 * The 16-bit part lives in a section of its own (.trampoline, placed by
 * linker.ld) and never runs where it is linked: before each start the
 * boot CPU copies it to a page below 1 MiB (TRAMPOLINE_PHYS, asm/
 * trampoline.h), since a STARTUP names only a page number, and fills the
 * block at its end (arch/x86/kernel/smpboot.c).  The AP begins at
 * CS:IP = page:0 with interrupts off (INIT cleared IF), protection and
 * paging off.  It loads a temporary GDT whose selectors are the
 * kernel's (__KERNEL_CS, __KERNEL_DS: the same flat 4 GiB segments),
 * sets CR0.PE and far-jumps into ap_start32 in the kernel's ordinary
 * text, which is at its link address: memory is 1:1 with paging off and
 * on alike.
 *
 * Those two instructions, lgdt and the move to CR0, are privileged and
 * are the only ones here.  They run before this CPU could use the ops
 * table (it is in real mode, the table is above 1 MiB), like the host's
 * world switch they are a section tools/audit-privileged names and
 * counts apart.  Everything after them that would be an op - CR4, CR3,
 * paging on, the kernel's GDT and IDT - is done in C through the table
 * (smpboot.c's ap_entry), as the boot CPU's _start leaves everything to
 * the table once it exists.
 */
#include <asm/processor-flags.h>
#include <asm/segment.h>
#include <asm/trampoline.h>

#define OFF(label)	((label) - trampoline_start)	/* from the page's start */

	.section .trampoline, "ax"
	.code16
	.globl trampoline_start, trampoline_block, trampoline_end
trampoline_start:
	/* DS = CS: the page's own data.  EBX = its physical address. */
	movw %cs, %ax
	movw %ax, %ds
	movzwl %ax, %ebx
	shll $4, %ebx
	/* The GDT's base is physical: wherever the page was copied. */
	leal OFF(tr_gdt)(%ebx), %eax
	movl %eax, OFF(tr_gdtr) + 2
	lgdtl OFF(tr_gdtr)
	/* Protection on, caches on (INIT set CD and NW), paging still off. */
	movl $(X86_CR0_PE | X86_CR0_ET), %eax
	movl %eax, %cr0
	/* EBX: the block, for the 32-bit part.  The far jump loads CS from
	 * the new GDT and ends 16-bit decoding. */
	addl $OFF(trampoline_block), %ebx
	ljmpl $__KERNEL_CS, $ap_start32

	/* Null, flat ring-0 code (0x08), flat ring-0 data (0x10): base 0,
	 * limit 4 GiB in pages, 32-bit - the kernel's own two segments. */
	.balign 8
tr_gdt:
	.quad 0
	.quad 0x00cf9a000000ffff
	.quad 0x00cf92000000ffff
tr_gdtr:
	.word . - tr_gdt - 1
	.long 0				/* its base, set above */

	/* struct trampoline_block: the boot CPU fills the copy's. */
	.balign 16
trampoline_block:
	.skip TRAMPOLINE_BLOCK_SIZE
trampoline_end:

/*
 * ap_start32 - in protected mode, paging off, EBX = the block.  The
 * kernel's data selector in every data segment (fs, gs null, as on the
 * boot CPU), the stack from the block, then entry(block): it turns on
 * paging through the table and never returns.  No privileged
 * instruction: moves to segment registers are not.
 */
	.text
	.code32
	.globl ap_start32
	.type ap_start32, @function
ap_start32:
	movl $__KERNEL_DS, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	xorl %eax, %eax
	movl %eax, %fs
	movl %eax, %gs
	movl TRAMPOLINE_BLOCK_STACK(%ebx), %esp
	xorl %ebp, %ebp			/* ends backtraces here */
	movl %ebx, %eax			/* entry(block): regparm, in EAX */
	call *TRAMPOLINE_BLOCK_ENTRY(%ebx)
1:	jmp 1b				/* entry does not return */
	.size ap_start32, . - ap_start32
