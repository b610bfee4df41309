/*
 * multiboot_parse.h - the Multiboot v1 information parser, kept apart
 * from the kernel (arch/x86/kernel/firmware/multiboot_parse.c).
 *
 * The parser trusts nothing the loader wrote: it reads the loader's
 * memory only through struct mb_memory, which can say no, checks every
 * flag, pointer, length and range, and fills a struct boot_info that is
 * right or says what is missing.  What it had to ignore, cut or guess it
 * records as notes, which the kernel prints once it has a console
 * (arch/x86/kernel/multiboot.c) and the native tests compare with known lines.
 * It calls no kernel function and touches no kernel global, so the same
 * file builds into the kernel, the native tests and the fuzzer.
 */
#ifndef PV386_MULTIBOOT_PARSE_H
#define PV386_MULTIBOOT_PARSE_H

#include <bootinfo.h>

/* The loader's memory.  In the kernel, physical memory through the
 * identity of physical and linear addresses before paging; in the tests,
 * a buffer standing for low memory. */
struct mb_memory {
	/* Copy n bytes at physical address addr to dst; false, with dst
	 * unspecified, if any of them cannot be read. */
	bool (*read)(const struct mb_memory *mem, u64 addr, void *dst, u32 n);
};

/* What the parser needs to know about the kernel it works for. */
struct mb_env {
	const struct mb_memory *mem;
	u32 kernel_start, kernel_end;	/* the image: no loader data may be there */
	u32 map_end;			/* the kernel maps RAM below this only */
};

/* One thing the parser ignored, cut or guessed, as one boot-log line. */
enum mb_note_kind {
	MB_NOTE_NO_INFO,		/* EBX was 0 */
	MB_NOTE_NULL_POINTER,		/* a flag set, its pointer 0 */
	MB_NOTE_UNREADABLE,		/* a, b: address, bytes */
	MB_NOTE_STRING_UNREADABLE,	/* a: address */
	MB_NOTE_UNTERMINATED,		/* a: address, b: bytes searched */
	MB_NOTE_OVERLAPS_KERNEL,	/* a, b: start, end */
	MB_NOTE_TRUNCATED,		/* a: characters kept */
	MB_NOTE_NO_CMDLINE,
	MB_NOTE_MEM_LOWER_BIG,		/* a: given KiB, b: taken */
	MB_NOTE_MEM_UPPER_BIG,		/* a: given KiB, b: taken */
	MB_NOTE_NO_MAP,			/* no map: mem_lower/mem_upper used */
	MB_NOTE_MAP_NO_RAM,		/* a map without RAM from 1 MiB: the same */
	MB_NOTE_NO_MEMORY_SIZE,		/* none known from 1 MiB; a, b: RAM assumed */
	MB_NOTE_MAP_ENTRY_SHORT,	/* a: entry, b: its size */
	MB_NOTE_MAP_ENTRY_PAST_END,	/* a: entry, b: map length */
	MB_NOTE_MAP_STRAY_BYTES,	/* a: how many */
	MB_NOTE_MAP_TOO_LONG,		/* a: entries used */
	MB_NOTE_MAP_ENTRY_WRAPS,	/* a: entry */
	MB_NOTE_MAP_UNSORTED,
	MB_NOTE_MAP_OVERLAP,		/* a: KiB claimed twice */
	MB_NOTE_REGIONS_LOST,		/* a: regions kept, b: lost */
	MB_NOTE_MODULES_TOO_MANY,	/* a: given, b: kept */
	MB_NOTE_MODULE_BACKWARDS,	/* a: start, b: end */
	MB_NOTE_MODULE_BEYOND_MAP,	/* a: start, b: end, c: map in MiB */
	MB_NOTE_MODULE_NOT_RAM,		/* a: start, b: end */
	MB_NOTE_MODULE_OVERLAP,		/* a: start, b: end, c: other module */
	MB_NOTE_KINDS
};

#define MB_NOTE_SUBJECT	48

struct mb_note {
	enum mb_note_kind kind;
	char subject[MB_NOTE_SUBJECT];	/* what it is about: "cmdline:", "module 1 (hello.elf)" */
	u64 a, b, c;
};

#define MB_MAX_NOTES	24

struct mb_notes {
	unsigned int nr;
	unsigned int dropped;		/* notes that did not fit */
	struct mb_note note[MB_MAX_NOTES];
};

/* How far a string is searched for its end: a pointer to something that
 * is not a string must not send the search through all of memory. */
#define MB_STRING_MAX	4096

/* Parse the info block at physical address info into *out (cleared
 * first), noting in *notes (cleared first) what was wrong with it. */
void multiboot_parse_info(const struct mb_env *env, u32 info,
			  struct boot_info *out, struct mb_notes *notes);

/* The printf format of a note's line.  Every format takes the same
 * arguments, of which it uses a prefix: the subject (%s), then a, b and c
 * as unsigned long long. */
const char *mb_note_format(enum mb_note_kind kind);

#endif
