/*
 * asm/paging.h - the x86 two-level page tables and pv386's address
 * space layout.
 *
 *   0 .. KERNEL_SPACE_END         the kernel: RAM mapped 1:1, supervisor
 *                                 only (page 0 left out to catch NULL);
 *                                 the same page tables in every address
 *                                 space
 *   USER_BASE .. USER_END         a task's own pages, user-accessible
 *   KERNEL_MMIO_BASE, 4 MiB       memory-mapped registers (the local
 *                                 APIC's page), uncached, supervisor
 *                                 only; its one table shared by every
 *                                 address space like the kernel's
 *
 * Kernel text and read-only data are mapped read-only once the patcher
 * is done; kernel_text_poke() is the one way to write code after that.
 *
 * Tables in use: from the first time a page directory is loaded into
 * %cr3, its entries and those of its tables change only through
 * set_pte_at() and set_pde() (asm/privileged.h), and release_pgd() lets
 * it go before its page is freed.  Natively these are plain stores; a
 * host running this kernel as its guest keeps shadows of the tables
 * and must hear of each change (docs/guest.md).  A directory being
 * built, that no %cr3 has held yet, is plain memory.
 */
#ifndef ASM_PAGING_H
#define ASM_PAGING_H

#include <types.h>

#define PAGE_SIZE	4096
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#define PTE_PRESENT	0x001
#define PTE_WRITE	0x002
#define PTE_USER	0x004
#define PTE_PWT		0x008	/* write-through */
#define PTE_PCD		0x010	/* cache disabled: with PWT, uncached */

#define PT_ENTRIES	1024
#define PGDIR_SPAN	(PT_ENTRIES * PAGE_SIZE)	/* 4 MiB per directory entry */

#define KERNEL_SPACE_END	0x40000000u	/* RAM the kernel can map: 1 GiB */
#define USER_BASE		KERNEL_SPACE_END
#define USER_END		0xc0000000u
#define KERNEL_MMIO_BASE	0xfec00000u	/* where the PC's APICs are */
#define KERNEL_MMIO_PDE		(KERNEL_MMIO_BASE / PGDIR_SPAN)

/* Page-fault error code bits. */
#define PF_PROT		0x1	/* a protection violation (else: not present) */
#define PF_WRITE	0x2
#define PF_USER		0x4

void paging_init(void);
struct trampoline_block;
/* Paging on for an AP, as the boot CPU has it (from trampoline.S). */
void paging_start_ap(const struct trampoline_block *b);
void paging_set_user(u32 start, u32 end);
bool kernel_text_contains(u32 addr);	/* mapped read-only */

/*
 * Whether ring 0 obeys read-only pages here: CR0.WP set and a write
 * seen to fault (paging_init's probe).  Not on a 386, nor where an
 * emulator ignores the bit: there system calls check a user page in
 * software before they write it, and no guest is hosted (its kernel,
 * supervisor to the MMU, would write the Switcher's pages).
 */
extern bool write_protect_obeyed;
static inline bool write_protect_holds(void)
{
	return write_protect_obeyed;
}

void kernel_text_poke(void *addr, const void *bytes, unsigned int len);
/* Around many pokes, interrupts off: the text writable once for all. */
void kernel_text_batch_begin(void);
void kernel_text_batch_end(void);
void flush_tlb(void);
/* Map the register page at phys to va (in the KERNEL_MMIO_BASE 4 MiB),
 * uncached, for the kernel only: once paging is on. */
void kernel_map_mmio(u32 va, u32 phys);
extern u32 kernel_page_dir[PT_ENTRIES];

/* Address spaces of user tasks (arch/x86/mm/address_space.c). */
u32 *pgd_alloc(void);				/* NULL when out of memory */
void pgd_free(u32 *pgd);
int map_user_page(u32 *pgd, u32 va, bool writable);	/* 0 or -ENOMEM */
u32 user_page_frame(const u32 *pgd, u32 va);	/* its frame, or 0 */
bool user_page_writable(const u32 *pgd, u32 va);
/* Clear up to max entries of [*start, end), frames to the caller, who
 * frees them once no TLB holds them (address_space.c says why). */
unsigned int unmap_user_pages(u32 *pgd, u32 *start, u32 end, u32 *frames,
			      unsigned int max, u32 *first_va);

/* Print the mappings of a page directory as ranges (page_dump.c). */
void page_table_dump(const u32 *pgd);

#endif
