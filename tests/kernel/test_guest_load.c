/*
 * test_guest_load.c - the host's first steps with a guest (docs/guest.md):
 * guest memory and its bounds, the guest kernel loader on images built
 * here (a good one, and one per way of being bad), and the Multiboot
 * block the guest will boot from, read back by the same parser the
 * guest runs at boot; and kernel images that misbehave from their first
 * instruction, which the host must stop.
 */
#include <kernel.h>
#include <stddef.h>
#include <ktest.h>
#include <elf.h>
#include <multiboot_parse.h>
#include <page_alloc.h>
#include <string.h>
#include "../../arch/x86/host/host.h"	/* the host's own: tests reach in */
#include <asm/hypercall.h>
#include <asm/paging.h>

#define TEXT_GPA	0x100000u
#define DATA_GPA	0x101000u
#define DATA_MEMSZ	0x2000u

/* A two-segment kernel: text (entry at its start), then data and bss. */
struct test_image {
	struct elf32_ehdr h;
	struct elf32_phdr ph[2];
	u8 text[16];
	u8 data[8];
} __packed;

static void build_image(struct test_image *img)
{
	u32 text_off = offsetof(struct test_image, text);
	u32 data_off = offsetof(struct test_image, data);

	memset(img, 0, sizeof(*img));
	img->h = (struct elf32_ehdr){ .magic = ELF_MAGIC, .class = ELFCLASS32,
		.type = ET_EXEC, .machine = EM_386, .entry = TEXT_GPA + 4,
		.phoff = offsetof(struct test_image, ph),
		.phentsize = sizeof(struct elf32_phdr), .phnum = 2 };
	img->ph[0] = (struct elf32_phdr){ PT_LOAD, text_off, TEXT_GPA, TEXT_GPA,
					  sizeof(img->text), sizeof(img->text), PF_X, 4096 };
	img->ph[1] = (struct elf32_phdr){ PT_LOAD, data_off, DATA_GPA, DATA_GPA,
					  sizeof(img->data), DATA_MEMSZ, PF_W, 4096 };
	memset(img->text, 0x90, sizeof(img->text));
	memset(img->data, 0x5a, sizeof(img->data));
}

static struct guest_memory test_memory(void)
{
	struct guest_memory m;

	if (guest_memory_alloc(&m, GUESTMEM_MIN_MIB))
		return m;		/* empty: refused */
	memset((void *)m.base, 0xaa, m.size);	/* so the loader's zeroes show */
	return m;
}

/* Bytes that are never anyone's frames: what an empty guest_memory
 * must not be left holding after a refusal. */
#define NOT_MEMORY	0x5a5a5a5au

/*
 * Guest memory: a size no guest can have and more than the host has are
 * refused, with m left empty (so freeing it frees nothing) and every
 * frame still the host's; the bounds of guest_memory_ptr, on memory
 * described here (they are arithmetic: they need no frames); then one
 * real allocation, where the host has room for one (a 4 MiB machine has
 * not: the refusals above are the test there).
 */
KTEST(guest_memory_bounds)
{
	struct guest_memory m = { .base = NOT_MEMORY, .size = NOT_MEMORY };
	struct guest_memory fake = { .base = 0x400000u, .size = GUESTMEM_MIN_MIB * 0x100000u };
	unsigned long before = pages_free_count();
	int err;

	KT_EXPECT_EQ(guest_memory_alloc(&m, GUESTMEM_MIN_MIB - 1), -EINVAL);
	KT_EXPECT(m.base == 0 && m.size == 0);
	m = (struct guest_memory){ .base = NOT_MEMORY, .size = NOT_MEMORY };
	KT_EXPECT_EQ(guest_memory_alloc(&m, KERNEL_SPACE_END / 0x100000u + 1), -EINVAL);
	KT_EXPECT(m.base == 0 && m.size == 0);
	/* All the kernel's RAM, its first MiB too: more than any host has free. */
	m = (struct guest_memory){ .base = NOT_MEMORY, .size = NOT_MEMORY };
	KT_EXPECT_EQ(guest_memory_alloc(&m, KERNEL_SPACE_END / 0x100000u), -ENOMEM);
	KT_EXPECT(m.base == 0 && m.size == 0);
	guest_memory_free(&m);
	KT_EXPECT_EQ(pages_free_count(), before);

	KT_EXPECT(guest_memory_ptr(&fake, 0, fake.size) == (void *)fake.base);
	KT_EXPECT(guest_memory_ptr(&fake, fake.size, 0) != NULL);
	KT_EXPECT(guest_memory_ptr(&fake, fake.size - 1, 2) == NULL);
	KT_EXPECT(guest_memory_ptr(&fake, fake.size, 1) == NULL);
	KT_EXPECT(guest_memory_ptr(&fake, 0xfffff000u, 0x2000) == NULL);	/* wraps */
	KT_EXPECT(guest_memory_ptr(&fake, 16, 0xfffffff8u) == NULL);		/* wraps */

	err = guest_memory_alloc(&m, GUESTMEM_MIN_MIB);
	if (err) {
		KT_EXPECT_EQ(err, -ENOMEM);
		KT_EXPECT(m.base == 0 && m.size == 0);
		guest_memory_free(&m);
		KT_EXPECT_EQ(pages_free_count(), before);
		KT_SKIP("no room for the smallest guest memory here: only its refusals checked");
	}
	KT_EXPECT_EQ(m.size, GUESTMEM_MIN_MIB * 0x100000u);
	KT_EXPECT_EQ(pages_free_count(), before - m.size / PAGE_SIZE);
	KT_EXPECT(guest_memory_ptr(&m, 0, m.size) == (void *)m.base);
	guest_memory_free(&m);
	KT_EXPECT(m.base == 0 && m.size == 0);
	KT_EXPECT_EQ(pages_free_count(), before);
}

