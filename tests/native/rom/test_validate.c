/*
 * test_validate.c - the validator's verdict on each kind of ROM: a good
 * one, then one spoiled in each way the kernel must refuse, each with
 * the verdict and the entry or fixup it names worked out by hand.
 */
#include <stdio.h>
#include <string.h>
#include "../runner/runner.h"
#include "rom_builder.h"

static struct test_rom rom;

/* The verdict on rom as it is; index checked too when not ~0. */
static void expect(enum rom_verdict want, u32 index)
{
	struct rom_check c = rom_validate(rom.bytes, rom.len);

	CHECK(c.verdict == want, "verdict %d (%s), expected %d (%s)", c.verdict,
	      rom_verdict_text(c.verdict), want, rom_verdict_text(want));
	CHECK(index == ~0u || c.index == index, "index %u, expected %u", c.index, index);
}

void test_good(void)
{
	rom_build_good(&rom);
	expect(ROM_OK, ~0u);
	rom.len += 100;			/* a module longer than its ROM */
	expect(ROM_OK, ~0u);
}

/* A newer minor may add entries; they are not this kernel's to judge. */
void test_good_newer_minor(void)
{
	rom_build(&rom, ROM_NR_KNOWN_OPS, ROM_ABI_MINOR + 3);
	expect(ROM_OK, ~0u);
	rom_build(&rom, ROM_NR_KNOWN_OPS + 2, ROM_ABI_MINOR + 1);
	rom.h.entry[ROM_NR_KNOWN_OPS] = 0xdeadbeef;
	rom.h.entry[ROM_NR_KNOWN_OPS + 1] = 0;
	rom_seal(&rom);
	expect(ROM_OK, ~0u);
}

/* Minor 1's APIC ops are optional: a 1.0 ROM has none (and whatever its
 * table holds past ABI 1.0 is not read), a 1.1 ROM may leave them 0, but
 * one it gives must point into its code. */
void test_minor1_ops_optional(void)
{
	rom_build(&rom, ROM_NR_OPS, 0);
	expect(ROM_OK, ~0u);
	CHECK(!rom_gives_op(rom.bytes, ROM_OP_apic_read), "a 1.0 ROM gives apic_read");
	rom_build(&rom, ROM_NR_KNOWN_OPS, 0);
	rom.h.entry[ROM_OP_apic_read] = 0xdeadbeef;
	rom_seal(&rom);
	expect(ROM_OK, ~0u);
	CHECK(!rom_gives_op(rom.bytes, ROM_OP_apic_read), "a 1.0 ROM's entry 40 was read");
	rom_build(&rom, ROM_NR_KNOWN_OPS, 1);
	rom.h.entry[ROM_OP_apic_write] = 0;
	rom_seal(&rom);
	expect(ROM_OK, ~0u);
	CHECK(rom_gives_op(rom.bytes, ROM_OP_apic_read), "a 1.1 ROM's apic_read not seen");
	CHECK(!rom_gives_op(rom.bytes, ROM_OP_apic_write), "an apic_write of 0 taken as given");
	rom.h.entry[ROM_OP_apic_write] = 0xdeadbeef;
	rom_seal(&rom);
	expect(ROM_ENTRY_OUT_OF_BOUNDS, ROM_OP_apic_write);
}

/* The ROM this tree builds (make: build/pvrom.bin; tests run from the
 * top of the tree). */
void test_real_rom(void)
{
	FILE *f = fopen("build/pvrom.bin", "rb");

	CHECK(f, "build/pvrom.bin: cannot open (make builds it)");
	if (!f)
		return;
	memset(&rom, 0, sizeof(rom));
	rom.len = fread(rom.bytes, 1, sizeof(rom.bytes), f);
	fclose(f);
	expect(ROM_OK, ~0u);
	CHECK(rom.h.nr_entries == ROM_NR_KNOWN_OPS, "%u entries", rom.h.nr_entries);
	CHECK(rom_gives_op(rom.bytes, ROM_OP_apic_read) && rom_gives_op(rom.bytes, ROM_OP_apic_write),
	      "the APIC ops not given");
	CHECK(rom.h.fixups_end > rom.h.fixups_start, "no fixups");
}

/* The standard CRC-32 check value; the checksum field (bytes 12-15)
 * lies beyond these nine bytes, so nothing is zeroed. */
void test_crc32_check_value(void)
{
	u32 crc = rom_crc32("123456789", 9);

	CHECK(crc == 0xcbf43926, "crc32 %08x", crc);
	rom_build_good(&rom);
	crc = rom_crc32(rom.bytes, ROM_SIZE);
	rom.h.checksum ^= 0xffff;	/* the field does not count */
	CHECK(rom_crc32(rom.bytes, ROM_SIZE) == crc, "checksum field counted");
}

void test_magic_found(void)
{
	rom_build_good(&rom);
	CHECK(rom_has_magic(rom.bytes, 4), "magic in 4 bytes");
	CHECK(!rom_has_magic(rom.bytes, 3), "magic in 3 bytes");
	CHECK(!rom_has_magic("\x7f" "ELF", 4), "an ELF file is no ROM");
}

void test_truncated(void)
{
	rom_build_good(&rom);
	rom.len = 0;
	expect(ROM_TRUNCATED, ~0u);
	rom.len = sizeof(struct rom_header) - 1;
	expect(ROM_TRUNCATED, ~0u);
	rom.len = ROM_TABLES_END - 1;	/* the entry table cut */
	expect(ROM_TRUNCATED, ~0u);
}

void test_bad_magic(void)
{
	rom_build_good(&rom);
	rom.bytes[0] ^= 0x20;
	expect(ROM_BAD_MAGIC, ~0u);
}

