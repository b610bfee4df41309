/*
 * rom_check.c - decides whether a buffer is an ops ROM pv386 can
 * install (the ABI: asm/rom.h), before any of its code is trusted.
 *
 * The checks run in the order in which each makes the next one safe:
 * enough bytes for a header, the magic, the ABI major, a size field that
 * covers the tables and fits the module, the checksum over that size,
 * then every entry and fixup inside the code.  Reads stay in [0, len):
 * the native tests and the fuzzer (tests/native/rom/) run this same file
 * under AddressSanitizer.  It calls nothing of the kernel.
 */
#include <asm/rom.h>

#define OP_NAME(nr, op)	[nr] = #op,
static const char *const op_names[ROM_NR_KNOWN_OPS] = { ROM_ALL_OPS(OP_NAME) };

static const char *const verdict_texts[] = {
	[ROM_OK]			= "a good ROM",
	[ROM_TRUNCATED]		= "truncated: shorter than its header and entry table",
	[ROM_BAD_MAGIC]		= "no ROM magic",
	[ROM_BAD_MAJOR]		= "wrong ABI major version",
	[ROM_BAD_SIZE]		= "size field smaller than its tables or over the maximum",
	[ROM_SIZE_PAST_MODULE]	= "size field larger than the module",
	[ROM_BAD_CHECKSUM]		= "wrong checksum",
	[ROM_MISSING_ENTRY]		= "a required entry is missing",
	[ROM_ENTRY_OUT_OF_BOUNDS]	= "an entry points outside the ROM's code",
	[ROM_BAD_FIXUPS]		= "fixup table misplaced",
	[ROM_FIXUP_OUT_OF_BOUNDS]	= "a fixup points outside the ROM's code",
};

const char *rom_verdict_text(enum rom_verdict v)
{
	return (unsigned int)v < ARRAY_SIZE(verdict_texts) ? verdict_texts[v] : "?";
}

const char *rom_op_name(u32 nr)
{
	return nr < ROM_NR_KNOWN_OPS ? op_names[nr] : "?";
}

/* Little-endian reads at any offset: the buffer need not be aligned. */
static u32 get32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

static u16 get16(const u8 *p)
{
	return p[0] | p[1] << 8;
}

#define FIELD(rom, f)	((const u8 *)(rom) + offsetof(struct rom_header, f))
#define TABLES_START	sizeof(struct rom_header)
#define CHECKSUM_AT	offsetof(struct rom_header, checksum)

/* Bitwise CRC-32 (reflected, polynomial 0xedb88320): a ROM is checked
 * once per boot, so no table is worth its 1 KiB. */
