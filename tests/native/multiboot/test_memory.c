/*
 * test_memory.c - the flags, mem_lower/mem_upper and the memory map:
 * entry sizes, order, overlaps, RAM above 4 GiB and broken maps, each
 * with the regions, totals and notes worked out by hand.
 */
#include <string.h>
#include "check.h"

#define MAP_AT		0x10000u	/* where tests build their own maps */

/* Replace the QEMU block's map with the n bytes built at MAP_AT. */
static void use_map(u32 length)
{
	put32(INFO_AT + MBI_MMAP_ADDR, MAP_AT);
	put32(INFO_AT + MBI_MMAP_LENGTH, length);
}

/* What QEMU -m 128 passes: no notes, the regions of its map, and the
 * info block, command line and map kept from the page allocator. */
void test_good_qemu(void)
{
	const char *cmdline = "/boot/pv386.elf run=hello";

	put_qemu_info(cmdline);
	parse(INFO_AT);
	CHECK_NO_NOTES();
	CHECK_QEMU_MEMORY();
	CHECK_STR(bi.cmdline, cmdline);
	CHECK(!bi.cmdline_truncated, "cmdline_truncated set");
	CHECK_STR(bi.loader, "qemu");
	CHECK_U64(bi.nr_modules, 0);
	CHECK_U64(bi.nr_reserved, 3);
	CHECK_REGION(bi.reserved[0], INFO_AT, INFO_AT + MBI_SIZE);
	CHECK_REGION(bi.reserved[1], QEMU_CMDLINE_AT, QEMU_CMDLINE_AT + strlen(cmdline) + 1);
	CHECK_REGION(bi.reserved[2], QEMU_MAP_AT, QEMU_MAP_AT + QEMU_MAP_LEN);
}

/* Every field filled, no flag set: nothing may be used.  Then only the
 * loader name's flag, with every other pointer aimed at nothing: only
 * the name may be read. */
void test_flags_checked(void)
{
	put_qemu_info("must not be read");
	put32(INFO_AT + MBI_MODS_COUNT, 1);
	put32(INFO_AT + MBI_MODS_ADDR, 0x9400);
	put_module(0x9400, 0x300000, 0x301000, QEMU_LOADER_AT);
	put32(INFO_AT + MBI_FLAGS, 0);
	parse(INFO_AT);
	CHECK_NOTES("cmdline: none from the loader",
		    "mem: no RAM above 1 MiB known, assuming RAM at 00100000-01000000");
	CHECK(!bi.has_meminfo && !bi.has_mmap, "meminfo or map used");
	CHECK_STR(bi.cmdline, "");
	CHECK_STR(bi.loader, "unknown loader");
	CHECK_U64(bi.nr_modules, 0);
	CHECK_U64(bi.nr_regions, 1);
	CHECK_REGION(bi.regions[0], 0x100000, 0x1000000);
	CHECK_U64(bi.nr_reserved, 1);		/* the info block only */

	put32(INFO_AT + MBI_FLAGS, F_LOADER);
	put32(INFO_AT + MBI_CMDLINE, 0xdeadbeef);
	put32(INFO_AT + MBI_MMAP_ADDR, 0xdeadbeef);
	put32(INFO_AT + MBI_MODS_ADDR, 0xdeadbeef);
	parse(INFO_AT);
	CHECK_NOTES("cmdline: none from the loader",
		    "mem: no RAM above 1 MiB known, assuming RAM at 00100000-01000000");
	CHECK_STR(bi.loader, "qemu");
}

/* No map: the two classic ranges from mem_lower and mem_upper. */
void test_meminfo_only(void)
{
	put_qemu_info("");
	put32(INFO_AT + MBI_FLAGS, F_MEM | F_CMDLINE);
	put32(INFO_AT + MBI_MEM_UPPER, 64512);
	parse(INFO_AT);
	CHECK_NOTES("mem: no memory map from the loader, RAM from mem_lower and mem_upper");
	CHECK(!bi.has_mmap, "has_mmap without the flag");
	CHECK_U64(bi.nr_regions, 2);
	CHECK_REGION(bi.regions[0], 0, 639 * 1024);
	CHECK_REGION(bi.regions[1], 0x100000, 0x100000 + 64512ull * 1024);
}

