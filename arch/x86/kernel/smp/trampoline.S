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
 * image (memory is 1:1 with paging off and on alike), turns paging on
 * as the boot CPU has it and calls the C entry from the block.
 *
 * Its privileged instructions (lgdt, the moves to CR0, CR3 and CR4, and
 * the cli and hlt of an AP that came too late) run before this CPU may
 * use the ops table: in real mode the table is out
 * of reach, and until the C entry has loaded this CPU's own per-CPU
 * state no op may run on it (asm/percpu.h: a backend may count per
 * CPU).  Like the host's world switch, they are a section of their own
 * that tools/audit-privileged names and counts apart; the boot CPU's
 * _start, by contrast, calls paravirt_init first and leaves everything
 * to the table.  Everything after them - the kernel's GDT and IDT, the
 * local APIC - the C entry does through the table (smpboot.c).
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
 * ap_start32 - in protected mode, paging off, EBX = the first block.
 * Still in .trampoline but not copied: the far jump comes here, to the
 * kernel's image, which is at its link address (memory is 1:1).  The
 * kernel's data selector in every data segment (fs, gs null, as on the
 * boot CPU).
 *
 * Then this CPU's block: the one that names its APIC id, read from its
 * own local APIC.  It calls in there (AP_WAITING to AP_CALLED_IN, a
 * compare-and-swap against the boot CPU giving up); one that finds the
 * block given up writes AP_LATE in it and halts, on no stack, having
 * written nothing else.  Then paging as the boot CPU has it - its CR4
 * (PSE, PGE, the FPU's bits), the kernel's page directory, its CR0 with
 * PG and WP - so that the C entry runs as every kernel function expects,
 * paging on, and may load this CPU's per-CPU state before it calls any
 * op (asm/percpu.h's contract).  Then the stack from the block and
 * entry(block), which never returns.
 *
 * `lock cmpxchg` is a 486's: only a machine with a local APIC, a 486 or
 * later, starts APs.
 */
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
	jne ap_late
	cmpl $0, TRAMPOLINE_BLOCK_HAS_CR4(%ebx)
	je 5f
	movl TRAMPOLINE_BLOCK_CR4(%ebx), %eax
	movl %eax, %cr4
5:	movl TRAMPOLINE_BLOCK_CR3(%ebx), %eax
	movl %eax, %cr3
	movl TRAMPOLINE_BLOCK_CR0(%ebx), %eax
	movl %eax, %cr0
	jmp 6f				/* the 386's rule after setting PG */
6:	movl TRAMPOLINE_BLOCK_STACK(%ebx), %esp
	xorl %ebp, %ebp			/* ends backtraces here */
	movl %ebx, %eax			/* entry(block): regparm, in EAX */
	call *TRAMPOLINE_BLOCK_ENTRY(%ebx)
7:	jmp 7b				/* entry does not return */

	/* EAX: what the compare-and-swap found.  Given up: say so in its
	 * own block (the boot CPU no longer writes it), and halt. */
ap_late:
	cmpl $AP_GIVEN_UP, %eax
	jne ap_halt
	movl $AP_LATE, TRAMPOLINE_BLOCK_STATE(%ebx)
ap_halt:
	cli
8:	hlt
	jmp 8b
	.size ap_start32, . - ap_start32
