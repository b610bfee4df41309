/*
 * rom_builder.c - a good ops ROM, built by the ABI's offsets, for the
 * native tests to spoil (rom_builder.h).
 */
#include <string.h>
#include "rom_builder.h"

struct rom_fixup *rom_fixups(struct test_rom *r)
{
	return (struct rom_fixup *)(r->bytes + r->h.fixups_start);
}

void rom_seal(struct test_rom *r)
{
	r->h.checksum = rom_crc32(r->bytes, r->h.size);
}

void rom_build_fixups(struct test_rom *r, u32 nr_entries, u16 minor, u32 nr_fixups)
{
	u32 tables_end = sizeof(struct rom_header) + 4 * nr_entries;
	u32 code = tables_end + nr_fixups * sizeof(struct rom_fixup), i;

	memset(r, 0, sizeof(*r));
	r->h.magic = ROM_MAGIC;
	r->h.abi_major = ROM_ABI_MAJOR;
	r->h.abi_minor = minor;
	r->h.size = code + ROM_CODE_BYTES;
	r->h.fixups_start = tables_end;
	r->h.fixups_end = code;
	strcpy(r->h.vendor, "native test");
	r->h.nr_entries = nr_entries;
	for (i = 0; i < nr_entries; i++)
		r->h.entry[i] = code + i % ROM_CODE_BYTES;
	rom_fixups(r)[0] = (struct rom_fixup){ code, code + 1 };
	for (i = 1; i < nr_fixups; i++)
		rom_fixups(r)[i] = (struct rom_fixup){ code + (2 * i) % ROM_CODE_BYTES,
						       ROM_FIXUP_USER_RETURN };
	memset(r->bytes + code, 0xc3, ROM_CODE_BYTES);	/* ret */
	r->len = r->h.size;
	rom_seal(r);
}

void rom_build(struct test_rom *r, u32 nr_entries, u16 minor)
{
	rom_build_fixups(r, nr_entries, minor, ROM_NR_FIXUPS);
}

void rom_build_good(struct test_rom *r)
{
	rom_build(r, ROM_NR_OPS, ROM_ABI_MINOR);
}
