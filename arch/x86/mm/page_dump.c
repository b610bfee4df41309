/*
 * page_dump.c - prints an address space as its page tables define it:
 * runs of pages with the same flags, merged into ranges, for the shell's
 * `vm` command.
 *
 *     00001000-07ffffff  P RW  S  32767 pages 1:1
 *     40000000-40001fff  P RO  U      2 pages
 *
 * A range is contiguous in virtual addresses and has one set of flags
 * (present, writable, user); "1:1" says every page of it maps the
 * physical page at its own address, as the kernel's RAM does.  pv386
 * keeps its page tables in RAM it maps 1:1 (the first GiB), so a table's
 * physical address from a directory entry is also where it can be read.
 */
#include <kernel.h>
#include <asm/paging.h>

#define PTE_FLAGS	(PTE_PRESENT | PTE_WRITE | PTE_USER)
#define PDE_LARGE	0x080	/* a 4 MiB page (pv386 makes none) */

struct range {
	u32 start, end;		/* virtual, end exclusive; start == end: none */
	u32 flags;
	bool identity;		/* every page maps its own address */
	unsigned int pages;
};

static void print_range(const struct range *r)
{
	if (r->start == r->end)
		return;
	printk("  %08x-%08x  P %s %s %6u page%s%s\n", r->start, r->end - 1,
	       r->flags & PTE_WRITE ? "RW" : "RO", r->flags & PTE_USER ? "U" : "S",
	       r->pages, r->pages == 1 ? "" : "s", r->identity ? " 1:1" : "");
}

/* Add a page (or a large page of span bytes) to r, or start a new range. */
static void add_page(struct range *r, u32 va, u32 entry, u32 span)
{
	u32 flags = entry & PTE_FLAGS;
	bool identity = (entry & PAGE_MASK) == va;

	if (r->start == r->end || r->end != va || r->flags != flags) {
		print_range(r);
		r->start = va;
		r->flags = flags;
		r->identity = true;
		r->pages = 0;
	}
	r->end = va + span;
	r->identity &= identity;
	r->pages += span / PAGE_SIZE;
}

static void dump_table(struct range *r, u32 base, const u32 *pt)
{
	unsigned int i;

	for (i = 0; i < PT_ENTRIES; i++)
		if (pt[i] & PTE_PRESENT)
			add_page(r, base + i * PAGE_SIZE, pt[i], PAGE_SIZE);
}

void page_table_dump(const u32 *pgd)
{
	struct range r = { 0 };
	unsigned int i;

	for (i = 0; i < PT_ENTRIES; i++) {
		u32 base = i * PGDIR_SPAN;

		if (!(pgd[i] & PTE_PRESENT))
			continue;
		if (pgd[i] & PDE_LARGE)
			add_page(&r, base, pgd[i], PGDIR_SPAN);
		else if ((pgd[i] & PAGE_MASK) < KERNEL_SPACE_END)
			dump_table(&r, base, (const u32 *)(pgd[i] & PAGE_MASK));
		else
			printk("  %08x: page table at %08x, beyond what pv386 maps\n",
			       base, pgd[i] & PAGE_MASK);
	}
	print_range(&r);
}
