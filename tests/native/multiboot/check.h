/*
 * check.h - what the native tests of the Multiboot info parser share: the
 * CHECK macro, the tests main() runs, and a fake low memory to build
 * info blocks in.
 *
 * The *.c here are linked with arch/x86/kernel/firmware/multiboot_parse.c and
 * kernel/ram_map.c into one native program with ASan and UBSan
 * (make native-tests: build/native/test_multiboot).  The parser reads memory
 * only through struct mb_memory, so a buffer stands in for the machine's
 * first MiB.  The tests lay out the info block from the Multiboot
 * specification's offsets, not from the parser's structures, so a wrong
 * structure in the parser shows as a failure.
 */
#ifndef NATIVE_MULTIBOOT_CHECK_H
#define NATIVE_MULTIBOOT_CHECK_H

#include <stdio.h>
#include <multiboot_parse.h>
#include "../runner/runner.h"

/* ---- checking (../runner/runner.h) ---- */

#define CHECK_U64(got, want)						\
	CHECK((u64)(got) == (u64)(want), "%s: got %#llx, want %#llx",	\
	      #got, (unsigned long long)(got), (unsigned long long)(want))

#define CHECK_STR(got, want)						\
	CHECK(strcmp((got), (want)) == 0, "%s: got '%s', want '%s'",	\
	      #got, (got), (want))

/* ---- the tests, in the order main() runs them ---- */

void test_good_qemu(void);		/* test_memory.c */
void test_flags_checked(void);
void test_meminfo_only(void);
void test_meminfo_clamped(void);
void test_map_entry_size(void);
void test_map_unsorted_overlapping(void);
void test_map_above_4g(void);
void test_map_broken(void);
void test_map_pointer_bad(void);
void test_map_without_ram(void);
void test_map_too_many_regions(void);
void test_cmdline(void);		/* test_strings.c */
void test_loader_name(void);
void test_info_placement(void);
void test_modules_good(void);		/* test_modules.c */
void test_modules_bad_bounds(void);
void test_modules_overlapping(void);
void test_modules_too_many(void);
void test_module_strings(void);
void test_notes_overflow(void);
void test_note_formats(void);
void test_map_entry_size_field_counts(void);	/* test_clauses.c */
void test_map_empty_entry_ignored(void);
void test_map_cut_at_first_reserves_nothing(void);
void test_meminfo_without_low_memory(void);
void test_modules_count_0_reads_no_list(void);
void test_modules_bad_one_drops_no_good_one(void);

/* ---- the fake low memory (fake_memory.c) ---- */

#define FAKE_SIZE	0x100000u	/* physical [0, 1 MiB) is readable */

/* The kernel the tests pretend to parse for: its image above the fake
 * memory with a gap (so a block cut by the end of readable memory is not
 * also in the kernel), and a 1 GiB map, as pv386's. */
#define TEST_KERNEL_START	0x00200000u
#define TEST_KERNEL_END		0x00280000u
#define TEST_MAP_END		0x40000000u

/* Spec offsets in the info block (Multiboot 0.6.96, section 3.3). */
#define MBI_FLAGS		0
#define MBI_MEM_LOWER		4
#define MBI_MEM_UPPER		8
#define MBI_CMDLINE		16
#define MBI_MODS_COUNT		20
#define MBI_MODS_ADDR		24
#define MBI_MMAP_LENGTH		44
#define MBI_MMAP_ADDR		48
#define MBI_LOADER_NAME		64
#define MBI_SIZE		68	/* up to the loader name: what pv386 reads */

#define F_MEM		(1u << 0)
#define F_CMDLINE	(1u << 2)
#define F_MODS		(1u << 3)
#define F_MMAP		(1u << 6)
#define F_LOADER	(1u << 9)

/* Where each test puts its info block, unless it tests placement. */
#define INFO_AT		0x9500u

extern u8 *fake;			/* FAKE_SIZE bytes, zeroed by fake_reset */
extern const struct mb_memory fake_memory;
extern const struct mb_env test_env;

void fake_reset(void);
void put32(u32 addr, u32 v);
void put64(u32 addr, u64 v);
/* Place a string or bytes from addr; return the address after them. */
u32 put_string(u32 addr, const char *s);
/* A memory map entry with the given size field at addr; returns the
 * next entry's address, addr + size + 4. */
u32 put_map_entry(u32 addr, u32 size, u64 start, u64 len, u32 type);
/* A module list entry (16 bytes) at addr. */
void put_module(u32 addr, u32 start, u32 end, u32 string);

/* An info block at INFO_AT that QEMU -m 128 would pass (flags: memory,
 * command line, map, loader name), with its strings and map. */
void put_qemu_info(const char *cmdline);
/* Check that bi holds what put_qemu_info's block gives. */
void check_qemu_memory_at(const char *file, int line);
#define CHECK_QEMU_MEMORY()	check_qemu_memory_at(__FILE__, __LINE__)
#define QEMU_CMDLINE_AT	0x9000u
#define QEMU_LOADER_AT	0x9100u
#define QEMU_MAP_AT	0x9200u
#define QEMU_MAP_LEN	(6 * 24)

/* Parse the info at addr with test_env, or with a kernel image at
 * [kstart, kend), into the two results. */
extern struct boot_info bi;
extern struct mb_notes notes;
void parse(u32 addr);
void parse_with_kernel_at(u32 addr, u32 kstart, u32 kend);

/* The text of note i as the kernel prints it. */
const char *note_text(unsigned int i);
/* Check that the notes are exactly these lines, in order. */
void check_notes_at(const char *file, int line, const char *const *want,
		    unsigned int n);
#define CHECK_NOTES(...)						\
	do {								\
		static const char *const want_[] = { __VA_ARGS__ };	\
		check_notes_at(__FILE__, __LINE__, want_,		\
			       sizeof(want_) / sizeof(want_[0]));	\
	} while (0)
#define CHECK_NO_NOTES()	check_notes_at(__FILE__, __LINE__, NULL, 0)

/* Check that region i is [start, end). */
#define CHECK_REGION(r, s, e)						\
	CHECK((r).start == (s) && (r).end == (e),			\
	      "%s: got [%#llx, %#llx), want [%#llx, %#llx)", #r,	\
	      (unsigned long long)(r).start, (unsigned long long)(r).end, \
	      (unsigned long long)(s), (unsigned long long)(e))

#endif
