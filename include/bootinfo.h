/*
 * bootinfo.h - what pv386 keeps of the boot loader's information.
 *
 * The Multiboot info block lies somewhere in low memory that nothing
 * reserves, so arch/x86/kernel/multiboot.c has it parsed into boot_info
 * (arch/x86/kernel/firmware/multiboot_parse.c) early in kmain, before anything that
 * allocates or overwrites memory.
 */
#ifndef PV386_BOOTINFO_H
#define PV386_BOOTINFO_H

#include <types.h>

#define BOOT_MAX_REGIONS	32	/* memory map entries kept */
#define BOOT_MAX_MODULES	8
#define BOOT_MAX_RESERVED	(4 + 2 * BOOT_MAX_MODULES)

/* One "available RAM" range of the loader's memory map. */
struct mem_region {
	u64 start, end;		/* [start, end) in bytes */
};

/* A Multiboot module: a file the loader put in memory for us. */
struct boot_module {
	u32 start, end;		/* physical [start, end) */
	char name[32];		/* its command line's first word, path stripped */
};

struct boot_info {
	char cmdline[256];
	bool cmdline_truncated;	/* the loader's was longer */
	char loader[64];
	bool has_meminfo;	/* mem_lower/mem_upper valid */
	u32 mem_lower_kb;	/* conventional memory below 640 KiB */
	u32 mem_upper_kb;	/* contiguous memory from 1 MiB */
	bool has_mmap;
	unsigned int mmap_entries;
	u64 mmap_usable_bytes;	/* all "available" RAM, overlaps counted once */
	u64 mmap_top;		/* end of the highest region below 4 GiB */
	u64 ram_above_4g;	/* available bytes at or above 4 GiB: not in regions */
	unsigned int nr_regions;	/* RAM below 4 GiB: sorted, disjoint */
	struct mem_region regions[BOOT_MAX_REGIONS];
	unsigned int nr_modules;
	struct boot_module modules[BOOT_MAX_MODULES];
	/* What the loader left in RAM that the page allocator must not
	 * hand out: the info block, strings, map, module list, modules. */
	unsigned int nr_reserved;
	struct mem_region reserved[BOOT_MAX_RESERVED];
};

extern struct boot_info boot_info;

void multiboot_parse(const void *info);
void memory_print(void);
u32 memory_top(void);	/* end of the highest RAM region (below 4 GiB) */
/* A module with a Multiboot header is a kernel, not a program: a host
 * runs it as its guest (arch/x86/host/). */
bool module_is_kernel(const struct boot_module *m);

#endif
