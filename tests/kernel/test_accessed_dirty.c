/*
 * test_accessed_dirty.c - the accessed and dirty bits of a page's
 * entries: a read sets accessed in its directory and table entries, a
 * write sets dirty in its table entry, and nothing else does.
 *
 * This is the CPU's page walk natively; in a guest the CPU walks the
 * host's shadow tables, and the host's fill sets the bits in the guest's
 * own entries (arch/x86/host/page_tables.c), dirty only at the first
 * write, which is why a shadow maps a clean page read-only.  So the same
 * test runs both ways.  The entries change through set_pte_at() and
 * set_pde() (the rule of asm/paging.h), then the TLB is flushed so that
 * the next access walks the tables again.
 */
#include <ktest.h>
#include <page_alloc.h>
#include <asm/paging.h>
#include <asm/privileged.h>

#define PTE_ACCESSED	0x020
#define PTE_DIRTY	0x040

/* The kernel's table entry for va, in its 1:1 map. */
static u32 *kernel_pte(u32 va)
{
	u32 table = kernel_page_dir[va / PGDIR_SPAN] & PAGE_MASK;

	return &((u32 *)table)[va / PAGE_SIZE % PT_ENTRIES];
}

KTEST(page_access_sets_accessed_then_dirty)
{
	u32 va = page_alloc(), *pde, *pte;
	volatile u32 *word = (volatile u32 *)va;

	if (!va)
		KT_SKIP("no free page");
	pde = &kernel_page_dir[va / PGDIR_SPAN];
	pte = kernel_pte(va);
	set_pde(pde, *pde & ~PTE_ACCESSED);
	set_pte_at(pte, *pte & ~(PTE_ACCESSED | PTE_DIRTY), va);
	flush_tlb();
	KT_EXPECT(!(*pte & (PTE_ACCESSED | PTE_DIRTY)));

	(void)*word;				/* a read */
	KT_EXPECT(*pde & PTE_ACCESSED);
	KT_EXPECT(*pte & PTE_ACCESSED);
	KT_EXPECT(!(*pte & PTE_DIRTY));

	*word = 0x5a5a5a5a;			/* its first write */
	KT_EXPECT(*pte & PTE_DIRTY);
	KT_EXPECT_EQ(*word, 0x5a5a5a5a);

	/* Clean again, announced: the next write is seen too. */
	set_pte_at(pte, *pte & ~PTE_DIRTY, va);
	flush_tlb();
	KT_EXPECT_EQ(*word, 0x5a5a5a5a);
	KT_EXPECT(!(*pte & PTE_DIRTY));
	*word = 0;
	KT_EXPECT(*pte & PTE_DIRTY);
	page_free(va);
}
