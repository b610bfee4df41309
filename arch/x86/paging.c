/*
 * paging.c - turns on paging with an identity map (virtual = physical) of
 * RAM up to 256 MiB, in 4 KiB pages: the 386 has no large pages.
 *
 * Page 0 is left unmapped so that a NULL pointer dereference faults
 * instead of reading the real-mode interrupt table.  The page tables are
 * static, in .bss, so paging needs no memory allocator.
 */
#include <kernel.h>
#include <bootinfo.h>
#include <asm/cpu.h>
#include <asm/paging.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>

#define PT_ENTRIES	1024
#define NR_PAGE_TABLES	(PAGING_MAX_MAPPED / (PT_ENTRIES * PAGE_SIZE))

u32 kernel_page_dir[PT_ENTRIES] __attribute__((aligned(PAGE_SIZE)));
static u32 page_tables[NR_PAGE_TABLES][PT_ENTRIES] __attribute__((aligned(PAGE_SIZE)));
static u32 mapped_bytes;
extern char __kernel_end[];

u32 paging_mapped_bytes(void)
{
	return mapped_bytes;
}

static void map_identity(u32 bytes)
{
	u32 pages = bytes / PAGE_SIZE, i;

	for (i = 1; i < pages; i++)		/* i = 0: the NULL page stays out */
		page_tables[i / PT_ENTRIES][i % PT_ENTRIES] =
			(i * PAGE_SIZE) | PTE_PRESENT | PTE_WRITE;
	for (i = 0; i < (pages + PT_ENTRIES - 1) / PT_ENTRIES; i++)
		kernel_page_dir[i] = (u32)page_tables[i] | PTE_PRESENT | PTE_WRITE;
}

/* Let ring 3 use the pages of [start, end): both the page-directory
 * entry and the page-table entry must carry the user bit. */
void paging_set_user(u32 start, u32 end)
{
	u32 page;

	for (page = start & ~(PAGE_SIZE - 1); page < end; page += PAGE_SIZE) {
		u32 i = page / PAGE_SIZE;

		if (page == 0 || page >= mapped_bytes)
			panic("paging_set_user: %08x is not mapped", page);
		page_tables[i / PT_ENTRIES][i % PT_ENTRIES] |= PTE_USER;
		kernel_page_dir[i / PT_ENTRIES] |= PTE_USER;
	}
	write_cr3(read_cr3());		/* drop stale TLB entries */
}

void paging_init(void)
{
	unsigned long cr0;

	mapped_bytes = min(memory_top(), PAGING_MAX_MAPPED) & ~(PAGE_SIZE - 1);
	if (mapped_bytes < (u32)__kernel_end)
		panic("paging: %u KiB of RAM does not even hold the kernel",
		      mapped_bytes >> 10);
	map_identity(mapped_bytes);
	write_cr3((u32)kernel_page_dir);
	cr0 = read_cr0() | X86_CR0_PG;
	if (boot_cpu.family >= 4)	/* WP: the kernel obeys read-only pages */
		cr0 |= X86_CR0_WP;
	write_cr0(cr0);
	printk("paging: on, %u MiB mapped 1:1, page 0 unmapped\n", mapped_bytes >> 20);
}
