/*
 * shadow_cache.c - a few shadow page tables kept, one per guest page
 * directory, so that a guest's context switch costs one hypercall and
 * not a rebuilt address space.
 *
 * A shadow (page_tables.c) is built fault by fault: dropping it at every
 * cr3 load made each switch pay again for every page the next task and
 * the kernel touched.  Keeping it is right only if the host hears of
 * every change the guest makes to its tables, which the guest's
 * set_pte_at, set_pde and release_pgd ops tell it (asm/paging.h has the
 * rule; lguest's set_pte hypercall did the same).  A change reaches
 * every kept shadow: the kernel's half of a pv386 address space is the
 * same tables in all of them, so their shadow tables are the same too,
 * shared (shadow_share.c, which the cache owns), and a change there is
 * made once.  When all SHADOWS_KEPT are in use, the one used longest ago
 * is rebuilt for the new directory, starting with the shared tables.
 */
#include <kernel.h>
#include <asm/paging.h>
#include "host.h"

#define for_each_kept_shadow(c, sh) \
	for ((sh) = (c)->shadow; (sh) < (c)->shadow + SHADOWS_KEPT; (sh)++) \
		if ((sh)->pgd)

/* The identity shadow made and active: 0, or -ENOMEM with nothing held. */
int shadow_cache_init(struct shadow_cache *c, struct guest_memory *m)
{
	int err;

	*c = (struct shadow_cache){ .mem = m, .changes = 1 };
	shadow_shares_init(&c->shares, m);
	err = shadow_init(&c->shadow[0], m, &c->shares, SHADOW_IDENTITY);
	if (!err)
		c->active = &c->shadow[0];
	return err;
}

/* Every kept shadow's frames back to the host (a slot never made, or
 * left empty by a failed build, holds none), and the spares. */
void shadow_cache_free(struct shadow_cache *c)
{
	struct shadow *sh;

	for_each_kept_shadow(c, sh)
		shadow_free(sh);
	shadow_spares_free(c->mem);
	c->active = NULL;
	c->changes++;
}

static struct shadow *kept_shadow_of(struct shadow_cache *c, u32 guest_cr3)
{
	struct shadow *sh;

	for_each_kept_shadow(c, sh)
		if (sh->guest_cr3 == guest_cr3)
			return sh;
	return NULL;
}

/* A slot for a new shadow: one never made, else the one used longest
 * ago (never the active one, which the guest runs on until the switch). */
static struct shadow *shadow_to_rebuild(struct shadow_cache *c)
{
	struct shadow *sh, *oldest = NULL;

	for (sh = c->shadow; sh < c->shadow + SHADOWS_KEPT; sh++) {
		if (!sh->pgd)
			return sh;
		if (sh != c->active && (!oldest || sh->last_used < oldest->last_used))
			oldest = sh;
	}
	return oldest;
}

/* A shadow for guest_cr3, the kernel's tables linked in already, or
 * NULL if a slot never made gets no frames (it stays empty: shadow_init
 * holds nothing on failure). */
static struct shadow *build_shadow(struct shadow_cache *c, u32 guest_cr3)
{
	struct shadow *sh = shadow_to_rebuild(c);

	if (!sh->pgd) {
		if (shadow_init(sh, c->mem, &c->shares, guest_cr3))
			return NULL;
	} else {
		shadow_drop(sh);
		sh->guest_cr3 = guest_cr3;
	}
	shadow_link_shared(sh);
	c->built++;
	c->changes++;
	return sh;
}

static void make_active(struct shadow_cache *c, struct shadow *sh)
{
	sh->last_used = ++c->uses;
	c->active = sh;
}

/* A load of the same cr3 (pv386's TLB flush) changes nothing here: the
 * shadows already heard of every change.  It is the commonest load, and
 * the active shadow is a kept one: asked first. */
struct shadow *shadow_cache_switch(struct shadow_cache *c, u32 guest_cr3)
{
	struct shadow *sh = c->active && c->active->guest_cr3 == guest_cr3 ? c->active :
			    kept_shadow_of(c, guest_cr3);

	if (sh)
		c->reused++;
	else
		sh = build_shadow(c, guest_cr3);
	if (sh)
		make_active(c, sh);
	return sh;
}

struct shadow *shadow_cache_follow(struct shadow_cache *c, u32 pgd)
{
	struct shadow *sh;

	for_each_kept_shadow(c, sh)
		if ((u32)sh->pgd == pgd) {
			c->followed++;
			make_active(c, sh);
			return sh;
		}
	return NULL;
}

/* The shared tables (shadow_share.c) hear of a changed entry once, by
 * the guest table they shadow; each kept shadow of its own tables, and
 * only a shadow with one of its own at va is asked (the kernel's text,
 * which the patcher changes page by page, is in shared ones). */
void shadow_cache_pte_changed(struct shadow_cache *c, u32 pte_gpa, u32 va)
{
	struct shadow *sh;

	shadow_shares_pte_changed(&c->shares, pte_gpa, va);
	for_each_kept_shadow(c, sh)
		if ((sh->pgd[va / PGDIR_SPAN] & (PTE_PRESENT | SHADOW_PDE_SHARED)) == PTE_PRESENT)
			shadow_pte_changed(sh, pte_gpa, va);
}

void shadow_cache_pde_changed(struct shadow_cache *c, u32 pde_gpa)
{
	struct shadow *sh;

	for_each_kept_shadow(c, sh)
		shadow_forget_pde(sh, pde_gpa);
}

void shadow_cache_forget(struct shadow_cache *c, u32 va)
{
	struct shadow *sh;

	for_each_kept_shadow(c, sh)
		shadow_forget(sh, va);
}

/* Its page may become anything, a new directory too: its shadow must not
 * outlive it.  The active one is only emptied (a guest that frees the
 * directory it runs on faults its way through whatever is there). */
void shadow_cache_release(struct shadow_cache *c, u32 pgd_gpa)
{
	struct shadow *sh = kept_shadow_of(c, pgd_gpa);

	if (sh == c->active)
		shadow_drop(sh);
	else if (sh) {
		shadow_free(sh);	/* its slot is free again */
		c->changes++;
	}
}
