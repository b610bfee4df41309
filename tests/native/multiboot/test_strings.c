/*
 * test_strings.c - the command line and the loader name: missing, empty,
 * long, without an end, off the end of memory, in the kernel; and the
 * info block itself in odd places.
 */
#include <string.h>
#include "check.h"

#define LONG_AT		0x20000u	/* room for strings longer than 4 KiB */

/* A string of n copies of c at addr, with or without its NUL. */
static void put_run(u32 addr, char c, unsigned int n, bool terminated)
{
	memset(fake + addr, c, n);
	fake[addr + n] = terminated ? '\0' : c;
}

void test_cmdline(void)
{
	char want[256];

	put_qemu_info("");
	parse(INFO_AT);
	CHECK_NO_NOTES();
	CHECK_STR(bi.cmdline, "");
	CHECK_REGION(bi.reserved[1], QEMU_CMDLINE_AT, QEMU_CMDLINE_AT + 1);

	put32(INFO_AT + MBI_FLAGS, F_MEM | F_MMAP | F_LOADER);
	parse(INFO_AT);
	CHECK_NOTES("cmdline: none from the loader");
	CHECK_U64(bi.nr_reserved, 2);			/* info block and map */

	/* 255 characters fit; 300 are cut to 255, but all are kept. */
	put32(INFO_AT + MBI_FLAGS, F_MEM | F_MMAP | F_LOADER | F_CMDLINE);
	put32(INFO_AT + MBI_CMDLINE, LONG_AT);
	put_run(LONG_AT, 'a', 255, true);
	parse(INFO_AT);
	CHECK_NO_NOTES();
	CHECK_U64(strlen(bi.cmdline), 255);
	CHECK(!bi.cmdline_truncated, "255 characters called truncated");

	put_run(LONG_AT, 'a', 300, true);
	parse(INFO_AT);
	CHECK_NOTES("cmdline: longer than 255 bytes, truncated");
	memset(want, 'a', 255);
	want[255] = '\0';
	CHECK_STR(bi.cmdline, want);
	CHECK(bi.cmdline_truncated, "300 characters not called truncated");
	CHECK_REGION(bi.reserved[1], LONG_AT, LONG_AT + 301);
	CHECK_QEMU_MEMORY();

	/* No NUL in the first 4096 bytes: not a command line at all. */
	put_run(LONG_AT, 'x', 5000, true);
	parse(INFO_AT);
	CHECK_NOTES("cmdline: at 00020000 has no end in 4096 bytes, ignored");
	CHECK_STR(bi.cmdline, "");
	CHECK_U64(bi.nr_reserved, 2);

	put32(INFO_AT + MBI_CMDLINE, 0);
	parse(INFO_AT);
	CHECK_NOTES("cmdline: pointer is 0, ignored");

	/* The last three readable bytes, and no NUL before memory ends. */
	put32(INFO_AT + MBI_CMDLINE, FAKE_SIZE - 3);
	memcpy(fake + FAKE_SIZE - 3, "abc", 3);
	parse(INFO_AT);
	CHECK_NOTES("cmdline: at 000ffffd runs into unreadable memory, ignored");
	CHECK_STR(bi.cmdline, "");

	/* A string that ends inside the kernel image. */
	put32(INFO_AT + MBI_CMDLINE, 0x7fff0);
	put_run(0x7fff0, 'k', 40, true);
	parse_with_kernel_at(INFO_AT, 0x80000, 0x90000);
	CHECK_NOTES("cmdline: at 0007fff0-00080019 overlaps the kernel image, ignored");
	CHECK_STR(bi.cmdline, "");
}

void test_loader_name(void)
{
	char want[64];

	put_qemu_info("");
	put32(INFO_AT + MBI_LOADER_NAME, LONG_AT);
	put_run(LONG_AT, 'g', 100, true);
	parse(INFO_AT);
	CHECK_NOTES("multiboot: loader name longer than 63 bytes, truncated");
	memset(want, 'g', 63);
	want[63] = '\0';
	CHECK_STR(bi.loader, want);
	CHECK_U64(bi.nr_reserved, 3);			/* the name was copied */

	put32(INFO_AT + MBI_LOADER_NAME, 0);
	parse(INFO_AT);
	CHECK_NOTES("multiboot: loader name pointer is 0, ignored");
	CHECK_STR(bi.loader, "unknown loader");
}

/* Move the QEMU block from INFO_AT to addr (its strings and map stay),
 * as much of it as there is memory for. */
static void move_info(u32 addr)
{
	u8 block[MBI_SIZE];
	u32 room = FAKE_SIZE - addr < MBI_SIZE ? FAKE_SIZE - addr : MBI_SIZE;

	memcpy(block, fake + INFO_AT, MBI_SIZE);
	memset(fake + INFO_AT, 0, MBI_SIZE);
	memcpy(fake + addr, block, room);
}

void test_info_placement(void)
{
	static const u32 good_places[] = { 0x7, 0x500, 0x9fc00 - MBI_SIZE,
					   FAKE_SIZE - MBI_SIZE };
	unsigned int i;

	parse(0);
	CHECK_NOTES("multiboot: no info block (EBX is 0): no memory size, command line or modules",
		    "cmdline: none from the loader",
		    "mem: no RAM above 1 MiB known, assuming RAM at 00100000-01000000");
	CHECK_U64(bi.nr_reserved, 0);
	CHECK_STR(bi.loader, "unknown loader");

	for (i = 0; i < sizeof(good_places) / sizeof(good_places[0]); i++) {
		fake_reset();
		put_qemu_info("k");
		move_info(good_places[i]);
		parse(good_places[i]);
		CHECK_NO_NOTES();
		CHECK_QEMU_MEMORY();
		CHECK_STR(bi.cmdline, "k");
		CHECK_REGION(bi.reserved[0], good_places[i], good_places[i] + MBI_SIZE);
	}

	/* Cut by the end of readable memory: treated as no block at all. */
	fake_reset();
	put_qemu_info("k");
	move_info(FAKE_SIZE - 40);
	parse(FAKE_SIZE - 40);
	CHECK_NOTES("multiboot: info block at 000fffd8 (68 bytes) is not readable, ignored",
		    "cmdline: none from the loader",
		    "mem: no RAM above 1 MiB known, assuming RAM at 00100000-01000000");
	CHECK_U64(bi.nr_reserved, 0);

	fake_reset();
	put_qemu_info("k");
	move_info(0x80100);
	parse_with_kernel_at(0x80100, 0x80000, 0x90000);
	CHECK_NOTES("multiboot: info block at 00080100-00080144 overlaps the kernel image, ignored",
		    "cmdline: none from the loader",
		    "mem: no RAM above 1 MiB known, assuming RAM at 00100000-01000000");
}
