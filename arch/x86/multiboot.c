/*
 * multiboot.c - reads the Multiboot v1 information block.
 *
 * Each group of fields is valid only if its bit in `flags` is set, so
 * every use checks the bit first.  The memory map's entries each start
 * with a size that does not count the size field itself: the next entry
 * is at entry + size + 4.
 */
#include <kernel.h>
#include <bootinfo.h>
#include <string.h>

#define MB_INFO_MEMORY		(1 << 0)
#define MB_INFO_CMDLINE		(1 << 2)
#define MB_INFO_MMAP		(1 << 6)
#define MB_INFO_LOADER_NAME	(1 << 9)

#define MB_MEMORY_AVAILABLE	1

struct multiboot_info {
	u32 flags;
	u32 mem_lower, mem_upper;	/* KiB */
	u32 boot_device;
	u32 cmdline;
	u32 mods_count, mods_addr;
	u32 syms[4];
	u32 mmap_length, mmap_addr;
	u32 drives_length, drives_addr;
	u32 config_table;
	u32 boot_loader_name;
} __packed;

struct multiboot_mmap_entry {
	u32 size;
	u64 addr, len;
	u32 type;
} __packed;

struct boot_info boot_info;

static void parse_mmap(const struct multiboot_info *mbi)
{
	u32 p = mbi->mmap_addr, end = mbi->mmap_addr + mbi->mmap_length;

	boot_info.has_mmap = true;
	while (p + sizeof(struct multiboot_mmap_entry) <= end) {
		const struct multiboot_mmap_entry *e = (const void *)p;

		/* A size too small, or so large that p wraps, is a broken
		 * map: stop rather than loop or read garbage. */
		if (e->size < sizeof(*e) - 4 || p + e->size + 4 < p)
			break;

		boot_info.mmap_entries++;
		if (e->type == MB_MEMORY_AVAILABLE) {
			boot_info.mmap_usable_bytes += e->len;
			if (e->addr + e->len > boot_info.mmap_top)
				boot_info.mmap_top = e->addr + e->len;
		}
		p += e->size + 4;
	}
}

void multiboot_parse(const void *info)
{
	const struct multiboot_info *mbi = info;

	if (mbi->flags & MB_INFO_CMDLINE)
		boot_info.cmdline_truncated =
			strlcpy(boot_info.cmdline, (const char *)mbi->cmdline,
				sizeof(boot_info.cmdline)) >= sizeof(boot_info.cmdline);
	if (mbi->flags & MB_INFO_LOADER_NAME)
		strlcpy(boot_info.loader, (const char *)mbi->boot_loader_name,
			sizeof(boot_info.loader));
	else
		strlcpy(boot_info.loader, "unknown loader", sizeof(boot_info.loader));
	if (mbi->flags & MB_INFO_MEMORY) {
		boot_info.has_meminfo = true;
		boot_info.mem_lower_kb = mbi->mem_lower;
		boot_info.mem_upper_kb = mbi->mem_upper;
	}
	if (mbi->flags & MB_INFO_MMAP)
		parse_mmap(mbi);
}

u32 memory_top(void)
{
	if (boot_info.has_mmap && boot_info.mmap_top)
		return boot_info.mmap_top > 0xffffffffull ? 0xffffffff :
		       (u32)boot_info.mmap_top;
	if (boot_info.has_meminfo)
		return 0x100000 + boot_info.mem_upper_kb * 1024;
	return 16 << 20;	/* nothing known: assume a modest 16 MiB */
}

void memory_print(void)
{
	if (boot_info.cmdline_truncated)
		printk("cmdline: longer than %u bytes, truncated\n",
		       (unsigned int)sizeof(boot_info.cmdline) - 1);
	if (boot_info.has_meminfo)
		printk("mem: %u KiB low, %u KiB from 1 MiB\n",
		       boot_info.mem_lower_kb, boot_info.mem_upper_kb);
	else
		printk("mem: loader gave no memory size\n");
	if (boot_info.has_mmap)
		printk("mem: map of %u regions, %llu KiB available\n",
		       boot_info.mmap_entries, boot_info.mmap_usable_bytes >> 10);
}
