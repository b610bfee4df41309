/*
 * test_elf.c - the ELF checks both loaders make (include/elf.h: the
 * host's guest kernel loader, arch/x86/host/load.c, and exec.c's user
 * programs), on an image built here: each clause refused by an image
 * that fails it alone, and the edges each clause still accepts.
 *
 *   check               clause                          row
 *   elf_check_header    the image holds a file header   short
 *                       magic, class, type, machine     magic, class, type, machine
 *                       program header size             phentsize
 *                       program headers start inside    phoff
 *                       and end inside                  phnum
 *   elf_segment_in_file no more file bytes than memory  filesz_over_memsz
 *                       file bytes start inside         offset
 *                       and end inside                  file_past_end
 *
 * What each loader adds (its segments in its memory, the entry point in
 * a loaded segment) is tested in the kernel: test_guest_refusals.c.
 */
#include <stddef.h>
#include "../../../include/elf.h"	/* by path: <elf.h> is the C library's */
#include "../runner/runner.h"

/* A header, two program headers, and 16 bytes of segment. */
struct image {
	struct elf32_ehdr h;
	struct elf32_phdr ph[2];
	u8 bytes[16];
} __attribute__((packed));

#define IMAGE_SIZE	((u32)sizeof(struct image))
#define BYTES_AT	((u32)offsetof(struct image, bytes))

static struct image good_image(void)
{
	struct image i = {
		.h = { .magic = ELF_MAGIC, .class = ELFCLASS32, .type = ET_EXEC,
		       .machine = EM_386, .entry = 0x100000,
		       .phoff = offsetof(struct image, ph),
		       .phentsize = sizeof(struct elf32_phdr), .phnum = 2 },
		.ph = { { PT_LOAD, BYTES_AT, 0x100000, 0x100000, 8, 8, PF_X, 4096 },
			{ PT_LOAD, BYTES_AT + 8, 0x101000, 0x101000, 8, 0x1000, PF_W, 4096 } },
	};

	return i;
}

/* Each row: the good image, one field changed, and the size the
 * loader is told; every other clause still holds. */
struct header_row {
	const char *what;
	void (*spoil)(struct image *i, u32 *size);
};

static void short_file(struct image *i, u32 *size)
{
	i->h.phoff = i->h.phnum = 0;	/* no headers to be outside */
	*size = sizeof(i->h) - 1;
}
static void magic(struct image *i, u32 *size)		{ (void)size; i->h.magic ^= 0x100; }
static void class(struct image *i, u32 *size)		{ (void)size; i->h.class = 2; }
static void type(struct image *i, u32 *size)		{ (void)size; i->h.type = 3; }
static void machine(struct image *i, u32 *size)	{ (void)size; i->h.machine = 62; }
static void phentsize(struct image *i, u32 *size)	{ (void)size; i->h.phentsize = 56; }
static void phoff(struct image *i, u32 *size)
{
	i->h.phnum = 0;			/* none: only the start is outside */
	i->h.phoff = *size + 1;
}
static void phnum(struct image *i, u32 *size)
{
	*size = i->h.phoff + 2 * sizeof(struct elf32_phdr) - 1;	/* the 2nd cut */
}

void test_elf_header_refusals(void)
{
	static const struct header_row rows[] = {
		{ "short", short_file }, { "magic", magic }, { "class", class },
		{ "type", type }, { "machine", machine }, { "phentsize", phentsize },
		{ "phoff", phoff }, { "phnum", phnum },
	};
	unsigned int r;

	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct image i = good_image();
		u32 size = IMAGE_SIZE;

		rows[r].spoil(&i, &size);
		CHECK(elf_check_header(&i, size) == -EINVAL, "%s: accepted", rows[r].what);
	}
}

/* The edges that are fine: the header alone, program headers that end
 * at the file's end, and none at its very end. */
void test_elf_header_edges_accepted(void)
{
	struct image i = good_image();

	CHECK(elf_check_header(&i, IMAGE_SIZE) == 0, "the good image");
	CHECK(elf_check_header(&i, i.h.phoff + 2 * sizeof(struct elf32_phdr)) == 0,
	      "program headers to the last byte");
	i.h.phnum = 0;
	i.h.phoff = sizeof(i.h);
	CHECK(elf_check_header(&i, sizeof(i.h)) == 0, "a header alone");
}

/* Segment rows: each within the file but for its one clause. */
void test_elf_segment_refusals(void)
{
	struct image i = good_image();
	struct elf32_phdr ph = i.ph[0];

	ph.filesz = ph.memsz + 1;		/* still inside the file */
	CHECK(!elf_segment_in_file(&ph, IMAGE_SIZE), "filesz_over_memsz: accepted");
	ph = i.ph[0];
	ph.offset = IMAGE_SIZE + 1;
	ph.filesz = 0;
	CHECK(!elf_segment_in_file(&ph, IMAGE_SIZE), "offset: accepted");
	ph = i.ph[0];
	ph.offset = IMAGE_SIZE - 4;		/* 8 bytes from 4 before the end */
	CHECK(!elf_segment_in_file(&ph, IMAGE_SIZE), "file_past_end: accepted");
}

void test_elf_segment_edges_accepted(void)
{
	struct image i = good_image();
	struct elf32_phdr ph = i.ph[1];

	CHECK(elf_segment_in_file(&i.ph[0], IMAGE_SIZE), "file bytes = memory");
	CHECK(elf_segment_in_file(&ph, IMAGE_SIZE), "file bytes to the last byte, and bss");
	ph.offset = IMAGE_SIZE;
	ph.filesz = 0;
	CHECK(elf_segment_in_file(&ph, IMAGE_SIZE), "no file bytes, at the file's end");
}
