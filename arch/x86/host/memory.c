/*
 * memory.c - a guest's physical memory: one contiguous run of host
 * frames, which the guest sees as RAM from address 0.
 *
 * Contiguous, so that translating a guest-physical address is one
 * addition and one bounds check, the check every access the host makes
 * on the guest's behalf goes through (guest_memory_ptr).  A guest can
 * name any address it likes; only this function turns one into memory.
 */
#include <kernel.h>
#include <page_alloc.h>
#include <asm/host.h>
#include <asm/paging.h>

#define PAGES_PER_MIB	(0x100000u / PAGE_SIZE)

/*
 * mib MiB of zeroed frames for m: 0, -EINVAL (a size no guest can have)
 * or -ENOMEM.  On a refusal m is empty, never left as it was: a caller
 * that frees it on its way out then frees nothing (guest_memory_free),
 * rather than whatever its stack held.
 */
int guest_memory_alloc(struct guest_memory *m, unsigned int mib)
{
	u32 base;

	*m = (struct guest_memory){ 0, 0 };
	if (mib < GUESTMEM_MIN_MIB || mib > KERNEL_SPACE_END / 0x100000u)
		return -EINVAL;
	base = pages_alloc(mib * PAGES_PER_MIB);
	if (!base)
		return -ENOMEM;
	*m = (struct guest_memory){ base, mib * 0x100000u };
	return 0;
}

/* m's frames back to the host (none if it is empty), and m empty. */
void guest_memory_free(struct guest_memory *m)
{
	if (m->size)
		pages_free(m->base, m->size / PAGE_SIZE);
	*m = (struct guest_memory){ 0, 0 };
}

/* The host's pointer to guest-physical [gpa, gpa + len), or NULL unless
 * all of it is guest memory (written so that no sum can wrap). */
void *guest_memory_ptr(const struct guest_memory *m, u32 gpa, u32 len)
{
	if (gpa > m->size || len > m->size - gpa)
		return NULL;
	return (void *)(m->base + gpa);
}
