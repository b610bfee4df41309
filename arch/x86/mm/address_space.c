/*
 * address_space.c - address spaces for user tasks.
 *
 * Each task has its own page directory.  Its first KERNEL_SPACE_END /
 * 4 MiB entries are copies of the kernel's: they point at the kernel's
 * page tables, which never change after boot, so the kernel is mapped
 * the same in every address space and a switch of %cr3 leaves it in
 * place (and so is the one entry above user space for device registers,
 * KERNEL_MMIO_BASE).  The rest map the task's own pages, with the user bit; the
 * kernel's entries have none, so ring 3 cannot touch kernel memory.
 */
#include <kernel.h>
#include <page_alloc.h>
#include <string.h>
#include <asm/paging.h>
#include <asm/privileged.h>

#define KERNEL_PDES	(KERNEL_SPACE_END / PGDIR_SPAN)
#define USER_PDE_FIRST	(USER_BASE / PGDIR_SPAN)
#define USER_PDE_END	(USER_END / PGDIR_SPAN)

static u32 *table_of(u32 pde)
{
	return (u32 *)(pde & PAGE_MASK);
}

/* Its kernel half copied by plain stores: no %cr3 has held it yet.
 * The kernel's entry for device registers too (the local APIC's page,
 * above user space): an interrupt in any task reaches the APIC. */
u32 *pgd_alloc(void)
{
	u32 *pgd = (u32 *)page_alloc();

	if (pgd) {
		memcpy(pgd, kernel_page_dir, KERNEL_PDES * sizeof(u32));
		pgd[KERNEL_MMIO_PDE] = kernel_page_dir[KERNEL_MMIO_PDE];
	}
	return pgd;
}

/* Frees every user page, the page tables and the directory itself. */
void pgd_free(u32 *pgd)
{
	u32 d, i;

	release_pgd(pgd);
	for (d = USER_PDE_FIRST; d < USER_PDE_END; d++) {
		u32 *table = table_of(pgd[d]);

		if (!(pgd[d] & PTE_PRESENT))
			continue;
		for (i = 0; i < PT_ENTRIES; i++)
			if (table[i] & PTE_PRESENT)
				page_free(table[i] & PAGE_MASK);
		page_free((u32)table);
	}
	page_free((u32)pgd);
}

/* The page-table entry for user address va, creating its page table if
 * create; NULL if there is none (or no memory for one). */
static u32 *user_pte(u32 *pgd, u32 va, bool create)
{
	u32 *pde = &pgd[va / PGDIR_SPAN];

	if (!(*pde & PTE_PRESENT)) {
		u32 table = create ? page_alloc() : 0;

		if (!table)
			return NULL;
		set_pde(pde, table | PTE_PRESENT | PTE_WRITE | PTE_USER);
	}
	return &table_of(*pde)[(va / PAGE_SIZE) % PT_ENTRIES];
}

/* Give the page at va a fresh zeroed frame (if it has none yet). */
int map_user_page(u32 *pgd, u32 va, bool writable)
{
	u32 *pte, frame;

	if (va < USER_BASE || va >= USER_END)
		return -EFAULT;
	pte = user_pte(pgd, va, true);
	if (!pte)
		return -ENOMEM;
	if (*pte & PTE_PRESENT)
		return 0;
	frame = page_alloc();
	if (!frame)
		return -ENOMEM;
	set_pte_at(pte, frame | PTE_PRESENT | PTE_USER | (writable ? PTE_WRITE : 0), va);
	return 0;
}

/*
 * Take up to max pages of [*start, end) away: their entries cleared,
 * their frames handed to the caller in frames[] (the count returned),
 * *start moved past what was looked at, *first_va the first page taken.
 * The frames are NOT freed here: every TLB that may still hold an entry
 * for them - this CPU's and, in a space threads share, other CPUs' - must
 * be flushed first (asm/tlbflush.h), or a thread could go on using a
 * frame that already belongs to someone else.  The caller flushes, then
 * frees (sys_brk).
 */
unsigned int unmap_user_pages(u32 *pgd, u32 *start, u32 end, u32 *frames,
			      unsigned int max, u32 *first_va)
{
	unsigned int n = 0;
	u32 va;

	for (va = *start & PAGE_MASK; va < end && va < USER_END && n < max; va += PAGE_SIZE) {
		u32 *pte = va >= USER_BASE ? user_pte(pgd, va, false) : NULL;

		if (!pte || !(*pte & PTE_PRESENT))
			continue;
		if (!n)
			*first_va = va;
		frames[n++] = *pte & PAGE_MASK;
		set_pte_at(pte, 0, va);
	}
	*start = va < end && va < USER_END ? va : end;
	return n;
}

/* May user code write the page at va (mapped, with the write bit)? */
bool user_page_writable(const u32 *pgd, u32 va)
{
	u32 *pte;

	if (va < USER_BASE || va >= USER_END)
		return false;
	pte = user_pte((u32 *)pgd, va, false);
	return pte && (*pte & (PTE_PRESENT | PTE_WRITE)) == (PTE_PRESENT | PTE_WRITE);
}

u32 user_page_frame(const u32 *pgd, u32 va)
{
	u32 *pte;

	if (va < USER_BASE || va >= USER_END)
		return 0;
	pte = user_pte((u32 *)pgd, va, false);
	return pte && (*pte & PTE_PRESENT) ? *pte & PAGE_MASK : 0;
}
