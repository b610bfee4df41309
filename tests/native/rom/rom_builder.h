/*
 * rom_builder.h - builds ops ROMs in memory for the validator's native
 * tests: a good one laid out as the ABI says (asm/rom.h), which each
 * test then spoils in one way, and the checksum sealed again or not.
 */
#ifndef NATIVE_ROM_BUILDER_H
#define NATIVE_ROM_BUILDER_H

#include <asm/rom.h>

#define ROM_NR_FIXUPS	2
#define ROM_CODE_BYTES	64
#define ROM_TABLES_END	(sizeof(struct rom_header) + 4 * ROM_NR_OPS)
#define ROM_CODE_START	(ROM_TABLES_END + ROM_NR_FIXUPS * sizeof(struct rom_fixup))
#define ROM_SIZE	(ROM_CODE_START + ROM_CODE_BYTES)

struct test_rom {
	union {
		struct rom_header h;
		u8 bytes[ROM_MAX_SIZE + 64];
	};
	u32 len;		/* what the "module" holds */
};

/* A ROM of nr_entries entries (op n's code at the code's start + n) and
 * that minor version, tables placed as the ABI says, sealed. */
void rom_build(struct test_rom *r, u32 nr_entries, u16 minor);
/* The same with nr_fixups fixups (at least 1), the first into the code,
 * the others to the kernel's handler of a bad return to user mode. */
void rom_build_fixups(struct test_rom *r, u32 nr_entries, u16 minor, u32 nr_fixups);
/* The good ROM of ABI 1.0: ROM_SIZE bytes, code at ROM_CODE_START. */
void rom_build_good(struct test_rom *r);
/* The fixup table, as built. */
struct rom_fixup *rom_fixups(struct test_rom *r);
/* Write the checksum the contents now call for. */
void rom_seal(struct test_rom *r);

#endif
