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
#define MB_INFO_MODS		(1 << 3)
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

struct multiboot_module {
	u32 start, end;
	u32 string;		/* its command line */
	u32 reserved;
} __packed;

struct multiboot_mmap_entry {
	u32 size;
	u64 addr, len;
	u32 type;
} __packed;

struct boot_info boot_info;

/* Remember [start, end) as taken by the loader's data. */
static void reserve(u32 start, u32 end)
{
	struct mem_region *r;

	if (boot_info.nr_reserved == BOOT_MAX_RESERVED || end <= start)
		return;
	r = &boot_info.reserved[boot_info.nr_reserved++];
	r->start = start;
	r->end = end;
}

static void reserve_string(u32 s)
{
	reserve(s, s + strlen((const char *)s) + 1);
}

static void keep_region(u64 start, u64 len)
{
	struct mem_region *r;

	if (boot_info.nr_regions == BOOT_MAX_REGIONS)
		return;		/* more than a PC has: the rest is not used */
	r = &boot_info.regions[boot_info.nr_regions++];
	r->start = start;
	r->end = start + len;
}

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
			keep_region(e->addr, e->len);
		}
		p += e->size + 4;
	}
}

/* No memory map: the two classic ranges, or 16 MiB if nothing is known
 * (memory_top() makes the same guess). */
static void guess_regions(void)
{
	if (boot_info.has_meminfo) {
		keep_region(0, boot_info.mem_lower_kb * 1024ull);
		keep_region(0x100000, boot_info.mem_upper_kb * 1024ull);
	} else {
		keep_region(0x100000, (16 << 20) - 0x100000);
	}
}

/* A module's name is the first word of its string, without the path:
 * QEMU's -initrd "build/user/hello.elf" gives "hello.elf". */
static void module_name(char *name, size_t size, const char *string)
{
	const char *start = string, *p;
	size_t len;

	for (p = string; *p && *p != ' '; p++)
		if (*p == '/')
			start = p + 1;
	len = min((size_t)(p - start), size - 1);
	memcpy(name, start, len);
	name[len] = '\0';
}

static void parse_modules(const struct multiboot_info *mbi)
{
	const struct multiboot_module *m = (const void *)mbi->mods_addr;
	u32 i;

	reserve(mbi->mods_addr, mbi->mods_addr + mbi->mods_count * sizeof(*m));
	for (i = 0; i < mbi->mods_count && i < BOOT_MAX_MODULES; i++, m++) {
		struct boot_module *b = &boot_info.modules[boot_info.nr_modules++];

		b->start = m->start;
		b->end = m->end;
		if (m->string)
			module_name(b->name, sizeof(b->name), (const char *)m->string);
		reserve(m->start, m->end);
		if (m->string)
			reserve_string(m->string);
	}
}

void multiboot_parse(const void *info)
{
	const struct multiboot_info *mbi = info;

	reserve((u32)mbi, (u32)mbi + sizeof(*mbi));
	if (mbi->flags & MB_INFO_CMDLINE)
		reserve_string(mbi->cmdline);
	if (mbi->flags & MB_INFO_MMAP)
		reserve(mbi->mmap_addr, mbi->mmap_addr + mbi->mmap_length);
	if (mbi->flags & MB_INFO_MODS)
		parse_modules(mbi);

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
	if (!boot_info.nr_regions)
		guess_regions();
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
