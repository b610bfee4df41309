/*
 * test_modules.c - the module list: good modules, bounds that are
 * backwards, beyond the kernel's map, outside RAM, in the kernel or in
 * each other, too many modules, and their strings; then the notes
 * themselves: what does not fit, and the printing contract.
 */
#include <string.h>
#include "check.h"

#define LIST_AT		0x9400u
#define STRINGS_AT	0xa000u

/* The QEMU block with a list of n modules at LIST_AT. */
static void use_modules(u32 n)
{
	put32(INFO_AT + MBI_FLAGS, F_MEM | F_CMDLINE | F_MMAP | F_LOADER | F_MODS);
	put32(INFO_AT + MBI_MODS_COUNT, n);
	put32(INFO_AT + MBI_MODS_ADDR, LIST_AT);
}

/* Module i at [start, end) named by the string s, stored at
 * STRINGS_AT + 0x40 * i. */
static void module(u32 i, u32 start, u32 end, const char *s)
{
	u32 string = STRINGS_AT + 0x40 * i;

	put_string(string, s);
	put_module(LIST_AT + 16 * i, start, end, string);
}

void test_modules_good(void)
{
	put_qemu_info("");
	use_modules(2);
	module(0, 0x300000, 0x305000, "build/user/hello.elf some args");
	module(1, 0x306000, 0x30a000, "heap.elf");
	parse(INFO_AT);
	CHECK_NO_NOTES();
	CHECK_U64(bi.nr_modules, 2);
	CHECK_STR(bi.modules[0].name, "hello.elf");
	CHECK_U64(bi.modules[0].start, 0x300000);
	CHECK_U64(bi.modules[0].end, 0x305000);
	CHECK_STR(bi.modules[1].name, "heap.elf");
	CHECK_U64(bi.nr_reserved, 8);
	CHECK_REGION(bi.reserved[3], LIST_AT, LIST_AT + 32);
	CHECK_REGION(bi.reserved[4], 0x300000, 0x305000);
	CHECK_REGION(bi.reserved[5], STRINGS_AT, STRINGS_AT + 31);
	CHECK_REGION(bi.reserved[6], 0x306000, 0x30a000);
	CHECK_REGION(bi.reserved[7], STRINGS_AT + 0x40, STRINGS_AT + 0x40 + 9);
}

/* Each bad in one way; only the last is good. */
void test_modules_bad_bounds(void)
{
	put_qemu_info("");
	use_modules(6);
	module(0, 0x400000, 0x3ff000, "a.elf");
	module(1, 0x3ffff000, 0x40001000, "b.elf");
	module(2, 0x7fe0000, 0x7fe1000, "c.elf");		/* QEMU's reserved top */
	module(3, 0x9f000, 0x101000, "d.elf");			/* across the hole */
	module(4, TEST_KERNEL_END - 0x1000, TEST_KERNEL_END + 0x1000, "e.elf");
	module(5, 0x300000, 0x301000, "f.elf");
	parse(INFO_AT);
	CHECK_NOTES("module 0 (a.elf) at 00400000 ends at 003ff000, before its start, ignored",
		    "module 1 (b.elf) at 3ffff000-40001000 ends beyond the kernel's 1024 MiB map, ignored",
		    "module 2 (c.elf) at 07fe0000-07fe1000 is not all in RAM, ignored",
		    "module 3 (d.elf) at 0009f000-00101000 is not all in RAM, ignored",
		    "module 4 (e.elf) at 0027f000-00281000 overlaps the kernel image, ignored");
	CHECK_U64(bi.nr_modules, 1);
	CHECK_STR(bi.modules[0].name, "f.elf");
	CHECK_U64(bi.nr_reserved, 6);	/* info, cmdline, map, list, f and its string */
	CHECK_REGION(bi.reserved[4], 0x300000, 0x301000);
}

/* 0 and 1 share a page: both go.  2 touches 1 without sharing a byte,
 * and 3 (backwards) is no module: 2 stays.  Each module's own checks
 * come first, then the pairs. */
void test_modules_overlapping(void)
{
	put_qemu_info("");
	use_modules(4);
	module(0, 0x300000, 0x302000, "a");
	module(1, 0x301000, 0x303000, "b");
	module(2, 0x303000, 0x304000, "c");
	module(3, 0x303800, 0x302800, "d");
	parse(INFO_AT);
	CHECK_NOTES("module 3 (d) at 00303800 ends at 00302800, before its start, ignored",
		    "module 0 (a) at 00300000-00302000 overlaps module 1, ignored",
		    "module 1 (b) at 00301000-00303000 overlaps module 0, ignored");
	CHECK_U64(bi.nr_modules, 1);
	CHECK_STR(bi.modules[0].name, "c");
}

