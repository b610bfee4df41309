/*
 * modules.c - loads the Multiboot modules tools/mkbootimg put on the disk
 * after the kernel (the ops ROM, build/pvrom.bin, for pv=rom), each on
 * the next page above the kernel and the modules before it, and lists
 * them in the Multiboot info as GRUB's `module` would: start, end, and
 * a string, the file's name.  The kernel is already in place, so its
 * staging area above it is free to be overwritten.
 */
#include "loader.h"
#include <multiboot.h>

static struct multiboot_module mods[HEADER_MAX_MODULES];
static char names[HEADER_MAX_MODULES][HEADER_MODULE_NAME];

static u32 page_up(u32 addr)
{
	return (addr + 4095) & ~4095u;
}

/* Module i of the header, read to at; returns where the next may go. */
static u32 module_load(u32 i, u32 at, u32 memory_end)
{
	unsigned int field = HEADER_OFF_MODULES + i * HEADER_MODULE_SIZE;
	u32 lba = header_u32(field), bytes = header_u32(field + 4);
	u32 sectors = (bytes + 511) / 512;

	if (sectors > disk_sectors() || lba > disk_sectors() - sectors)
		die("module %u is too large: %u sectors from sector %u, the disk has %u",
		    i, sectors, lba, disk_sectors());
	if (at + sectors * 512 < at || at + sectors * 512 > memory_end)
		die("not enough memory for module %u (%u bytes at %x)", i, bytes, at);
	memcpy(names[i], (const u8 *)HEADER_ADDR + field + 8, HEADER_MODULE_NAME - 1);
	disk_read(lba, sectors, at);
	mods[i].start = at;
	mods[i].end = at + bytes;
	mods[i].string = (u32)names[i];
	print("module: %s, %u bytes from sector %u, at %x\n", names[i], bytes, lba, at);
	return page_up(at + bytes);
}

void modules_load(struct multiboot_info *mbi, u32 above, u32 memory_end)
{
	u32 n = header_u32(HEADER_OFF_NR_MODULES), i, at = page_up(above);

	if (!n)
		return;
	if (n > HEADER_MAX_MODULES)
		die("the kernel header lists %u modules, at most %u", n, HEADER_MAX_MODULES);
	for (i = 0; i < n; i++)
		at = module_load(i, at, memory_end);
	mbi->flags |= MB_INFO_MODS;
	mbi->mods_count = n;
	mbi->mods_addr = (u32)mods;
}
