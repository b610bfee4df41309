/*
 * test_guest_refusals.c - the loaders' checks in the kernel, one
 * refusal per clause: the host's guest kernel loader
 * (arch/x86/host/load.c) and guest memory (memory.c), and exec.c's
 * user programs.  Each row is a good image with one thing wrong, which
 * fails that one clause and passes all the others; the clauses of
 * include/elf.h, which both loaders call, have their rows on the host
 * too (tests/native/guest/test_elf.c, mutated by tools/mutate-checks).
 *
 *   check                  clause                         row
 *   guest_load_kernel      the ELF header (elf.h)         bad_magic
 *                          a PT_LOAD segment at all       no_load (also refused by
 *                            entry_in_text: the entry must be in a PT_LOAD; checked)
 *   load_segment           file bytes within memory size  file_over_mem (its bytes in the file)
 *     (elf_segment_in_file) file bytes start in the file  offset_past_file
 *                          and end in it                  file_past_end
 *                          at or above 1 MiB              below_1mib
 *                          in guest memory                past_memory, wraps
 *   entry_in_text          in a PT_LOAD segment           entry_in_a_note
 *                          an executable one              entry_in_data
 *                          not past its end               entry_past_text
 *     (its `addr >= paddr` is implied: below the start, addr - paddr wraps)
 *   guest_write_boot_info  a command line that fits       guest_boot_info_parses_clean
 *   has_multiboot_header   magic and checksum             guest_kernel_is_told_from_programs
 *                          in the first 8 KiB             guest_kernel_header_only_in_8_kib
 *                          all 12 bytes in the image      guest_kernel_header_only_in_8_kib
 *   guest_memory_alloc     at least GUESTMEM_MIN_MIB      guest_memory_bounds
 *                          no more than the kernel maps   guest_memory_refuses_each_clause
 *   guest_memory_ptr       the start in guest memory      guest_memory_refuses_each_clause
 *                          the length from there          guest_memory_refuses_each_clause
 *   exec_load              the ELF header (elf.h)         bad_machine
 *                          entry in user space            entry_in_kernel, entry_at_user_end
 *                          a segment loaded at all        no_segment
 *   in_user_space          from USER_BASE                 below_user_base
 *                          below USER_END                 at_user_end
 *                          its size up to USER_END        across_user_end
 *   load_segment (exec.c)  elf_segment_in_file            file_over_mem (its bytes in the file)
 */
#include <kernel.h>
#include <stddef.h>
#include <ktest.h>
#include <elf.h>
#include <exec.h>
#include <page_alloc.h>
#include <string.h>
#include <task.h>
#include "../../arch/x86/host/host.h"	/* the host's own: tests reach in */
#include <asm/paging.h>

/* ---- the guest kernel loader ---- */

#define TEXT_GPA	0x100000u
#define DATA_GPA	0x101000u

/* Text (the entry at its start), data with bss, and 16 bytes after
 * them, so that a segment can be given more file bytes than its memory
 * and still lie in the file. */
struct kernel_image {
	struct elf32_ehdr h;
	struct elf32_phdr ph[2];
	u8 text[16];
	u8 data[8];
	u8 tail[16];
} __packed;

static void build_kernel(struct kernel_image *i)
{
	memset(i, 0, sizeof(*i));
	i->h = (struct elf32_ehdr){ .magic = ELF_MAGIC, .class = ELFCLASS32,
		.type = ET_EXEC, .machine = EM_386, .entry = TEXT_GPA,
		.phoff = offsetof(struct kernel_image, ph),
		.phentsize = sizeof(struct elf32_phdr), .phnum = 2 };
	i->ph[0] = (struct elf32_phdr){ PT_LOAD, offsetof(struct kernel_image, text), TEXT_GPA,
					TEXT_GPA, sizeof(i->text), sizeof(i->text), PF_X, 4096 };
	i->ph[1] = (struct elf32_phdr){ PT_LOAD, offsetof(struct kernel_image, data), DATA_GPA,
					DATA_GPA, sizeof(i->data), 0x2000, PF_W, 4096 };
	memset(i->text, 0x90, sizeof(i->text));
}

