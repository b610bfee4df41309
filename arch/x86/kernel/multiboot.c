/*
 * multiboot.c - the kernel's side of the Multiboot v1 information: has
 * the loader's block parsed into boot_info, and reports it.
 *
 * The parsing itself (arch/x86/kernel/firmware/multiboot_parse.c) checks everything and
 * reads memory only through a struct mb_memory.  Here that is physical
 * memory as it is when kmain starts: paging is off, so an address is
 * the address of the byte.  What the parser had to ignore, cut or guess
 * waits in boot_notes until the console is up, and memory_print() says
 * it before the memory lines.  And whether a module the loader gave is
 * itself a Multiboot kernel (module_is_kernel): the guest a host runs,
 * never a user program.
 */
#include <kernel.h>
#include <bootinfo.h>
#include <multiboot_parse.h>
#include <string.h>
#include <asm/paging.h>

#define FOUR_GIB	0x100000000ull

struct boot_info boot_info;
static struct mb_notes boot_notes;

extern char __kernel_start[], __kernel_end[];

/* Paging is off: every address below 4 GiB reads something, and the
 * bytes are where the loader put them. */
static bool read_physical(const struct mb_memory *mem, u64 addr, void *dst, u32 n)
{
	(void)mem;
	if (addr + n > FOUR_GIB)
		return false;
	memcpy(dst, (const void *)(u32)addr, n);
	return true;
}

static const struct mb_memory physical_memory = { read_physical };

void multiboot_parse(const void *info)
{
	const struct mb_env env = {
		.mem = &physical_memory,
		.kernel_start = (u32)__kernel_start,
		.kernel_end = (u32)__kernel_end,
		.map_end = KERNEL_SPACE_END,
	};

	multiboot_parse_info(&env, (u32)info, &boot_info, &boot_notes);
}

/* The regions are sorted, and hold RAM from 1 MiB whatever the loader
 * said (the parser falls back to a guess): the last one ends it. */
u32 memory_top(void)
{
	u64 top = boot_info.regions[boot_info.nr_regions - 1].end;

	return top > 0xffffffffull ? 0xffffffff : (u32)top;
}

static void notes_print(void)
{
	unsigned int i;

	for (i = 0; i < boot_notes.nr; i++) {
		const struct mb_note *n = &boot_notes.note[i];

		printk(mb_note_format(n->kind), n->subject, (unsigned long long)n->a,
		       (unsigned long long)n->b, (unsigned long long)n->c);
		printk("\n");
	}
	if (boot_notes.dropped)
		printk("multiboot: %u more notes not shown\n", boot_notes.dropped);
}

void memory_print(void)
{
	notes_print();
	if (boot_info.has_meminfo)
		printk("mem: %u KiB low, %u KiB from 1 MiB\n",
		       boot_info.mem_lower_kb, boot_info.mem_upper_kb);
	else
		printk("mem: loader gave no memory size\n");
	if (boot_info.has_mmap)
		printk("mem: map of %u regions, %llu KiB available\n",
		       boot_info.mmap_entries, boot_info.mmap_usable_bytes >> 10);
}

/* ---- a module that is a Multiboot kernel ---- */

#define MULTIBOOT_HEADER_MAGIC	0x1BADB002u
#define MULTIBOOT_SEARCH	8192	/* the header lies in the first 8 KiB */

/* Whether image[0..size) has a Multiboot header: magic, flags and a
 * checksum that sum to 0, 4-aligned in the first 8 KiB. */
static bool has_multiboot_header(const u8 *image, u32 size)
{
	u32 off, limit = min(size, MULTIBOOT_SEARCH);

	for (off = 0; off + 12 <= limit; off += 4) {
		const u32 *h = (const u32 *)(image + off);

		if (h[0] == MULTIBOOT_HEADER_MAGIC && h[0] + h[1] + h[2] == 0)
			return true;
	}
	return false;
}

bool module_is_kernel(const struct boot_module *m)
{
	return has_multiboot_header((const u8 *)m->start, m->end - m->start);
}