KTEST(guest_load_good_image)
{
	struct test_image img;
	struct guest_memory m = test_memory();
	const u8 *data;
	u32 entry = 0, i, nonzero = 0;

	if (!m.size)
		KT_SKIP("no room for guest memory");
	build_image(&img);
	KT_EXPECT_EQ(guest_load_kernel(&m, &img, sizeof(img), &entry), 0);
	KT_EXPECT_EQ(entry, TEXT_GPA + 4);
	KT_EXPECT(!memcmp(guest_memory_ptr(&m, TEXT_GPA, 16), img.text, 16));
	data = guest_memory_ptr(&m, DATA_GPA, DATA_MEMSZ);
	KT_EXPECT(!memcmp(data, img.data, sizeof(img.data)));
	for (i = sizeof(img.data); i < DATA_MEMSZ; i++)
		nonzero += data[i] != 0;
	KT_EXPECT_EQ(nonzero, 0);	/* bss */
	guest_memory_free(&m);
}

/* Each way an image is bad, made from a good one. */
static void bad_magic(struct test_image *i)	{ i->h.magic ^= 1; }
static void no_load(struct test_image *i)	{ i->ph[0].type = i->ph[1].type = 0; }
static void below_1mib(struct test_image *i)	{ i->ph[1].paddr = 0x8000; }
static void past_memory(struct test_image *i)	{ i->ph[1].memsz = GUESTMEM_MIN_MIB << 20; }
static void wraps(struct test_image *i)		{ i->ph[1].paddr = 0xfffff000u; }
static void file_past_end(struct test_image *i)	{ i->ph[1].filesz = i->ph[1].memsz = 4096; }
/* Inside the file (the data follow the text), past the segment's size:
 * only the filesz <= memsz clause refuses it. */
static void file_over_mem(struct test_image *i)	{ i->ph[0].filesz = 20; }
static void entry_in_data(struct test_image *i)	{ i->h.entry = DATA_GPA; }
static void entry_outside(struct test_image *i)	{ i->h.entry = 0x300000; }
static void phdrs_outside(struct test_image *i)	{ i->h.phnum = 200; }

KTEST(guest_load_refuses_bad_images)
{
	static void (*const spoil[])(struct test_image *) = {
		bad_magic, no_load, below_1mib, past_memory, wraps, file_past_end,
		file_over_mem, entry_in_data, entry_outside, phdrs_outside,
	};
	struct guest_memory m = test_memory();
	unsigned int i;

	if (!m.size)
		KT_SKIP("no room for guest memory");
	for (i = 0; i < ARRAY_SIZE(spoil); i++) {
		struct test_image img;
		u32 entry = 0;
		int err;

		build_image(&img);
		spoil[i](&img);
		err = guest_load_kernel(&m, &img, sizeof(img), &entry);
		if (err != -EINVAL)
			printk("ktest:   bad image %u: %d\n", i, err);
		KT_EXPECT_EQ(err, -EINVAL);
	}
	guest_memory_free(&m);
}

/* The parser's view of guest memory: guest-physical, bounds-checked. */
struct guest_view {
	struct mb_memory mem;
	const struct guest_memory *m;
};

static bool read_guest(const struct mb_memory *mem, u64 addr, void *dst, u32 n)
{
	const struct guest_view *v = (const struct guest_view *)mem;
	const void *src = addr >> 32 ? NULL : guest_memory_ptr(v->m, (u32)addr, n);

	if (src)
		memcpy(dst, src, n);
	return src != NULL;
}

