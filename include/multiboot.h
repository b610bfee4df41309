/*
 * multiboot.h - the Multiboot v1 information block: what a loader hands
 * the kernel in EBX.  One definition for both sides: pv386's own loader
 * (boot/loader/) fills it, the kernel's parser (arch/x86/kernel/firmware/multiboot_parse.c)
 * reads it.  Plain <stdint.h> types, so the 16-bit loader, the kernel and
 * host programs can all include it.  Each group of fields is valid only
 * if its flag bit is set.
 */
#ifndef PV386_MULTIBOOT_H
#define PV386_MULTIBOOT_H

#include <stdint.h>

#define MB_INFO_MEMORY		(1 << 0)	/* mem_lower, mem_upper */
#define MB_INFO_BOOTDEV		(1 << 1)
#define MB_INFO_CMDLINE		(1 << 2)
#define MB_INFO_MODS		(1 << 3)
#define MB_INFO_MMAP		(1 << 6)
#define MB_INFO_LOADER_NAME	(1 << 9)

#define MB_MEMORY_AVAILABLE	1		/* a map entry's type for RAM */

struct multiboot_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper;	/* KiB */
	uint32_t boot_device;
	uint32_t cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
	uint32_t drives_length, drives_addr;
	uint32_t config_table;
	uint32_t boot_loader_name;
} __attribute__((packed));

struct multiboot_module {
	uint32_t start, end;
	uint32_t string;		/* its command line */
	uint32_t reserved;
} __attribute__((packed));

/* One map entry; `size` does not count itself (at least 20): the next
 * entry is at entry + size + 4. */
struct multiboot_mmap_entry {
	uint32_t size;
	uint64_t addr, len;
	uint32_t type;
} __attribute__((packed));

#endif