void test_bad_major(void)
{
	rom_build_good(&rom);
	rom.h.abi_major = ROM_ABI_MAJOR + 1;
	rom_seal(&rom);
	expect(ROM_BAD_MAJOR, ~0u);
	rom.h.abi_major = 0;
	expect(ROM_BAD_MAJOR, ~0u);
}

void test_bad_size(void)
{
	rom_build_good(&rom);
	rom.h.size = ROM_TABLES_END - 4;	/* smaller than its tables */
	expect(ROM_BAD_SIZE, ~0u);
	rom.h.size = ROM_MAX_SIZE + 4;	/* more than the kernel keeps */
	rom.len = ROM_MAX_SIZE + 4;
	expect(ROM_BAD_SIZE, ~0u);
}

void test_size_past_module(void)
{
	rom_build_good(&rom);
	rom.len = ROM_SIZE - 1;
	expect(ROM_SIZE_PAST_MODULE, ~0u);
}

void test_bad_checksum(void)
{
	rom_build_good(&rom);
	rom.bytes[ROM_SIZE - 1] ^= 1;		/* one bit of code */
	expect(ROM_BAD_CHECKSUM, ~0u);
	rom_build_good(&rom);
	rom.h.checksum++;
	expect(ROM_BAD_CHECKSUM, ~0u);
	rom_build_good(&rom);
	rom.h.vendor[0] = 'H';			/* the header counts */
	expect(ROM_BAD_CHECKSUM, ~0u);
}

void test_missing_entry(void)
{
	rom_build_good(&rom);
	rom.h.entry[ROM_OP_read_cr3] = 0;
	rom_seal(&rom);
	expect(ROM_MISSING_ENTRY, ROM_OP_read_cr3);
	rom_build(&rom, ROM_NR_OPS - 1, 0);	/* a table one entry short */
	expect(ROM_MISSING_ENTRY, ROM_NR_OPS - 1);
}

static void expect_entry_refused(u32 nr, u32 offset)
{
	rom_build_good(&rom);
	rom.h.entry[nr] = offset;
	rom_seal(&rom);
	expect(ROM_ENTRY_OUT_OF_BOUNDS, nr);
}

void test_entry_out_of_bounds(void)
{
	expect_entry_refused(ROM_OP_iret, ROM_SIZE);		/* just past */
	expect_entry_refused(ROM_OP_cpuid, 0xfffffff0);
	expect_entry_refused(ROM_OP_irq_disable, 4);		/* the header */
	expect_entry_refused(ROM_OP_load_esp0, ROM_TABLES_END);	/* the fixups */
	rom_build_good(&rom);
	rom.h.entry[ROM_OP_load_esp0] = ROM_SIZE - 1;		/* last byte: fine */
	rom_seal(&rom);
	expect(ROM_OK, ~0u);
}

void test_bad_fixups(void)
{
	rom_build_good(&rom);
	rom.h.fixups_start += 8;		/* not right after the entries */
	rom_seal(&rom);
	expect(ROM_BAD_FIXUPS, ~0u);
	rom_build_good(&rom);
	rom.h.fixups_end -= 4;			/* half a pair */
	rom_seal(&rom);
	expect(ROM_BAD_FIXUPS, ~0u);
	rom_build_good(&rom);
	rom.h.fixups_end = ROM_SIZE + 8;	/* past the image */
	rom_seal(&rom);
	expect(ROM_BAD_FIXUPS, ~0u);
	rom_build_good(&rom);
	rom.h.fixups_end = rom.h.fixups_start - 8;	/* ends before it starts */
	rom_seal(&rom);
	expect(ROM_BAD_FIXUPS, ~0u);
}

void test_fixup_out_of_bounds(void)
{
	rom_build_good(&rom);
	rom_fixups(&rom)[1].insn = ROM_SIZE;
	rom_seal(&rom);
	expect(ROM_FIXUP_OUT_OF_BOUNDS, 1);
	rom_build_good(&rom);
	rom_fixups(&rom)[0].fixup = 8;		/* into the header */
	rom_seal(&rom);
	expect(ROM_FIXUP_OUT_OF_BOUNDS, 0);
	rom_build_good(&rom);
	rom_fixups(&rom)[0].insn = ROM_FIXUP_USER_RETURN;	/* only a target */
	rom_seal(&rom);
	expect(ROM_FIXUP_OUT_OF_BOUNDS, 0);
}

/* An entry count whose table would wrap 32 bits must not pass. */
void test_huge_entry_count(void)
{
	rom_build_good(&rom);
	rom.h.nr_entries = 0x40000000;
	expect(ROM_TRUNCATED, ~0u);
	rom.h.nr_entries = 0xffffffff;
	expect(ROM_TRUNCATED, ~0u);
}

/* Every verdict and op has words for the boot log. */
void test_texts(void)
{
	u32 i;

	for (i = ROM_OK; i <= ROM_FIXUP_OUT_OF_BOUNDS; i++)
		CHECK(strcmp(rom_verdict_text(i), "?"), "verdict %u has no text", i);
	for (i = 0; i < ROM_NR_KNOWN_OPS; i++)
		CHECK(strcmp(rom_op_name(i), "?"), "op %u has no name", i);
	CHECK(!strcmp(rom_op_name(ROM_OP_load_esp0), "load_esp0"), "op 39");
	CHECK(!strcmp(rom_op_name(ROM_OP_apic_write), "apic_write"), "op 41");
	CHECK(!strcmp(rom_op_name(ROM_NR_KNOWN_OPS), "?"), "op past ABI 1.1");
}
