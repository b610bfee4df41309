/*
 * multiboot.h - the Multiboot v1 information block the loader hands the
 * kernel in EBX: the fields pv386's loader fills and their flag bits.
 */
#ifndef PV386_LOADER_MULTIBOOT_H
#define PV386_LOADER_MULTIBOOT_H

#include "loader.h"

#define MB_INFO_MEMORY		(1 << 0)
#define MB_INFO_BOOTDEV		(1 << 1)
#define MB_INFO_CMDLINE		(1 << 2)
#define MB_INFO_MMAP		(1 << 6)
#define MB_INFO_LOADER_NAME	(1 << 9)

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
} __attribute__((packed));

/* One map entry; `size` does not count itself (always 20 here). */
struct multiboot_mmap_entry {
	u32 size;
	u64 addr, len;
	u32 type;
} __attribute__((packed));

#define MMAP_MAX_ENTRIES	32
#define MMAP_AVAILABLE		1

#endif