/* Sizes no PC has: low memory is at most 640 KiB, and 1 MiB plus
 * mem_upper must stay below 4 GiB (memory_top adds them in 32 bits). */
void test_meminfo_clamped(void)
{
	put_qemu_info("");
	put32(INFO_AT + MBI_FLAGS, F_MEM | F_CMDLINE);
	put32(INFO_AT + MBI_MEM_LOWER, 700);
	put32(INFO_AT + MBI_MEM_UPPER, 0xffffffff);
	parse(INFO_AT);
	CHECK_NOTES("mem: mem_lower of 700 KiB is more than there is, taken as 640",
		    "mem: mem_upper of 4294967295 KiB reaches past 4 GiB, taken as 4193280",
		    "mem: no memory map from the loader, RAM from mem_lower and mem_upper");
	CHECK_U64(bi.mem_lower_kb, 640);
	CHECK_U64(bi.mem_upper_kb, 4193280);
	CHECK_REGION(bi.regions[0], 0, 640 * 1024);
	CHECK_REGION(bi.regions[1], 0x100000, 0x100000000ull);
}

/* The size field does not count itself, and may be more than 20: the
 * next entry is at entry + size + 4.  The extra bytes hold what would
 * read as RAM entries if the parser stepped wrongly. */
void test_map_entry_size(void)
{
	u32 e = MAP_AT;

	put_qemu_info("");
	e = put_map_entry(e, 20, 0, 0x9f000, 1);
	e = put_map_entry(e, 24, 0x100000, 0xf00000, 1);
	put32(e - 4, 1);
	e = put_map_entry(e, 36, 0x1000000, 0x1000000, 2);
	put_map_entry(e - 16, 12, 0x5000000, 0x1000, 1);	/* decoy inside the extra */
	put32(e - 16, 0x20);
	e = put_map_entry(e, 20, 0x2000000, 0x1000000, 1);
	use_map(e - MAP_AT);
	parse(INFO_AT);
	CHECK_NO_NOTES();
	CHECK_U64(e - MAP_AT, 24 + 28 + 40 + 24);
	CHECK_U64(bi.mmap_entries, 4);
	CHECK_U64(bi.nr_regions, 3);
	CHECK_REGION(bi.regions[0], 0, 0x9f000);
	CHECK_REGION(bi.regions[1], 0x100000, 0x1000000);
	CHECK_REGION(bi.regions[2], 0x2000000, 0x3000000);
	CHECK_U64(bi.mmap_usable_bytes, 0x9f000 + 0xf00000 + 0x1000000);
	CHECK_U64(bi.mmap_top, 0x3000000);
	CHECK_REGION(bi.reserved[2], MAP_AT, e);
}

/* Out of order and overlapping: RAM with RAM counts once, and reserved
 * inside RAM (or overlapping its end) cuts it out. */
void test_map_unsorted_overlapping(void)
{
	u32 e = MAP_AT;

	put_qemu_info("");
	e = put_map_entry(e, 20, 0x2000000, 0x2000000, 1);	/* A */
	e = put_map_entry(e, 20, 0x100000, 0x2700000, 1);	/* B: 8 MiB in A */
	e = put_map_entry(e, 20, 0, 0x9fc00, 1);		/* C */
	e = put_map_entry(e, 20, 0x3000000, 0x100000, 2);	/* D: in A */
	e = put_map_entry(e, 20, 0x9f000, 0x1000, 2);		/* E: 3 KiB in C */
	use_map(e - MAP_AT);
	parse(INFO_AT);
	/* 8 MiB (A, B) + 1 MiB (A, D) + 3 KiB (C, E) = 9219 KiB. */
	CHECK_NOTES("mem: map entries not in address order, sorted",
		    "mem: map entries overlap (9219 KiB): RAM counted once, reserved wins");
	CHECK_U64(bi.nr_regions, 3);
	CHECK_REGION(bi.regions[0], 0, 0x9f000);
	CHECK_REGION(bi.regions[1], 0x100000, 0x3000000);
	CHECK_REGION(bi.regions[2], 0x3100000, 0x4000000);
	CHECK_U64(bi.mmap_usable_bytes, 0x9f000 + 0x2f00000 + 0xf00000);
	CHECK_U64(bi.mmap_top, 0x4000000);
}

