/*
 * asm/paging.h - the kernel's page tables: a 1:1 map of low memory.
 */
#ifndef ASM_PAGING_H
#define ASM_PAGING_H

#include <types.h>

#define PAGE_SIZE	4096
#define PTE_PRESENT	0x001
#define PTE_WRITE	0x002
#define PTE_USER	0x004

#define PAGING_MAX_MAPPED	(256u << 20)	/* static tables cover this much */

void paging_init(void);
u32 paging_mapped_bytes(void);
void paging_set_user(u32 start, u32 end);
extern u32 kernel_page_dir[1024];

#endif
