/*
 * test_clauses.c - the validator's checks clause by clause: each clause
 * of each check, and the test whose ROM fails that clause alone, so that
 * the test fails if the clause goes (tools/mutate-checks deletes each in
 * turn to prove it).  The tests below are the ones no other stood for.
 *
 *   check (rom_check.c)  clause                             test
 *   check_header     shorter than the header                reads_stay_inside_a_cut_rom
 *                    magic                                  header_fields_one_at_a_time
 *                    ABI major                              bad_major
 *                    entry table past 4 GiB (tables_end)    huge_entry_count
 *                    shorter than the entry table           truncated
 *                    size below the tables                  header_fields_one_at_a_time
 *                    size over ROM_MAX_SIZE                 header_fields_one_at_a_time
 *                    size past the module                   size_past_module
 *                    checksum                               bad_checksum
 *   fixups_placed    starts right after the entries         bad_fixups
 *                    ends at or after its start             (implied by the count's bound)
 *                    ends before the size                   bad_fixups
 *                    whole pairs                            bad_fixups
 *                    at most ROM_MAX_FIXUPS                 fixups_at_most_the_maximum
 *   in_code          not below the code                     entry_out_of_bounds
 *                    below the size                         entry_out_of_bounds
 *   check_entries    each op of ABI 1.0 in the table        missing_entry
 *                    not 0                                  missing_entry
 *                    in the code                            entry_out_of_bounds
 *   check_fixups     the table placed                       bad_fixups
 *                    instruction in the code                fixup_out_of_bounds
 *                    target in the code, or the kernel's    fixup_out_of_bounds, good
 *   rom_crc32        the checksum field counts as 0         good
 *   rom_has_magic    4 bytes at least                       magic_found
 */
#include <stdlib.h>
#include <string.h>
#include "../runner/runner.h"
#include "rom_builder.h"

static struct test_rom rom;

static void expect_verdict(enum rom_verdict want, const char *what)
{
	struct rom_check c = rom_validate(rom.bytes, rom.len);

	CHECK(c.verdict == want, "%s: verdict %d (%s), expected %d (%s)", what, c.verdict,
	      rom_verdict_text(c.verdict), want, rom_verdict_text(want));
}

/* The kernel keeps room for ROM_MAX_FIXUPS (rom.c copies them): one
 * more, each in the code and the table in its place, is refused. */
void test_fixups_at_most_the_maximum(void)
{
	rom_build_fixups(&rom, ROM_NR_OPS, ROM_ABI_MINOR, ROM_MAX_FIXUPS);
	expect_verdict(ROM_OK, "ROM_MAX_FIXUPS fixups");
	rom_build_fixups(&rom, ROM_NR_OPS, ROM_ABI_MINOR, ROM_MAX_FIXUPS + 1);
	expect_verdict(ROM_BAD_FIXUPS, "one fixup more than ROM_MAX_FIXUPS");
}

/*
 * The good ROM cut at every length, each in a buffer of exactly that
 * many bytes: refused, and nothing read past the cut (AddressSanitizer
 * stops the run if the validator reads a header it does not have).
 */
void test_reads_stay_inside_a_cut_rom(void)
{
	u32 len;

	rom_build_good(&rom);
	for (len = 0; len < ROM_SIZE && !check_failures(); len++) {
		u8 *cut = malloc(len ? len : 1);
		struct rom_check c;

		memcpy(cut, rom.bytes, len);
		c = rom_validate(cut, len);
		CHECK(c.verdict == (len < ROM_TABLES_END ? ROM_TRUNCATED : ROM_SIZE_PAST_MODULE),
		      "cut at %u: verdict %d (%s)", len, c.verdict, rom_verdict_text(c.verdict));
		free(cut);
	}
}

/* A header field wrong and the checksum sealed over it again: the
 * field's own clause must refuse it, not the checksum's. */
void test_header_fields_one_at_a_time(void)
{
	rom_build_good(&rom);
	rom.h.magic ^= 0x20;
	rom_seal(&rom);
	expect_verdict(ROM_BAD_MAGIC, "magic");

	rom_build_good(&rom);
	rom.h.size = ROM_TABLES_END - 4;	/* smaller than its tables */
	rom_seal(&rom);
	expect_verdict(ROM_BAD_SIZE, "size below the tables");

	rom_build_good(&rom);
	rom.h.size = ROM_MAX_SIZE + 4;	/* more than the kernel keeps */
	rom.len = ROM_MAX_SIZE + 4;
	rom_seal(&rom);
	expect_verdict(ROM_BAD_SIZE, "size over ROM_MAX_SIZE");
}
