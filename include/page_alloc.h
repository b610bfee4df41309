/*
 * page_alloc.h - the physical page allocator: 4 KiB frames of RAM.
 *
 * kernel/page_alloc.c builds it from the loader's memory map: only RAM
 * the map calls available, minus the first MiB, the kernel image and
 * everything the loader left there for us (bootinfo.h).  The kernel maps
 * RAM 1:1 (asm/paging.h), so a frame's physical address is also the
 * kernel's pointer to it.  Running out is an error the caller handles:
 * page_alloc() returns 0.
 */
#ifndef PV386_PAGE_ALLOC_H
#define PV386_PAGE_ALLOC_H

#include <types.h>
#include <spinlock.h>

void page_alloc_init(void);
u32 page_alloc(void);			/* a zeroed page, or 0 */
u32 pages_alloc(unsigned int n);	/* n contiguous zeroed pages, or 0 */
void page_free(u32 addr);
void pages_free(u32 addr, unsigned int n);
unsigned long pages_free_count(void);

/* Held while the allocator's bitmap and count change (page_alloc.c):
 * named here for the lock tests and the lock debugger's reports. */
extern spinlock_t page_lock;

#endif
