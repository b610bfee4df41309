/*
 * fuzz_multiboot.c - a libFuzzer target for the Multiboot info parser.
 *
 * The input is the loader's memory: physical [0, size) holds the bytes
 * given, and the first four (little-endian) are the info block's address
 * (what EBX would hold).  Every pointer inside may aim anywhere; reads
 * outside the input fail, as reads of memory that is not there.  The
 * input is copied into a buffer of exactly its size, so a read the
 * parser makes past what it checked is an ASan report.
 *
 * After each parse the results must obey what the kernel relies on
 * (check_result); any breach aborts, which libFuzzer reports as a crash.
 * Seeds: corpus/, made by make_seeds.py.  How to run it: docs/boot.md,
 * "The Multiboot parser".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <multiboot_parse.h>

#define FUZZ_KERNEL_START	0x1000u	/* in the input's reach, on purpose */
#define FUZZ_KERNEL_END		0x1800u
#define FUZZ_MAP_END		0x40000000u
#define FOUR_GIB		0x100000000ull

struct fuzz_memory {
	struct mb_memory mem;	/* first: the parser hands this back */
	const unsigned char *bytes;
	size_t size;
};

static bool read_input(const struct mb_memory *mem, u64 addr, void *dst, u32 n)
{
	const struct fuzz_memory *m = (const struct fuzz_memory *)mem;

	if (addr > m->size || n > m->size - addr)
		return false;
	memcpy(dst, m->bytes + addr, n);
	return true;
}

static void fail(const char *why)
{
	fprintf(stderr, "fuzz_multiboot: %s\n", why);
	abort();
}

static bool overlaps(u64 a, u64 b, u64 c, u64 d)
{
	return a < d && c < b;
}

static bool in_one_region(const struct boot_info *bi, u64 start, u64 end)
{
	unsigned int i;

	for (i = 0; i < bi->nr_regions; i++)
		if (bi->regions[i].start <= start && end <= bi->regions[i].end)
			return true;
	return false;
}

static void check_regions(const struct boot_info *bi)
{
	u64 sum = 0;
	unsigned int i;

	if (bi->nr_regions > BOOT_MAX_REGIONS)
		fail("more regions than the table holds");
	for (i = 0; i < bi->nr_regions; i++) {
		const struct mem_region *r = &bi->regions[i];

		if (r->start >= r->end || r->end > FOUR_GIB)
			fail("a region empty, backwards or above 4 GiB");
		if (i && r->start <= bi->regions[i - 1].end)
			fail("regions not sorted, disjoint and merged");
		sum += r->end - r->start;
	}
	/* mmap_top is 0 when the regions come from mem_lower/mem_upper. */
	if (bi->mmap_top && bi->mmap_top != bi->regions[bi->nr_regions - 1].end)
		fail("mmap_top is not the end of the last region");
	if (bi->mmap_top && sum + bi->ram_above_4g > bi->mmap_usable_bytes)
		fail("the regions hold more RAM than the map has");
	if (bi->has_meminfo && (bi->mem_lower_kb > 640 ||
				0x100000ull + bi->mem_upper_kb * 1024ull > FOUR_GIB))
		fail("mem_lower or mem_upper out of range");
}

static void check_modules(const struct boot_info *bi)
{
	unsigned int i, j;

	if (bi->nr_modules > BOOT_MAX_MODULES)
		fail("more modules than the table holds");
	for (i = 0; i < bi->nr_modules; i++) {
		const struct boot_module *m = &bi->modules[i];

		if (m->end < m->start || m->end > FUZZ_MAP_END)
			fail("a module backwards or beyond the map");
		if (!in_one_region(bi, m->start, m->end))
			fail("a module outside RAM");
		if (overlaps(m->start, m->end, FUZZ_KERNEL_START, FUZZ_KERNEL_END))
			fail("a module in the kernel image");
		if (!memchr(m->name, '\0', sizeof(m->name)))
			fail("a module name without its NUL");
		for (j = 0; j < i; j++)
			if (overlaps(m->start, m->end, bi->modules[j].start, bi->modules[j].end))
				fail("two modules overlap");
	}
}

static void check_notes(const struct mb_notes *notes)
{
	char line[512];
	unsigned int i;

	if (notes->nr > MB_MAX_NOTES)
		fail("more notes than the table holds");
	for (i = 0; i < notes->nr; i++) {
		const struct mb_note *n = &notes->note[i];

		if (n->kind >= MB_NOTE_KINDS || !memchr(n->subject, '\0', sizeof(n->subject)))
			fail("a note of no kind, or a subject without its NUL");
		snprintf(line, sizeof(line), mb_note_format(n->kind), n->subject,
			 (unsigned long long)n->a, (unsigned long long)n->b,
			 (unsigned long long)n->c);
	}
}

static void check_result(const struct boot_info *bi, const struct mb_notes *notes)
{
	unsigned int i;

	if (!memchr(bi->cmdline, '\0', sizeof(bi->cmdline)) ||
	    !memchr(bi->loader, '\0', sizeof(bi->loader)))
		fail("cmdline or loader name without its NUL");
	if (bi->nr_reserved > BOOT_MAX_RESERVED)
		fail("more reserved ranges than the table holds");
	for (i = 0; i < bi->nr_reserved; i++)
		if (bi->reserved[i].start >= bi->reserved[i].end)
			fail("an empty or backwards reserved range");
	if (!bi->nr_regions || bi->regions[bi->nr_regions - 1].end <= 0x100000)
		fail("no RAM from 1 MiB, where the kernel is: the fallback must give some");
	check_regions(bi);
	check_modules(bi);
	check_notes(notes);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct boot_info bi, again;
	static struct mb_notes notes, notes_again;
	struct fuzz_memory mem = { { read_input }, NULL, size };
	struct mb_env env = { &mem.mem, FUZZ_KERNEL_START, FUZZ_KERNEL_END, FUZZ_MAP_END };
	unsigned char *copy;
	u32 info;

	if (size < 4)
		return 0;
	copy = malloc(size);
	memcpy(copy, data, size);
	mem.bytes = copy;
	info = copy[0] | copy[1] << 8 | copy[2] << 16 | (u32)copy[3] << 24;
	multiboot_parse_info(&env, info, &bi, &notes);
	check_result(&bi, &notes);
	/* The parser keeps no state: the same input, the same result. */
	multiboot_parse_info(&env, info, &again, &notes_again);
	if (memcmp(&bi, &again, sizeof(bi)) || memcmp(&notes, &notes_again, sizeof(notes)))
		fail("a second parse of the same input differs");
	free(copy);
	return 0;
}
