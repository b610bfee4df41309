/*
 * asm/host.h - pv386 as a host: running a second pv386, the guest, at
 * ring 1 (arch/x86/host/, in the spirit of lguest).
 *
 * Built in steps (issue 15; docs/guest.md).  This header has the
 * guest's memory (one contiguous run of host frames that the guest sees
 * as its physical memory from address 0), the loader that puts a guest
 * kernel (the same pv386 build, a Multiboot module) into it with a
 * Multiboot block, so the guest boots through the code every pv386
 * boots through, and the shadow page tables the CPU runs the guest on.
 * The world switch is asm/switcher.h; the checks of what a guest hands
 * the host are asm/host_check.h.
 *
 * Guest-physical addresses (gpa) are offsets into guest memory; the host
 * reaches them only through guest_memory_ptr(), which refuses any range
 * that is not wholly inside.
 */
#ifndef ASM_HOST_H
#define ASM_HOST_H

#include <types.h>
#include <bootinfo.h>

#define GUESTMEM_DEFAULT_MIB	16	/* guestmem= */
#define GUESTMEM_MIN_MIB	4	/* the kernel, its page tables and a task */

/* Where the loader puts the guest's Multiboot block: below 1 MiB, where
 * the guest's page allocator never hands out frames. */
#define GUEST_BOOT_INFO		0x8000u
#define GUEST_KERNEL_MIN	0x100000u	/* segments start at 1 MiB or above */

struct guest_memory {
	u32 base;		/* host-physical = host pointer (RAM is 1:1) */
	u32 size;		/* bytes; guest-physical [0, size) */
};

int guest_memory_alloc(struct guest_memory *m, unsigned int mib);
void guest_memory_free(struct guest_memory *m);
void *guest_memory_ptr(const struct guest_memory *m, u32 gpa, u32 len);

/* A module is a kernel if it has a Multiboot header: the guest's image. */
bool module_is_kernel(const struct boot_module *m);
const struct boot_module *guest_kernel_module(void);	/* or NULL */

/* The guest kernel image[0..size) into m; its entry point in *entry. */
int guest_load_kernel(struct guest_memory *m, const void *image, u32 size, u32 *entry);
/* The Multiboot block for the guest at GUEST_BOOT_INFO: its RAM and cmdline. */
int guest_write_boot_info(struct guest_memory *m, const char *cmdline);

/* Shadow page tables (arch/x86/host/page_tables.c). */
struct shadow {
	u32 *pgd;			/* what the CPU uses: the host's frames */
	const struct guest_memory *mem;
	u32 guest_cr3;			/* the guest's page directory (gpa) */
	unsigned long fills;		/* entries filled on demand */
};

enum shadow_result {
	SHADOW_FILLED,			/* run the guest again */
	SHADOW_GUEST_FAULT,		/* the guest's tables refuse: its fault */
	SHADOW_BAD_TABLE,		/* they point outside guest memory */
	SHADOW_NO_MEMORY,		/* the host is out of frames */
};

int shadow_init(struct shadow *sh, const struct guest_memory *m, u32 guest_cr3);
void shadow_drop(struct shadow *sh);
void shadow_free(struct shadow *sh);
enum shadow_result shadow_fault(struct shadow *sh, u32 va, u32 error_code);

#endif