void test_modules_too_many(void)
{
	u32 i;

	put_qemu_info("");
	use_modules(10);
	for (i = 0; i < 10; i++)
		module(i, 0x300000 + i * 0x1000, 0x301000 + i * 0x1000, "m");
	parse(INFO_AT);
	CHECK_NOTES("modules: 10 given, only the first 8 kept");
	CHECK_U64(bi.nr_modules, 8);
	CHECK_U64(bi.modules[7].start, 0x307000);
	CHECK_REGION(bi.reserved[3], LIST_AT, LIST_AT + 8 * 16);

	put32(INFO_AT + MBI_MODS_ADDR, 0);
	parse(INFO_AT);
	CHECK_NOTES("modules: 10 given, only the first 8 kept",
		    "modules: list pointer is 0, ignored");
	CHECK_U64(bi.nr_modules, 0);

	put32(INFO_AT + MBI_MODS_COUNT, 0xffffffff);
	put32(INFO_AT + MBI_MODS_ADDR, FAKE_SIZE - 64);
	parse(INFO_AT);
	CHECK_NOTES("modules: 4294967295 given, only the first 8 kept",
		    "modules: list at 000fffc0 (128 bytes) is not readable, ignored");
	CHECK_U64(bi.nr_reserved, 3);
}

/* Strings: none, endless, a name too long, empty.  The modules stay. */
void test_module_strings(void)
{
	char want[32];

	put_qemu_info("");
	use_modules(4);
	put_module(LIST_AT, 0x300000, 0x301000, 0);
	put_module(LIST_AT + 16, 0x301000, 0x302000, 0x20000);
	memset(fake + 0x20000, 'x', 5000);
	module(2, 0x302000, 0x303000, "dir/abcdefghijklmnopqrstuvwxyz0123456789 arg");
	module(3, 0x303000, 0x304000, "");
	parse(INFO_AT);
	CHECK_NOTES("module 0 string pointer is 0, ignored",
		    "module 1 string at 00020000 has no end in 4096 bytes, ignored",
		    "module 2 name longer than 31 bytes, truncated");
	CHECK_U64(bi.nr_modules, 4);
	CHECK_STR(bi.modules[0].name, "");
	CHECK_STR(bi.modules[1].name, "");
	memcpy(want, "abcdefghijklmnopqrstuvwxyz01234", 32);
	CHECK_STR(bi.modules[2].name, want);
	CHECK_STR(bi.modules[3].name, "");
	/* info, cmdline, map, list, 4 modules, strings of 2 and 3 */
	CHECK_U64(bi.nr_reserved, 10);
}

/* More notes than fit: the first MB_MAX_NOTES kept, the rest counted. */
void test_notes_overflow(void)
{
	u32 e = 0x10000;
	unsigned int i;

	put_qemu_info("");
	for (i = 0; i < 30; i++)
		e = put_map_entry(e, 20, 0xffffffffffff0000ull, 0x20000, 1);
	put32(INFO_AT + MBI_MMAP_ADDR, 0x10000);
	put32(INFO_AT + MBI_MMAP_LENGTH, e - 0x10000);
	parse(INFO_AT);
	CHECK_U64(notes.nr, MB_MAX_NOTES);
	CHECK_U64(notes.dropped, 30 + 1 - MB_MAX_NOTES);
	CHECK_STR(note_text(23), "mem: map entry 23 wraps past the end of the address space, ignored");
	CHECK_U64(bi.nr_regions, 2);		/* from mem_lower and mem_upper */
}

/* The kernel prints a note with printk(format, subject, a, b, c): each
 * format must start with %s and then take only unsigned long longs, at
 * most three.  Checked here on every format, whether a test above
 * produced it or not. */
void test_note_formats(void)
{
	unsigned int kind;

	for (kind = 0; kind <= MB_NOTE_KINDS; kind++) {
		const char *f = mb_note_format(kind), *p;
		unsigned int convs = 0;

		CHECK(f != NULL, "kind %u has no format", kind);
		if (!f)
			continue;
		for (p = strchr(f, '%'); p; p = strchr(p + 1, '%')) {
			size_t n = strspn(p + 1, "0123456789");
			const char *conv = p + 1 + n;

			if (convs++ == 0)
				CHECK(n == 0 && conv[0] == 's', "kind %u: '%s' does not start with %%s",
				      kind, f);
			else
				CHECK(strncmp(conv, "llu", 3) == 0 || strncmp(conv, "llx", 3) == 0,
				      "kind %u: '%s' takes something other than unsigned long long",
				      kind, f);
		}
		CHECK(convs >= 1 && convs <= 4, "kind %u: '%s' takes %u arguments", kind, f, convs);
	}
}
