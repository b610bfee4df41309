/*
 * test_clauses.c - the parser's checks clause by clause: each clause of
 * each check, and the test whose input fails that clause alone (so that
 * the test fails if the clause goes).  tools/mutate-checks deletes each
 * clause in turn and runs these tests to prove it; the tests below are
 * the ones no other test here stood for.
 *
 *   check (multiboot_parse.c)  clause                         test
 *   multiboot_parse_info  info is 0                           info_placement
 *   read_loader_data      pointer 0                           modules_too_many
 *                         overlaps the kernel                 info_placement
 *                         not readable                        info_placement
 *   read_loader_string    pointer 0                           cmdline
 *                         no NUL in MB_STRING_MAX bytes       cmdline
 *                         runs into unreadable memory         cmdline
 *                         overlaps the kernel                 cmdline
 *                         longer than its buffer: cut         cmdline, module_strings
 *   parse_cmdline, parse_loader_name, parse_meminfo, parse_mmap,
 *   parse_modules         their flag not set                  flags_checked
 *   parse_meminfo         mem_lower over 640 KiB              meminfo_clamped
 *                         mem_upper past 4 GiB                meminfo_clamped
 *   parse_mmap            pointer 0, overlaps the kernel      map_pointer_bad
 *                         more than RAM_MAP_MAX_ENTRIES       map_broken
 *   read_map_entry        fewer bytes left than an entry      map_broken
 *                         not readable                        map_pointer_bad
 *                         size under 20                       map_broken
 *                         size + 4 (its own field) past end   map_entry_size_field_counts
 *   keep_map_entry        empty                               map_empty_entry_ignored
 *                         end wraps 2^64                      map_above_4g
 *   reserve               an empty range                      map_cut_at_first_reserves_nothing
 *   fallback_regions      map's RAM all below 1 MiB           map_without_ram
 *                         mem_upper 0: a guess                map_without_ram
 *   add_region            an empty range (mem_lower 0)        meminfo_without_low_memory
 *   parse_modules         count 0                             modules_count_0_reads_no_list
 *                         more than BOOT_MAX_MODULES          modules_too_many
 *   check_module          ends before its start               modules_bad_bounds
 *                         beyond the kernel's map             modules_bad_bounds
 *                         not all in one RAM region           modules_bad_bounds
 *                         overlaps the kernel                 modules_bad_bounds
 *   drop_overlapping_...  a module and itself                 modules_good
 *                         two that share bytes                modules_overlapping
 *                         only against modules kept so far    modules_bad_one_drops_no_good_one
 *   module_name, note     longer than the name, notes full    module_strings, notes_overflow
 *
 * Guards no input reaches (so not mutated): reserve's and add_region's
 * bounds, and fallback_regions' has_meminfo (mem_upper_kb is 0 without).
 */
#include <string.h>
#include "check.h"

#define MAP_AT		0x10000u
#define LIST_AT		0x9400u

static void use_map(u32 length)
{
	put32(INFO_AT + MBI_MMAP_ADDR, MAP_AT);
	put32(INFO_AT + MBI_MMAP_LENGTH, length);
}

/* The last entry's size says 23 bytes follow its size field: 27 in all,
 * where 24 are left.  Its 20-byte body fits; its whole does not. */
void test_map_entry_size_field_counts(void)
{
	u32 e = MAP_AT;

	put_qemu_info("");
	e = put_map_entry(e, 20, 0, 0x9fc00, 1);
	e = put_map_entry(e, 20, 0x100000, 0xf00000, 1);
	put_map_entry(e, 23, 0x2000000, 0x1000000, 1);
	use_map(3 * 24);
	parse(INFO_AT);
	CHECK_NOTES("mem: map entry 2 runs past the map's end (72 bytes), map cut there");
	CHECK_U64(bi.mmap_entries, 2);
	CHECK_U64(bi.nr_regions, 2);
	CHECK_REGION(bi.reserved[2], MAP_AT, MAP_AT + 48);
}

/* An entry of no length is no memory: it does not count, nor does its
 * place in the order (the others are sorted). */
void test_map_empty_entry_ignored(void)
{
	u32 e = MAP_AT;

	put_qemu_info("");
	e = put_map_entry(e, 20, 0, 0x9fc00, 1);
	e = put_map_entry(e, 20, 0x7000000, 0, 1);
	e = put_map_entry(e, 20, 0x100000, 0xf00000, 1);
	use_map(e - MAP_AT);
	parse(INFO_AT);
	CHECK_NO_NOTES();
	CHECK_U64(bi.mmap_entries, 3);
	CHECK_U64(bi.nr_regions, 2);
	CHECK_REGION(bi.regions[1], 0x100000, 0x1000000);
}

/* A map cut at its first entry: nothing of it was read, so nothing of
 * it is kept from the page allocator (an empty range is no range). */
void test_map_cut_at_first_reserves_nothing(void)
{
	put_qemu_info("");
	put_map_entry(MAP_AT, 12, 0x100000, 0xf00000, 1);
	use_map(24);
	parse(INFO_AT);
	CHECK_NOTES("mem: map entry 0 has size 12 (less than 20), map cut there",
		    "mem: the memory map has no RAM above 1 MiB, RAM from mem_lower and mem_upper");
	CHECK_U64(bi.nr_reserved, 2);		/* the info block and the command line */
}

/* No low memory at all (mem_lower 0): one region, from 1 MiB. */
void test_meminfo_without_low_memory(void)
{
	put_qemu_info("");
	put32(INFO_AT + MBI_FLAGS, F_MEM | F_CMDLINE);
	put32(INFO_AT + MBI_MEM_LOWER, 0);
	put32(INFO_AT + MBI_MEM_UPPER, 64512);
	parse(INFO_AT);
	CHECK_NOTES("mem: no memory map from the loader, RAM from mem_lower and mem_upper");
	CHECK_U64(bi.nr_regions, 1);
	CHECK_REGION(bi.regions[0], 0x100000, 0x100000 + 64512ull * 1024);
}

/* The modules flag with a count of 0: there is no list to read, so its
 * pointer (0 here) is not looked at. */
void test_modules_count_0_reads_no_list(void)
{
	put_qemu_info("");
	put32(INFO_AT + MBI_FLAGS, F_MEM | F_CMDLINE | F_MMAP | F_LOADER | F_MODS);
	put32(INFO_AT + MBI_MODS_COUNT, 0);
	put32(INFO_AT + MBI_MODS_ADDR, 0);
	parse(INFO_AT);
	CHECK_NO_NOTES();
	CHECK_U64(bi.nr_modules, 0);
	CHECK_U64(bi.nr_reserved, 3);
}

/* Module 1 is backwards, its bounds inside module 0: it is no module,
 * so it cannot take module 0 with it. */
void test_modules_bad_one_drops_no_good_one(void)
{
	put_qemu_info("");
	put32(INFO_AT + MBI_FLAGS, F_MEM | F_CMDLINE | F_MMAP | F_LOADER | F_MODS);
	put32(INFO_AT + MBI_MODS_COUNT, 2);
	put32(INFO_AT + MBI_MODS_ADDR, LIST_AT);
	put_string(0xa000, "a");
	put_string(0xa040, "b");
	put_module(LIST_AT, 0x300000, 0x304000, 0xa000);
	put_module(LIST_AT + 16, 0x302000, 0x301000, 0xa040);
	parse(INFO_AT);
	CHECK_NOTES("module 1 (b) at 00302000 ends at 00301000, before its start, ignored");
	CHECK_U64(bi.nr_modules, 1);
	CHECK_STR(bi.modules[0].name, "a");
}
