/*
 * memory.c - a guest's physical memory: one contiguous run of host
 * frames, which the guest sees as RAM from address 0; and the frames its
 * shadow page tables take from the host, counted against a quota.
 *
 * Contiguous, so that translating a guest-physical address is one
 * addition and one bounds check, the check every access the host makes
 * on the guest's behalf goes through (guest_memory_ptr).  A guest can
 * name any address it likes; only this function turns one into memory.
 */
#include <kernel.h>
#include <page_alloc.h>
#include <asm/paging.h>
#include "host.h"

#define PAGES_PER_MIB	(0x100000u / PAGE_SIZE)

/*
 * The quota of host frames one guest's shadows may hold (struct
 * guest_memory).  Each kept shadow may have its directory and the
 * Switcher's table, page tables enough to map all the guest's memory
 * twice (its kernel's map of it and its programs' view), and
 * SHADOW_SPARSE_TABLES more for mappings strewn wide (a program's stack
 * at the top of its space).  A 16 MiB guest: 104 frames, 416 KiB; a
 * pv386 guest running its whole suite holds a fraction of that.
 * Without it a guest could make the host fill SHADOWS_KEPT directories
 * of 1023 tables each: 16 MiB of the host's, whatever its own size.
 */
#define SHADOW_SPARSE_TABLES	16

static unsigned long shadow_quota(u32 size)
{
	return SHADOWS_KEPT * (2 + 2 * (size / PGDIR_SPAN) + SHADOW_SPARSE_TABLES);
}

/*
 * Every frame a shadow holds comes from here and goes back here, counted
 * in its guest's memory against the quota (shadow_quota() above): 0 when
 * the quota is met or the host has none left.  Which of the two is noted
 * here, at the refusal, for guest_stop_no_frame: the counts it would
 * compare later may have moved (page_tables.c's shadow_init hands back
 * the directory it got when the Switcher's table is refused).  A zeroed
 * frame: nothing in it is present yet.  The shared tables' frames too
 * (shadow_share.c).
 *
 * A few frames given back stay the guest's, zeroed, as spares for the
 * next (KVM tops up caches of shadow pages the same way): a guest that
 * runs more address spaces than there are kept shadows rebuilds one at
 * every switch, and page_alloc's zeroing, a byte at a time, cost four
 * times clear_frame()'s words.  Spares count as held: the quota is
 * asked only when there is none.
 */
static void clear_frame(u32 frame)
{
	u32 *word = (u32 *)frame;
	unsigned int i;

	for (i = 0; i < PT_ENTRIES; i += 8) {	/* 8 at a time: a third of the loop's cost */
		word[i] = word[i + 1] = word[i + 2] = word[i + 3] = 0;
		word[i + 4] = word[i + 5] = word[i + 6] = word[i + 7] = 0;
	}
}

u32 shadow_frame_alloc(struct guest_memory *m)
{
	u32 frame;

	if (m->spares) {
		m->quota_refused = false;
		return m->spare[--m->spares];
	}
	m->quota_refused = m->shadow_frames >= m->shadow_quota;
	if (m->quota_refused)
		return 0;
	frame = page_alloc();
	if (!frame)
		return 0;
	if (++m->shadow_frames > m->shadow_peak)
		m->shadow_peak = m->shadow_frames;
	return frame;
}

void shadow_frame_to_host(struct guest_memory *m, u32 frame)
{
	page_free(frame);
	m->shadow_frames--;
}

void shadow_frame_free(struct guest_memory *m, u32 frame)
{
	if (!m->no_spares && m->spares < SHADOW_SPARES) {
		clear_frame(frame);
		m->spare[m->spares++] = frame;
	} else {
		shadow_frame_to_host(m, frame);
	}
}

void shadow_spares_free(struct guest_memory *m)
{
	while (m->spares)
		shadow_frame_to_host(m, m->spare[--m->spares]);
}

/*
 * mib MiB of zeroed frames for m: 0, -EINVAL (a size no guest can have)
 * or -ENOMEM.  On a refusal m is empty, never left as it was: a caller
 * that frees it on its way out then frees nothing (guest_memory_free),
 * rather than whatever its stack held.
 */
int guest_memory_alloc(struct guest_memory *m, unsigned int mib)
{
	u32 base;

	*m = (struct guest_memory){ .base = 0 };
	if (mib < GUESTMEM_MIN_MIB || mib > KERNEL_SPACE_END / 0x100000u)
		return -EINVAL;
	base = pages_alloc(mib * PAGES_PER_MIB);
	if (!base)
		return -ENOMEM;
	m->base = base;
	m->size = mib * 0x100000u;
	m->shadow_quota = shadow_quota(m->size);
	return 0;
}

/* m's frames back to the host (none if it is empty), and m empty; its
 * shadows' frames went first (shadow_cache_free, shadow_free), but for
 * the spares, which go here.  The most they held stays, for `guest
 * stats`. */
void guest_memory_free(struct guest_memory *m)
{
	shadow_spares_free(m);
	if (m->size)
		pages_free(m->base, m->size / PAGE_SIZE);
	m->base = 0;
	m->size = 0;
}

/* The host's pointer to guest-physical [gpa, gpa + len), or NULL unless
 * all of it is guest memory (written so that no sum can wrap). */
void *guest_memory_ptr(const struct guest_memory *m, u32 gpa, u32 len)
{
	if (gpa > m->size || len > m->size - gpa)
		return NULL;
	return (void *)(m->base + gpa);
}
