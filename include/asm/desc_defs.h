/*
 * asm/desc_defs.h - the shapes of x86 descriptors and descriptor-table
 * pointers, and helpers that pack them.
 *
 * A segment or gate descriptor is 8 bytes; we keep it as a u64 so that the
 * paravirt_ops write_*_entry ops can take it by value, as in the 2006 patch.
 */
#ifndef ASM_DESC_DEFS_H
#define ASM_DESC_DEFS_H

#include <types.h>
#include <asm/segment.h>

/* The 6-byte operand of lgdt/lidt/sgdt/sidt. */
struct desc_ptr {
	u16 size;		/* limit: table size in bytes minus one */
	u32 address;
} __packed;

/* Access byte bits of a descriptor. */
#define DESC_PRESENT	0x80
#define DESC_DPL(n)	((n) << 5)
#define DESC_CODE_DATA	0x10	/* S bit: code/data rather than system */
#define DESC_CODE_R	0x0a	/* execute/read code */
#define DESC_DATA_W	0x02	/* read/write data */
#define DESC_TSS32	0x09	/* available 32-bit TSS */
#define DESC_LDT	0x02
#define DESC_INTR_GATE	0x0e	/* 32-bit interrupt gate: clears IF on entry */
#define DESC_TRAP_GATE	0x0f	/* 32-bit trap gate: leaves IF alone */
#define DESC_ACCESSED	0x01	/* code/data: set by the CPU on first load */

/* Flags nibble: 4 KiB granularity and 32-bit default operand size. */
#define DESC_FLAGS_4K32	0xc

/* Pack base, limit (20 bits), access byte and flags nibble into a descriptor. */
static inline u64 pack_descriptor(u32 base, u32 limit, u8 access, u8 flags)
{
	u32 lo = (limit & 0xffff) | (base << 16);
	u32 hi = ((base >> 16) & 0xff) | ((u32)access << 8) |
		 (limit & 0xf0000) | ((u32)(flags & 0xf) << 20) |
		 (base & 0xff000000);
	return ((u64)hi << 32) | lo;
}

/* A flat 4 GiB code or data segment at ring dpl. */
static inline u64 flat_segment(u8 dpl, u8 type)
{
	return pack_descriptor(0, 0xfffff, DESC_PRESENT | DESC_DPL(dpl) | DESC_CODE_DATA | type,
			       DESC_FLAGS_4K32);
}

/* Pack a gate: handler offset, code selector and type/DPL byte. */
static inline u64 pack_gate(u32 offset, u16 selector, u8 access)
{
	u32 lo = (offset & 0xffff) | ((u32)selector << 16);
	u32 hi = (offset & 0xffff0000) | ((u32)access << 8);
	return ((u64)hi << 32) | lo;
}

static inline u32 descriptor_base(u64 d)
{
	return (u32)((d >> 16) & 0xffffff) | (u32)((d >> 32) & 0xff000000);
}

/* The last byte offset a descriptor allows (its 20-bit limit, in pages
 * if the granularity flag, bit 55, is set). */
static inline u32 descriptor_limit(u64 d)
{
	u32 limit = (u32)(d & 0xffff) | (u32)((d >> 32) & 0xf0000);

	return d & (1ull << 55) ? limit << 12 | 0xfff : limit;
}

/* A task's CPU state (asm/processor.h); the ops take it by pointer. */
struct thread_struct;

/* The 32-bit task-state segment.  pv386 uses it only for the ring-0
 * stack the CPU switches to on an interrupt from user mode. */
struct tss {
	u32 prev, esp0, ss0, esp1, ss1, esp2, ss2;
	u32 cr3, eip, eflags, eax, ecx, edx, ebx, esp, ebp, esi, edi;
	u32 es, cs, ss, ds, fs, gs, ldt;
	u16 trap, iomap_base;
} __packed;

#endif
