/*
 * trampoline.S - the first instructions of an application processor
 * (AP): from the real mode a STARTUP message leaves it in to the
 * kernel's 32-bit C code.
 *
 * The 16-bit part lives in a section of its own (.trampoline, placed by
 * linker.ld) and never runs where it is linked: the boot CPU copies it
 * to a page below 1 MiB (TRAMPOLINE_PHYS, asm/trampoline.h), since a
 * STARTUP names only a page number, and fills a block at its end for
 * each AP before that AP's start (arch/x86/kernel/smp/smpboot.c).  The AP
 * writes nothing in the page before it has found its own block and
 * called in there: an AP that comes after the boot CPU gave up on it
 * halts having touched nothing another CPU uses.  The AP begins at
 * CS:IP = page:0 with interrupts off (INIT cleared IF), protection and
 * paging off.  It loads a temporary GDT whose selectors are the
 * kernel's (__KERNEL_CS, __KERNEL_DS: the same flat 4 GiB segments),
 * sets CR0.PE and far-jumps into ap_start32, which runs in the kernel's
 * text (memory is 1:1 with paging off and on alike), finds its block,
 * turns paging on as the boot CPU has it and calls the C entry from the
 * block.
 *
 * Only two stretches run privileged instructions by hand, because the
 * ops table cannot serve them, and they are the .trampoline section,
 * which tools/audit-privileged names and counts apart (as it does the
 * host's world switch):
 *   - the 16-bit entry, lgdt and the move to CR0 that sets PE: in real
 *     mode the table, above 1 MiB, is out of reach;
 *   - ap_halt, the hlt of an AP that came too late, on no stack (the
 *     boot CPU, having given up on it, may have freed its stack): no
 *     call is possible there.
 * ap_start32 itself is ordinary kernel text, audited as all of it is:
 * from protected mode on the table is reachable, so once the AP has its
 * stack it turns paging on through the ops (paging_start_ap in
 * arch/x86/mm/paging.c: CR4, CR3, CR0, as paging_init does on the boot
 * CPU, whose _start calls paravirt_init first and leaves everything to
 * the table).  Everything after that - its per-CPU area, the kernel's
 * GDT and IDT, the local APIC - the C entry does through the table
 * too (smpboot.c).
 */
#include <asm/processor-flags.h>
#include <asm/segment.h>
#include <asm/trampoline.h>

#define OFF(label)	((label) - trampoline_start)	/* from the page's start */

	.section .trampoline, "ax"
	.code16
	.globl trampoline_start, trampoline_gdt, trampoline_gdtr, trampoline_blocks, trampoline_end
trampoline_start:
	/* DS = CS: the page's own data.  EBX = its physical address. */
	movw %cs, %ax
	movw %ax, %ds
	movzwl %ax, %ebx
	shll $4, %ebx
	/* The GDT's base is physical: the boot CPU wrote it in the copy. */
	lgdtl OFF(trampoline_gdtr)
	/* Protection on, caches on (INIT set CD and NW), paging still off. */
	movl $(X86_CR0_PE | X86_CR0_ET), %eax
	movl %eax, %cr0
	/* EBX: the first block, for the 32-bit part.  The far jump loads CS
	 * from the new GDT and ends 16-bit decoding. */
	addl $OFF(trampoline_blocks), %ebx
	ljmpl $__KERNEL_CS, $ap_start32

	/* Null, flat ring-0 code (0x08), flat ring-0 data (0x10): base 0,
	 * limit 4 GiB in pages, 32-bit - the kernel's own two segments. */
	.balign 8
trampoline_gdt:
	.quad 0
	.quad 0x00cf9a000000ffff
	.quad 0x00cf92000000ffff
trampoline_gdtr:
	.word . - trampoline_gdt - 1
	.long 0				/* its base: the boot CPU's to write */

	/* struct trampoline_header, then a struct trampoline_block for each
	 * cpu number: the boot CPU fills the copy's. */
	.balign 16
	.skip TRAMPOLINE_HEADER_SIZE
trampoline_blocks:
	.skip TRAMPOLINE_BLOCK_SIZE * TRAMPOLINE_BLOCKS
trampoline_end:

/*
 * ap_halt - an AP the boot CPU has no place for stops here for good:
 * hlt, on no stack, interrupts off since its INIT (which clears IF:
 * Intel SDM Vol. 3A, 9.1.1, Table 9-1).  In .trampoline, after its end:
 * not copied, run where it is linked.
 */
	.code32
	.globl ap_halt
	.type ap_halt, @function
ap_halt:
1:	hlt
	jmp 1b
	.size ap_halt, . - ap_halt

/*
 * ap_start32 - in protected mode, paging off, EBX = the first block.
 * Kernel text: the far jump comes here, to the kernel's image, which is
 * at its link address (memory is 1:1).  The kernel's data selector in
 * every data segment (fs, gs null, as on the boot CPU).
 *
 * Then this CPU's block: the one that names its APIC id, read from its
 * own local APIC.  It calls in there (AP_WAITING to AP_CALLED_IN, a
 * compare-and-swap against the boot CPU giving up); one that finds the
 * block given up writes AP_LATE in it and halts, on no stack, having
 * written nothing else.  Then the stack from the block, paging as the
 * boot CPU has it (paging_start_ap, through the ops), so that the C
 * entry runs as every kernel function expects, paging on, and may load
 * this CPU's per-CPU state before it calls any other op (asm/percpu.h's
 * contract); then entry(block), which never returns.
 *
 * `lock cmpxchg` is a 486's: only a machine with a local APIC, a 486 or
 * later, starts APs.
 */
	.text
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
	/* EDX = this CPU's APIC id (bits 31-24 of its APIC's ID register). */
	movl TRAMPOLINE_HEADER_APIC_ID_REG(%ebx), %eax
	movl (%eax), %edx
	shrl $24, %edx
	/* A test hook's AP (held_late_apic_id) is held here until released. */
	cmpl TRAMPOLINE_HEADER_HELD_APIC_ID(%ebx), %edx
	jne 2f
1:	pause
	cmpl $0, TRAMPOLINE_HEADER_RELEASE(%ebx)
	je 1b
2:	movl $TRAMPOLINE_BLOCKS, %ecx
3:	cmpl %edx, TRAMPOLINE_BLOCK_APIC_ID(%ebx)
	je 4f
	addl $TRAMPOLINE_BLOCK_SIZE, %ebx
	loop 3b
	jmp ap_halt			/* no block names it */
4:	movl $AP_WAITING, %eax
	movl $AP_CALLED_IN, %ecx
	lock cmpxchgl %ecx, TRAMPOLINE_BLOCK_STATE(%ebx)
	jne 6f
	movl TRAMPOLINE_BLOCK_STACK(%ebx), %esp
	xorl %ebp, %ebp			/* ends backtraces here */
	movl %ebx, %eax			/* paging_start_ap(block): regparm, EAX */
	call paging_start_ap		/* EBX survives: callee-saved */
	movl %ebx, %eax			/* entry(block) */
	call *TRAMPOLINE_BLOCK_ENTRY(%ebx)
5:	jmp 5b				/* entry does not return */

	/* EAX: what the compare-and-swap found.  Given up: say so in its
	 * own block (the boot CPU no longer writes it), and halt. */
6:	cmpl $AP_GIVEN_UP, %eax
	jne ap_halt
	movl $AP_LATE, TRAMPOLINE_BLOCK_STATE(%ebx)
	jmp ap_halt
	.size ap_start32, . - ap_start32