static void bad_magic(struct kernel_image *i)	{ i->h.magic ^= 1; }
static void no_load(struct kernel_image *i)	{ i->ph[0].type = i->ph[1].type = 4; }
static void file_over_mem(struct kernel_image *i) { i->ph[0].filesz = 20; }
static void offset_past_file(struct kernel_image *i)
{
	i->ph[1].offset = sizeof(*i) + 1;
	i->ph[1].filesz = 0;
}
static void file_past_end(struct kernel_image *i) { i->ph[1].filesz = 40; }
static void below_1mib(struct kernel_image *i)	{ i->ph[1].paddr = 0xff000; }
static void past_memory(struct kernel_image *i)	{ i->ph[1].memsz = GUESTMEM_MIN_MIB << 20; }
static void wraps(struct kernel_image *i)	{ i->ph[1].paddr = 0xfffff000u; }
static void entry_in_a_note(struct kernel_image *i)
{
	i->ph[1].type = 4;		/* PT_NOTE, executable, over the entry */
	i->ph[1].flags = PF_X;
	i->ph[1].memsz = 0x1000;
	i->h.entry = DATA_GPA;
}
static void entry_in_data(struct kernel_image *i)	{ i->h.entry = DATA_GPA; }
static void entry_past_text(struct kernel_image *i)	{ i->h.entry = TEXT_GPA + 16; }

static const struct {
	const char *what;
	void (*spoil)(struct kernel_image *i);
} bad_kernels[] = {
	{ "bad_magic", bad_magic }, { "no_load", no_load },
	{ "file_over_mem", file_over_mem }, { "offset_past_file", offset_past_file },
	{ "file_past_end", file_past_end }, { "below_1mib", below_1mib },
	{ "past_memory", past_memory }, { "wraps", wraps },
	{ "entry_in_a_note", entry_in_a_note }, { "entry_in_data", entry_in_data },
	{ "entry_past_text", entry_past_text },
};

KTEST(guest_loader_refuses_each_clause)
{
	struct kernel_image img;
	struct guest_memory m;
	unsigned int i;
	u32 entry = 0;

	if (guest_memory_alloc(&m, GUESTMEM_MIN_MIB))
		KT_SKIP("no room for guest memory");
	build_kernel(&img);
	KT_EXPECT_EQ(guest_load_kernel(&m, &img, sizeof(img), &entry), 0);
	KT_EXPECT_EQ(entry, TEXT_GPA);
	for (i = 0; i < ARRAY_SIZE(bad_kernels); i++) {
		int err;

		build_kernel(&img);
		bad_kernels[i].spoil(&img);
		err = guest_load_kernel(&m, &img, sizeof(img), &entry);
		if (err != -EINVAL)
			printk("ktest:   %s: %d\n", bad_kernels[i].what, err);
		KT_EXPECT_EQ(err, -EINVAL);
	}
	guest_memory_free(&m);
}

/* A Multiboot header counts in the first 8 KiB only, and whole. */
KTEST(guest_kernel_header_only_in_8_kib)
{
	static u32 image[2048 + 16];
	struct boot_module mod = { (u32)image, (u32)(image + ARRAY_SIZE(image)), "k" };
	u32 at;

	for (at = 2045; at <= 2048; at += 3) {	/* its last word at 8 KiB - 4; at 8 KiB */
		memset(image, 0, sizeof(image));
		image[at] = 0x1BADB002u;
		image[at + 1] = 0;
		image[at + 2] = -image[at];
		KT_EXPECT_EQ(module_is_kernel(&mod), at == 2045);
	}
	memset(image, 0, sizeof(image));	/* its checksum past the image's end */
	image[2045] = 0x1BADB002u;
	image[2047] = -image[2045];
	mod.end = (u32)(image + 2047);
	KT_EXPECT(!module_is_kernel(&mod));
}

KTEST(guest_memory_refuses_each_clause)
{
	struct guest_memory m;

	KT_EXPECT_EQ(guest_memory_alloc(&m, KERNEL_SPACE_END / 0x100000u + 1), -EINVAL);
	if (guest_memory_alloc(&m, GUESTMEM_MIN_MIB))
		KT_SKIP("no room for guest memory");
	KT_EXPECT(guest_memory_ptr(&m, m.size + 1, 0) == NULL);	/* the start alone */
	KT_EXPECT(guest_memory_ptr(&m, m.size, 1) == NULL);	/* the length alone */
	KT_EXPECT(guest_memory_ptr(&m, m.size - 1, 1) != NULL);
	KT_EXPECT(guest_memory_ptr(&m, m.size, 0) != NULL);
	guest_memory_free(&m);
}