/* RAM above 4 GiB is counted, not kept; RAM across 4 GiB is cut there. */
void test_map_above_4g(void)
{
	u32 e = MAP_AT;

	/* QEMU -m 3584: 3 GiB less 128 KiB low, 512 MiB above 4 GiB.  The
	 * kernel reports 2559 MiB beyond its 1 GiB map (tests/run). */
	put_qemu_info("");
	e = put_map_entry(e, 20, 0, 0x9fc00, 1);
	e = put_map_entry(e, 20, 0x100000, 0xbfee0000, 1);
	e = put_map_entry(e, 20, 0xfffc0000, 0x40000, 2);
	e = put_map_entry(e, 20, 0x100000000ull, 0x20000000, 1);
	use_map(e - MAP_AT);
	parse(INFO_AT);
	CHECK_NO_NOTES();
	CHECK_U64(bi.nr_regions, 2);
	CHECK_REGION(bi.regions[1], 0x100000, 0xbffe0000);
	CHECK_U64(bi.ram_above_4g, 0x20000000);
	CHECK_U64(bi.mmap_top, 0xbffe0000);
	CHECK_U64(bi.mmap_usable_bytes, 0x9fc00 + 0xbfee0000 + 0x20000000ull);
	CHECK_U64((bi.regions[1].end - 0x40000000 + bi.ram_above_4g) >> 20, 2559);

	/* Across 4 GiB, wholly above it, and one whose end wraps 2^64. */
	e = MAP_AT;
	e = put_map_entry(e, 20, 0x100000, 0x13ff00000ull, 1);
	e = put_map_entry(e, 20, 0x200000000ull, 0x100000000ull, 1);
	e = put_map_entry(e, 20, 0xfffffffffffff000ull, 0x2000, 1);
	use_map(e - MAP_AT);
	parse(INFO_AT);
	CHECK_NOTES("mem: map entry 2 wraps past the end of the address space, ignored");
	CHECK_U64(bi.nr_regions, 1);
	CHECK_REGION(bi.regions[0], 0x100000, 0x100000000ull);
	CHECK_U64(bi.ram_above_4g, 0x40000000 + 0x100000000ull);
	CHECK_U64(bi.mmap_top, 0x100000000ull);
}

/* A map that breaks off: the entries before the break are used. */
void test_map_broken(void)
{
	u32 e;
	unsigned int i;

	put_qemu_info("");
	e = put_map_entry(MAP_AT, 20, 0, 0x9fc00, 1);
	e = put_map_entry(e, 20, 0x100000, 0xf00000, 1);
	put_map_entry(e, 12, 0x2000000, 0x1000000, 1);
	use_map(3 * 24);
	parse(INFO_AT);
	CHECK_NOTES("mem: map entry 2 has size 12 (less than 20), map cut there");
	CHECK_U64(bi.mmap_entries, 2);
	CHECK_U64(bi.nr_regions, 2);
	CHECK_REGION(bi.reserved[2], MAP_AT, MAP_AT + 48);

	put_map_entry(e, 100, 0x2000000, 0x1000000, 1);
	parse(INFO_AT);
	CHECK_NOTES("mem: map entry 2 runs past the map's end (72 bytes), map cut there");
	CHECK_U64(bi.nr_regions, 2);

	use_map(2 * 24 + 10);
	parse(INFO_AT);
	CHECK_NOTES("mem: map ends in 10 bytes too few for an entry, ignored");
	CHECK_U64(bi.mmap_entries, 2);

	/* 65 touching pages of RAM: the first 64 make one region. */
	for (e = MAP_AT, i = 0; i < 65; i++)
		e = put_map_entry(e, 20, 0x100000 + i * 0x1000ull, 0x1000, 1);
	use_map(e - MAP_AT);
	parse(INFO_AT);
	CHECK_NOTES("mem: map has more than 64 entries, the rest ignored");
	CHECK_U64(bi.mmap_entries, 64);
	CHECK_U64(bi.nr_regions, 1);
	CHECK_REGION(bi.regions[0], 0x100000, 0x140000);
}