u32 rom_crc32(const void *rom, u32 len)
{
	const u8 *p = rom;
	u32 crc = 0xffffffffu, i;
	int bit;

	for (i = 0; i < len; i++) {
		u8 byte = (i >= CHECKSUM_AT && i < CHECKSUM_AT + 4) ? 0 : p[i];

		crc ^= byte;
		for (bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

bool rom_has_magic(const void *rom, u32 len)
{
	return len >= 4 && get32(FIELD(rom, magic)) == ROM_MAGIC;
}

static struct rom_check verdict(enum rom_verdict v, u32 index)
{
	struct rom_check c = { v, index };

	return c;
}

/* Where the tables end; 0 if nr_entries alone would pass 4 GiB. */
static u32 tables_end(u32 nr_entries)
{
	if (nr_entries > (ROM_MAX_SIZE - TABLES_START) / 4)
		return 0;
	return TABLES_START + 4 * nr_entries;
}

/* The header itself, up to and including the checksum. */
static struct rom_check check_header(const u8 *rom, u32 len)
{
	u32 size, end;

	if (len < TABLES_START)
		return verdict(ROM_TRUNCATED, 0);
	if (get32(FIELD(rom, magic)) != ROM_MAGIC)
		return verdict(ROM_BAD_MAGIC, 0);
	if (get16(FIELD(rom, abi_major)) != ROM_ABI_MAJOR)
		return verdict(ROM_BAD_MAJOR, 0);
	end = tables_end(get32(FIELD(rom, nr_entries)));
	if (!end || len < end)
		return verdict(ROM_TRUNCATED, 0);
	size = get32(FIELD(rom, size));
	if (size < end || size > ROM_MAX_SIZE)
		return verdict(ROM_BAD_SIZE, 0);
	if (size > len)
		return verdict(ROM_SIZE_PAST_MODULE, 0);
	if (rom_crc32(rom, size) != get32(FIELD(rom, checksum)))
		return verdict(ROM_BAD_CHECKSUM, 0);
	return verdict(ROM_OK, 0);
}

/* The fixup table lies between the entries and the code, whole pairs. */
static bool fixups_placed(const u8 *rom)
{
	u32 start = get32(FIELD(rom, fixups_start));
	u32 end = get32(FIELD(rom, fixups_end));
	u32 size = get32(FIELD(rom, size));

	return start == tables_end(get32(FIELD(rom, nr_entries))) && end >= start &&
	       end < size && (end - start) % sizeof(struct rom_fixup) == 0 &&
	       (end - start) / sizeof(struct rom_fixup) <= ROM_MAX_FIXUPS;
}

static bool in_code(const u8 *rom, u32 offset)
{
	return offset >= get32(FIELD(rom, fixups_end)) && offset < get32(FIELD(rom, size));
}

/* The minor version that numbered op nr (ABI 1.0's are 0). */
static u32 op_minor(u32 nr)
{
	return nr < ROM_NR_OPS ? 0 : 1;
}

/* Op nr's entry, if the ROM's minor and table are new enough to hold it
 * (0 is "none", as a missing entry); nr < ROM_NR_KNOWN_OPS. */
static u32 entry_of(const u8 *rom, u32 nr)
{
	if (nr >= get32(FIELD(rom, nr_entries)) || get16(FIELD(rom, abi_minor)) < op_minor(nr))
		return 0;
	return get32(rom + TABLES_START + 4 * nr);
}

bool rom_gives_op(const void *rom, u32 nr)
{
	return nr < ROM_NR_KNOWN_OPS && entry_of(rom, nr) != 0;
}

/* Every op of ABI 1.0: present, and in the code; a later minor's op, in
 * the code if given.  Entries past ROM_NR_KNOWN_OPS, or of a minor newer
 * than the ROM says it is, are not ours to judge. */
static struct rom_check check_entries(const u8 *rom)
{
	u32 i;

	for (i = 0; i < ROM_NR_KNOWN_OPS; i++) {
		u32 e = entry_of(rom, i);

		if (e == 0 && i < ROM_NR_OPS)
			return verdict(ROM_MISSING_ENTRY, i);
		if (e != 0 && !in_code(rom, e))
			return verdict(ROM_ENTRY_OUT_OF_BOUNDS, i);
	}
	return verdict(ROM_OK, 0);
}

static struct rom_check check_fixups(const u8 *rom)
{
	u32 start, end, i;

	if (!fixups_placed(rom))
		return verdict(ROM_BAD_FIXUPS, 0);
	start = get32(FIELD(rom, fixups_start));
	end = get32(FIELD(rom, fixups_end));
	for (i = 0; start + 8 * i < end; i++) {
		u32 insn = get32(rom + start + 8 * i);
		u32 fixup = get32(rom + start + 8 * i + 4);

		if (!in_code(rom, insn) ||
		    (fixup != ROM_FIXUP_USER_RETURN && !in_code(rom, fixup)))
			return verdict(ROM_FIXUP_OUT_OF_BOUNDS, i);
	}
	return verdict(ROM_OK, 0);
}

struct rom_check rom_validate(const void *rom, u32 len)
{
	struct rom_check c = check_header(rom, len);

	if (c.verdict == ROM_OK)
		c = check_fixups(rom);
	if (c.verdict == ROM_OK)
		c = check_entries(rom);
	return c;
}