/* ---- exec.c's user programs ---- */

#define PROG_VA		USER_BASE

/* One text segment (the entry at its start) and 16 bytes after it. */
struct program_image {
	struct elf32_ehdr h;
	struct elf32_phdr ph;
	u8 text[16];
	u8 tail[16];
} __packed;

static void build_program(struct program_image *i)
{
	memset(i, 0, sizeof(*i));
	i->h = (struct elf32_ehdr){ .magic = ELF_MAGIC, .class = ELFCLASS32,
		.type = ET_EXEC, .machine = EM_386, .entry = PROG_VA,
		.phoff = offsetof(struct program_image, ph),
		.phentsize = sizeof(struct elf32_phdr), .phnum = 1 };
	i->ph = (struct elf32_phdr){ PT_LOAD, offsetof(struct program_image, text), PROG_VA,
				     PROG_VA, sizeof(i->text), sizeof(i->text), PF_X, 4096 };
	memset(i->text, 0x90, sizeof(i->text));
}

static void bad_machine(struct program_image *i)	{ i->h.machine = 62; }
static void entry_in_kernel(struct program_image *i)	{ i->h.entry = 0x100000; }
static void entry_at_user_end(struct program_image *i)	{ i->h.entry = USER_END; }
static void no_segment(struct program_image *i)		{ i->ph.type = 4; }
static void below_user_base(struct program_image *i)	{ i->ph.vaddr = USER_BASE - 0x1000; }
static void at_user_end(struct program_image *i)
{
	i->ph.vaddr = USER_END;		/* its size 0: only the start is wrong */
	i->ph.filesz = i->ph.memsz = 0;
}
static void across_user_end(struct program_image *i)
{
	i->ph.vaddr = USER_END - 0x1000;
	i->ph.memsz = 0x1001;
}
static void prog_file_over_mem(struct program_image *i)	{ i->ph.filesz = 20; }

static const struct {
	const char *what;
	void (*spoil)(struct program_image *i);
} bad_programs[] = {
	{ "bad_machine", bad_machine }, { "entry_in_kernel", entry_in_kernel },
	{ "entry_at_user_end", entry_at_user_end }, { "no_segment", no_segment },
	{ "below_user_base", below_user_base }, { "at_user_end", at_user_end },
	{ "across_user_end", across_user_end }, { "file_over_mem", prog_file_over_mem },
};

/* exec_load into a task of our own, never run: its kernel stack is
 * where exec_load writes the first frame. */
static int load_program(struct task *t, const struct program_image *img)
{
	const struct program prog = { "refused", (const u8 *)img, (const u8 *)(img + 1) };
	u32 kstack = t->kstack;
	int err;

	memset(t, 0, sizeof(*t));
	t->kstack = kstack;
	t->kstack_size = KSTACK_PAGES * PAGE_SIZE;
	t->pgd = kernel_page_dir;
	err = exec_load(t, &prog, "");
	if (!err)
		mm_put(t->mm);	/* its page directory and pages */
	return err;
}

KTEST(exec_refuses_each_clause)
{
	static struct task t;
	struct program_image img;
	unsigned long before = pages_free_count();
	unsigned int i;

	t.kstack = pages_alloc(KSTACK_PAGES);
	if (!t.kstack)
		KT_SKIP("no room for a kernel stack");
	build_program(&img);
	KT_EXPECT_EQ(load_program(&t, &img), 0);
	for (i = 0; i < ARRAY_SIZE(bad_programs); i++) {
		int err;

		build_program(&img);
		bad_programs[i].spoil(&img);
		err = load_program(&t, &img);
		if (err != -EINVAL)
			printk("ktest:   %s: %d\n", bad_programs[i].what, err);
		KT_EXPECT_EQ(err, -EINVAL);
	}
	pages_free(t.kstack, KSTACK_PAGES);
	KT_EXPECT_EQ(pages_free_count(), before);
}