/* The map's pointer: 0, at unreadable memory, inside the kernel. */
void test_map_pointer_bad(void)
{
	put_qemu_info("");
	put32(INFO_AT + MBI_MMAP_ADDR, 0);
	parse(INFO_AT);
	CHECK_NOTES("mem: map pointer is 0, ignored",
		    "mem: no memory map from the loader, RAM from mem_lower and mem_upper");
	CHECK_REGION(bi.regions[1], 0x100000, 0x100000 + 129920ull * 1024);

	put32(INFO_AT + MBI_MMAP_ADDR, 0x300000);
	parse(INFO_AT);
	CHECK_NOTES("mem: map at 00300000 (24 bytes) is not readable, ignored",
		    "mem: the memory map has no RAM above 1 MiB, RAM from mem_lower and mem_upper");
	CHECK_U64(bi.mmap_entries, 0);
	CHECK_U64(bi.nr_regions, 2);

	put32(INFO_AT + MBI_MMAP_ADDR, TEST_KERNEL_START + 0x100);
	parse(INFO_AT);
	CHECK_NOTES("mem: map at 00200100-00200190 overlaps the kernel image, ignored",
		    "mem: no memory map from the loader, RAM from mem_lower and mem_upper");
}

/* A map of nothing but reserved entries, then of low RAM only. */
void test_map_without_ram(void)
{
	u32 e;

	put_qemu_info("");
	e = put_map_entry(MAP_AT, 20, 0xf0000, 0x10000, 2);
	e = put_map_entry(e, 20, 0xfffc0000, 0x40000, 2);
	use_map(e - MAP_AT);
	parse(INFO_AT);
	CHECK_NOTES("mem: the memory map has no RAM above 1 MiB, RAM from mem_lower and mem_upper");
	CHECK_U64(bi.mmap_entries, 2);
	CHECK_U64(bi.nr_regions, 2);
	CHECK_REGION(bi.regions[0], 0, 639 * 1024);
	CHECK_U64(bi.mmap_top, 0);

	/* Only low RAM: the kernel at 1 MiB says there is more. */
	put_map_entry(MAP_AT, 20, 0, 0x9fc00, 1);
	parse(INFO_AT);
	CHECK_NOTES("mem: the memory map has no RAM above 1 MiB, RAM from mem_lower and mem_upper");
	CHECK_REGION(bi.regions[1], 0x100000, 0x100000 + 129920ull * 1024);
	CHECK_U64(bi.mmap_usable_bytes, 0x9fc00);

	/* And mem_upper 0 too (a fuzzer's find): a guess, not no RAM. */
	put32(INFO_AT + MBI_MEM_UPPER, 0);
	parse(INFO_AT);
	CHECK_NOTES("mem: no RAM above 1 MiB known, assuming RAM at 00100000-01000000");
	CHECK_U64(bi.nr_regions, 1);
	CHECK_REGION(bi.regions[0], 0x100000, 0x1000000);
}

/* 40 separate pieces of RAM: the lowest 32 are kept. */
void test_map_too_many_regions(void)
{
	u32 e = MAP_AT;
	unsigned int i;

	put_qemu_info("");
	for (i = 0; i < 40; i++)
		e = put_map_entry(e, 20, 0x100000 + i * 0x20000ull, 0x10000, 1);
	use_map(e - MAP_AT);
	parse(INFO_AT);
	CHECK_NOTES("mem: more RAM regions than 32, 8 of them unused");
	CHECK_U64(bi.nr_regions, 32);
	CHECK_REGION(bi.regions[0], 0x100000, 0x110000);
	CHECK_REGION(bi.regions[31], 0x100000 + 31 * 0x20000, 0x110000 + 31 * 0x20000);
	CHECK_U64(bi.mmap_usable_bytes, 40 * 0x10000);
}
