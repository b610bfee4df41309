/*
 * fake_switcher.c - the one function of the Switcher's (switcher.c)
 * that page_tables.c calls, for the native shadow tests: it writes
 * the table it is given and the directory entry, as the real one does,
 * so that a table already freed is caught being written.
 */
#include <asm/paging.h>
#include <asm/switcher.h>

#define SWITCHER_PDE	(SWITCHER_ADDR / PGDIR_SPAN)

void switcher_map_in_guest(u32 *guest_pgd, u32 table)
{
	unsigned int i;

	for (i = 0; i < SWITCHER_CODE_PAGES + 2; i++)	/* code, regs, state */
		((u32 *)table)[i] = (0x00200000u + i * PAGE_SIZE) | PTE_PRESENT;
	guest_pgd[SWITCHER_PDE] = table | PTE_PRESENT | PTE_WRITE;
}
