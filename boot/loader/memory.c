/*
 * memory.c - how much memory there is, from the BIOS: INT 12h for the
 * memory below 640 KiB, then the best of three for the rest: INT 15h
 * E820 (a full map, kept for the kernel as the Multiboot mmap), else
 * E801 (KiB up to 16 MiB plus 64 KiB blocks above), else AH=88h (KiB
 * above 1 MiB, at most 64 MiB).  Older BIOSes know only the later ones.
 */
#include "loader.h"
#include <multiboot.h>	/* the format, shared with the kernel */

#define SMAP		0x534d4150	/* "SMAP", E820's signature */
#define MIB		0x100000u
#define MMAP_MAX_ENTRIES	32	/* the map the kernel gets, at most */

static struct multiboot_mmap_entry map[MMAP_MAX_ENTRIES];

/* E820 writes its 20 bytes (24 with ACPI 3 attributes) here, below
 * 64 KiB where ES:DI can point. */
static struct { u64 addr, len; u32 type, acpi; } e820_entry;

static u32 low_memory_kb(void)
{
	struct biosregs r = { 0 };

	bios_call(0x12, &r);
	return r.eax & 0xffff;
}

/* The map's available region that starts at or below 1 MiB and goes past
 * it: its part above 1 MiB is Multiboot's mem_upper. */
static u32 upper_kb_from_map(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		u64 end = map[i].addr + map[i].len;

		if (map[i].type == MB_MEMORY_AVAILABLE && map[i].addr <= MIB && end > MIB) {
			if (end > 0x100000000ull)
				end = 0x100000000ull;
			return (u32)((end - MIB) >> 10);
		}
	}
	return 0;
}

static unsigned int e820(void)
{
	unsigned int n = 0;
	u32 next = 0;

	do {
		struct biosregs r = { .eax = 0xe820, .edx = SMAP, .ecx = 20,
				      .ebx = next, .edi = (u32)&e820_entry };

		bios_call(0x15, &r);
		if ((r.flags & FLAG_CF) || r.eax != SMAP || r.ecx < 20)
			break;
		map[n].size = sizeof(map[n]) - 4;
		map[n].addr = e820_entry.addr;
		map[n].len = e820_entry.len;
		map[n].type = e820_entry.type;
		n++;
		next = r.ebx;
	} while (next && n < MMAP_MAX_ENTRIES);
	return n;
}

static u32 e801_kb(void)
{
	struct biosregs r = { .eax = 0xe801 };
	u32 below16, above16;

	bios_call(0x15, &r);
	if (r.flags & FLAG_CF)
		return 0;
	below16 = r.eax & 0xffff;	/* KiB from 1 MiB to 16 MiB */
	above16 = r.ebx & 0xffff;	/* 64 KiB blocks above 16 MiB */
	if (!below16 && !above16) {	/* some BIOSes answer in CX/DX */
		below16 = r.ecx & 0xffff;
		above16 = r.edx & 0xffff;
	}
	/* Contiguous only if nothing is missing below 16 MiB. */
	return below16 == 15 * 1024 ? below16 + above16 * 64 : below16;
}

static u32 ah88_kb(void)
{
	struct biosregs r = { .eax = 0x8800 };

	bios_call(0x15, &r);
	return (r.flags & FLAG_CF) ? 0 : (r.eax & 0xffff);
}

/* header_flags: HEADER_F_NO_E820/E801 let a test take the older ways
 * on a BIOS that has the newer ones. */
void memory_detect(struct multiboot_info *mbi, u32 header_flags)
{
	unsigned int n = (header_flags & HEADER_F_NO_E820) ? 0 : e820();
	const char *how = "e820";

	mbi->mem_lower = low_memory_kb();
	if (n) {
		mbi->mem_upper = upper_kb_from_map(n);
		mbi->mmap_addr = (u32)map;
		mbi->mmap_length = n * sizeof(map[0]);
		mbi->flags |= MB_INFO_MMAP;
	}
	if (!mbi->mem_upper && !(header_flags & HEADER_F_NO_E801)) {
		mbi->mem_upper = e801_kb();
		how = "e801";
	}
	if (!mbi->mem_upper) {
		mbi->mem_upper = ah88_kb();
		how = "int 15h ah=88h";
	}
	if (!mbi->mem_upper)
		die("the BIOS does not say how much memory there is above 1 MiB");
	mbi->flags |= MB_INFO_MEMORY;
	print("mem: %u KiB low, %u KiB from 1 MiB (%s", mbi->mem_lower,
	      mbi->mem_upper, how);
	if (n)
		print(", map of %u regions", n);
	print(")\n");
}

u32 memory_upper_end(const struct multiboot_info *mbi)
{
	if (mbi->mem_upper >= (0xffffffffu - MIB) >> 10)
		return 0xffffffffu;
	return MIB + mbi->mem_upper * 1024;
}
