/*
 * rom_builder.c - a good ops ROM, built by the ABI's offsets, for the
 * host tests to spoil (rom_builder.h).
 */
#include <string.h>
#include "rom_builder.h"

struct pvrom_fixup *rom_fixups(struct test_rom *r)
{
	return (struct pvrom_fixup *)(r->bytes + r->h.fixups_start);
}

void rom_seal(struct test_rom *r)
{
	r->h.checksum = pvrom_crc32(r->bytes, r->h.size);
}

void rom_build(struct test_rom *r, u32 nr_entries, u16 minor)
{
	u32 tables_end = sizeof(struct pvrom_header) + 4 * nr_entries;
	u32 code = tables_end + ROM_NR_FIXUPS * sizeof(struct pvrom_fixup), i;

	memset(r, 0, sizeof(*r));
	r->h.magic = PVROM_MAGIC;
	r->h.abi_major = PVROM_ABI_MAJOR;
	r->h.abi_minor = minor;
	r->h.size = code + ROM_CODE_BYTES;
	r->h.fixups_start = tables_end;
	r->h.fixups_end = code;
	strcpy(r->h.vendor, "host test");
	r->h.nr_entries = nr_entries;
	for (i = 0; i < nr_entries; i++)
		r->h.entry[i] = code + i % ROM_CODE_BYTES;
	rom_fixups(r)[0] = (struct pvrom_fixup){ code, code + 1 };
	rom_fixups(r)[1] = (struct pvrom_fixup){ code + 2, PVROM_FIXUP_USER_RETURN };
	memset(r->bytes + code, 0xc3, ROM_CODE_BYTES);	/* ret */
	r->len = r->h.size;
	rom_seal(r);
}

void rom_build_good(struct test_rom *r)
{
	rom_build(r, PVROM_NR_OPS, PVROM_ABI_MINOR);
}