KTEST(guest_boot_info_parses_clean)
{
	static struct boot_info parsed;
	static struct mb_notes notes;
	static char too_long[300];
	struct guest_memory m = test_memory();
	struct guest_view view = { { read_guest }, &m };
	struct mb_env env = { &view.mem, TEXT_GPA, DATA_GPA + DATA_MEMSZ, 0 };

	if (!m.size)
		KT_SKIP("no room for guest memory");
	env.map_end = m.size;
	KT_EXPECT_EQ(guest_write_boot_info(&m, "pv=guest ktest"), 0);
	multiboot_parse_info(&env, GUEST_BOOT_INFO, &parsed, &notes);
	KT_EXPECT_EQ(notes.nr, 0);
	KT_EXPECT(!strcmp(parsed.cmdline, "pv=guest ktest"));
	KT_EXPECT(!strcmp(parsed.loader, "pv386 host"));
	KT_EXPECT_EQ(parsed.nr_regions, 2);
	KT_EXPECT_EQ(parsed.regions[1].start, 0x100000);
	KT_EXPECT_EQ(parsed.regions[1].end, m.size);
	memset(too_long, 'x', sizeof(too_long) - 1);
	KT_EXPECT_EQ(guest_write_boot_info(&m, too_long), -EINVAL);
	guest_memory_free(&m);
}

KTEST(guest_kernel_is_told_from_programs)
{
	static u32 image[64];
	struct boot_module mod = { (u32)image, (u32)(image + 64), "k" };

	memset(image, 0, sizeof(image));
	KT_EXPECT(!module_is_kernel(&mod));
	image[3] = 0x1BADB002u;
	image[4] = 0x00000003u;
	image[5] = -(image[3] + image[4]);
	KT_EXPECT(module_is_kernel(&mod));
	image[5]++;			/* a bad checksum: no header */
	KT_EXPECT(!module_is_kernel(&mod));
}

/* ---- a hostile kernel image: the host must stop it, and go on ---- */

/*
 * Start a guest from img with code at its entry and run it until the
 * host stops it (a bounded number of runs: a guest that keeps running
 * fails the test).  Why it stopped goes to reason, and how many of its
 * pages the shadow filled to *fills (its code's page first, or it never
 * ran an instruction); the guest is released.
 */
static bool run_hostile_image(const u8 *code, unsigned int len, char *reason, size_t size,
			      unsigned long *fills)
{
	struct test_image img;
	struct guest *g;
	unsigned int runs;

	build_image(&img);
	memcpy(img.text + 4, code, len);	/* the entry is TEXT_GPA + 4 */
	if (guest_start_image(&img, sizeof(img), "", GUESTMEM_MIN_MIB))
		return false;
	g = guest_current();
	for (runs = 0; runs < 1000 && g->state == GUEST_RUNNING; runs++)
		guest_run(g);
	if (g->state == GUEST_RUNNING)
		guest_stop(g, "still running after %u runs", runs);
	strlcpy(reason, g->stop_reason, size);
	*fills = g->stats.shadow_faults;
	guest_release();
	return true;
}

/* Each does at once what a pv386 guest never would: before it has given
 * the host its shared page or gates, so nothing can be delivered to it. */
static const struct {
	const char *what;
	u8 code[8];
	unsigned int len;
	const char *stop;	/* how the host's reason starts */
} hostile_images[] = {
	{ "a read outside its memory", { 0xa1, 0x00, 0x00, 0x00, 0x40 }, 5,
	  "trap 14 at 00100004 with no gate" },
	{ "a hypercall before init", { 0xb8, HCALL_halt, 0, 0, 0, 0xcd, HYPERCALL_VECTOR }, 7,
	  "hypercall halt before init" },
	{ "a breakpoint", { 0xcc }, 1, "trap 3 at 00100005 with no gate" },
	{ "a cli", { 0xfa }, 1, "trap 13 at 00100004 with no gate" },
};

KTEST(guest_hostile_images_are_stopped)
{
	char reason[96];
	unsigned long fills;
	unsigned int i;

	KT_NOT_IN_GUEST("a guest cannot host: the Switcher runs at ring 0");
	if (guest_current() && guest_current()->state == GUEST_RUNNING)
		KT_SKIP("a guest is running");
	for (i = 0; i < ARRAY_SIZE(hostile_images); i++) {
		if (!run_hostile_image(hostile_images[i].code, hostile_images[i].len,
				       reason, sizeof(reason), &fills))
			KT_SKIP("no guest can start here (no CR0.WP that holds, or no room)");
		/* Stopped for what its instruction did, not before it ran:
		 * the fetch of its first one is the shadow's first fill.
		 * (Both stop at 00100004 when the image is a read.) */
		if (!fills) {
			kt_ctx->failures++;
			printk("ktest:   %s: stopped before its code's page was filled: '%s'\n",
			       hostile_images[i].what, reason);
		} else if (strncmp(reason, hostile_images[i].stop,
				   strlen(hostile_images[i].stop))) {
			kt_ctx->failures++;
			printk("ktest:   %s: stopped with '%s'\n", hostile_images[i].what, reason);
		}
	}
}
