/*
 * bootinfo.h - what pv386 keeps of the boot loader's information.
 *
 * The Multiboot info block lies somewhere in low memory that nothing
 * reserves, so arch/x86/multiboot.c copies what matters into boot_info
 * early in kmain, before anything that allocates or overwrites memory.
 */
#ifndef PV386_BOOTINFO_H
#define PV386_BOOTINFO_H

#include <types.h>

struct boot_info {
	char cmdline[256];
	bool cmdline_truncated;	/* the loader's was longer */
	char loader[64];
	bool has_meminfo;	/* mem_lower/mem_upper valid */
	u32 mem_lower_kb;	/* conventional memory below 640 KiB */
	u32 mem_upper_kb;	/* contiguous memory from 1 MiB */
	bool has_mmap;
	unsigned int mmap_entries;
	u64 mmap_usable_bytes;	/* sum of "available" regions */
	u64 mmap_top;		/* end of the highest available region */
};

extern struct boot_info boot_info;

void multiboot_parse(const void *info);
void memory_print(void);
u32 memory_top(void);	/* end of usable RAM below 4 GiB, best known */

#endif
