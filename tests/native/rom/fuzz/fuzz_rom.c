/*
 * fuzz_rom.c - a libFuzzer target for the ops ROM validator
 * (arch/x86/paravirt/backends/rom_check.c).
 *
 * The input is a module's bytes, copied into a buffer of exactly its
 * size, so a read past what was checked is an ASan report.  Each input
 * is judged twice: as it is, and with a checksum that matches (else
 * nearly every input would stop at the checksum, and the checks behind
 * it would never be fuzzed).  A ROM found good must obey what the glue
 * (arch/x86/paravirt/backends/rom.c) relies on; any breach aborts.  Seeds: the
 * built build/pvrom.bin (make fuzz-pvrom).
 */
#include <stdlib.h>
#include <string.h>
#include <asm/rom.h>

static u32 get32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, 4);
	return v;
}

static void check_good(const u8 *rom, u32 len)
{
	u32 size = get32(rom + offsetof(struct rom_header, size));
	u32 nr = get32(rom + offsetof(struct rom_header, nr_entries));
	u32 code = get32(rom + offsetof(struct rom_header, fixups_end));
	u32 fix = get32(rom + offsetof(struct rom_header, fixups_start));
	u32 i;

	if (size > len || size > ROM_MAX_SIZE || nr < ROM_NR_OPS || code >= size ||
	    fix > code || (code - fix) / 8 > ROM_MAX_FIXUPS)
		abort();
	for (i = 0; i < ROM_NR_OPS; i++) {
		u32 e = get32(rom + sizeof(struct rom_header) + 4 * i);

		if (e < code || e >= size)
			abort();
	}
	for (i = ROM_NR_OPS; i < ROM_NR_KNOWN_OPS; i++) {	/* optional, if given */
		u32 e = rom_gives_op(rom, i) ? get32(rom + sizeof(struct rom_header) + 4 * i) : code;

		if (e < code || e >= size)
			abort();
	}
	for (i = fix; i < code; i += 8)
		if (get32(rom + i) < code || get32(rom + i) >= size)
			abort();
}

static void judge(const u8 *rom, u32 len)
{
	struct rom_check a = rom_validate(rom, len);
	struct rom_check b = rom_validate(rom, len);

	if (a.verdict != b.verdict || a.index != b.index)
		abort();
	if (a.verdict == ROM_OK)
		check_good(rom, len);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u8 *rom = malloc(size ? size : 1);
	u32 len = size, at = offsetof(struct rom_header, checksum);
	u32 claimed, crc;

	memcpy(rom, data, size);
	judge(rom, len);
	if (len >= sizeof(struct rom_header)) {
		claimed = get32(rom + offsetof(struct rom_header, size));
		crc = rom_crc32(rom, claimed < len ? claimed : len);
		memcpy(rom + at, &crc, 4);
		judge(rom, len);
	}
	free(rom);
	return 0;
}
