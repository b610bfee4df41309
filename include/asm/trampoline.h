/*
 * asm/trampoline.h - where an application processor (AP) starts, and
 * what the boot CPU leaves it there.
 *
 * A STARTUP message starts a CPU in real mode at CS:IP = page:0, where
 * page is an 8-bit vector: the code must lie in a 4 KiB page below
 * 1 MiB.  arch/x86/kernel/smp/trampoline.S is that code; the boot CPU copies
 * it to TRAMPOLINE_PHYS and fills a block at its end for each AP before
 * its start (arch/x86/kernel/smp/smpboot.c).  The block is what the AP
 * cannot know by itself: its stack, the boot CPU's control registers
 * and tables, its cpu number, and the C function to call.  Each AP has
 * a block of its own, found by its APIC id and never written again once
 * its AP may read it: an AP that arrives late reads its own block, not
 * the next AP's.
 *
 * Included from C and from assembly: the offsets below are the ones the
 * 32-bit part reads, checked against the struct in smpboot.c.
 */
#ifndef ASM_TRAMPOLINE_H
#define ASM_TRAMPOLINE_H

#include <asm/cpumask.h>

/*
 * 0x8000: conventional RAM that the page allocator never hands out (it
 * keeps the whole first MiB), above the real-mode interrupt table and
 * the BIOS data area (0-0x4ff), below any EBDA (at 0x80000 or higher),
 * away from the ACPI and MP tables (EBDA, 0xe0000-0xfffff).  What a
 * loader may have left there (an info block, its own code) is read only
 * by multiboot_parse(), long before; smpboot.c still refuses the page
 * if the loader's memory says it is not RAM or a module lies on it.
 */
#define TRAMPOLINE_PHYS		0x8000
#define TRAMPOLINE_VECTOR	(TRAMPOLINE_PHYS >> 12)	/* the STARTUP's page */

/* Offsets in struct trampoline_block, checked against it in smpboot.c:
 * trampoline.S reads the stack, the entry, the APIC id and the state
 * (the control registers are read in C: paging_start_ap). */
#define TRAMPOLINE_BLOCK_STACK	0
#define TRAMPOLINE_BLOCK_ENTRY	4
#define TRAMPOLINE_BLOCK_CR0	8
#define TRAMPOLINE_BLOCK_CR3	12
#define TRAMPOLINE_BLOCK_CR4	16
#define TRAMPOLINE_BLOCK_HAS_CR4 20
#define TRAMPOLINE_BLOCK_APIC_ID 28
#define TRAMPOLINE_BLOCK_STATE	32
#define TRAMPOLINE_BLOCK_SIZE	64	/* room reserved in trampoline.S */
#define TRAMPOLINE_BLOCKS	NR_CPUS	/* one a cpu number */

/* struct trampoline_header, just before the first block. */
#define TRAMPOLINE_HEADER_SIZE	16
#define TRAMPOLINE_HEADER_APIC_ID_REG	(-16)
#define TRAMPOLINE_HEADER_HELD_APIC_ID	(-12)
#define TRAMPOLINE_HEADER_RELEASE	(-8)

/*
 * A block's state: who decided whether its AP is in.  The AP moves it
 * from WAITING to CALLED_IN as it arrives (trampoline.S) and from there
 * to ONLINE when it is ready to count itself (smpboot.c); the boot CPU,
 * when its wait is over, from WAITING or CALLED_IN to GIVEN_UP - each a
 * compare-and-swap, so exactly one side wins.  An AP that finds GIVEN_UP
 * writes LATE in its own block and halts.
 */
#define AP_WAITING	0
#define AP_CALLED_IN	1
#define AP_ONLINE	2
#define AP_GIVEN_UP	3
#define AP_LATE		4

#ifndef __ASSEMBLER__

#include <types.h>
#include <asm/desc_defs.h>

struct trampoline_block;

/* The AP's C entry: called on its own stack, paging on, interrupts
 * off, the block's copy in low memory as its argument; the only ops
 * that have run on this CPU are paging_start_ap's (asm/paging.h), which
 * need no per-CPU area.  It never returns. */
typedef void (*trampoline_entry_fn)(struct trampoline_block *b);

struct trampoline_block {
	u32 stack_top;			/* the AP's first %esp */
	trampoline_entry_fn entry;	/* called with the block (regparm) */
	u32 cr0, cr3, cr4;		/* the boot CPU's, to take over */
	u32 has_cr4;			/* 0: leave CR4 alone */
	u32 cpu;			/* the AP's cpu number */
	u32 apic_id;			/* whose block: the AP's APIC id */
	u32 state;			/* AP_WAITING ... AP_LATE */
	struct desc_ptr gdtr;		/* the boot CPU's GDT and IDT */
	struct desc_ptr idtr;
};

/* What every AP reads: where its local APIC's ID register is, and the
 * AP of the test hook held_late_apic_id, held there until released
 * (smpboot.c). */
struct trampoline_header {
	u32 apic_id_reg;		/* physical, paging is off */
	u32 held_apic_id;		/* the hook's, or not an APIC id */
	u32 release;			/* non-zero: the held AP goes on */
	u32 unused;
};

/* trampoline.S: the code to copy, its GDT pointer (whose base the boot
 * CPU writes in the copy) and the place of the blocks in it. */
extern const char trampoline_start[], trampoline_gdt[], trampoline_gdtr[],
	trampoline_blocks[], trampoline_end[];

#endif /* __ASSEMBLER__ */
#endif
