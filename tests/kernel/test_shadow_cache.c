/*
 * test_shadow_cache.c - the shadows a host keeps per guest page
 * directory (arch/x86/host/shadow_cache.c), without running a guest:
 * the tables are written in guest memory here, and the faults that
 * would fill the shadows are made by calling shadow_fault().
 *
 * Two guest directories share the kernel's table (as every pv386
 * address space does: their shadows share its shadow table) and have a
 * user table each.  A switch back finds its shadow with its entries; a
 * changed entry is made again, or forgotten, by every shadow made from
 * it, and only at the va the guest names; a changed
 * directory entry drops that shadow's table alone; a released
 * directory's shadow is gone; the one used longest ago is rebuilt when
 * all are in use, never the active one; and every page comes back.
 */
#include <kernel.h>
#include <ktest.h>
#include <page_alloc.h>
#include <string.h>
#include "../../arch/x86/host/host.h"	/* the host's own: tests reach in */
#include <asm/paging.h>
#include <asm/switcher.h>

#define PD_A		0x10000u	/* guest directories */
#define PD_B		0x11000u
#define PT_KERNEL	0x12000u	/* 0-4 MiB, in both */
#define PT_A		0x13000u	/* 4-8 MiB, each its own */
#define PT_B		0x14000u
#define KERNEL_VA	0x200000u
#define USER_VA		0x401000u
#define FRAME		0x300000u	/* what both map */
#define OTHER_FRAME	0x301000u
#define PTE_ACCESSED	0x020

static u32 *guest_page(struct guest_memory *m, u32 gpa)
{
	return guest_memory_ptr(m, gpa, PAGE_SIZE);
}

/* Directory pd with the kernel's table and its own user table pt. */
static void write_directory(struct guest_memory *m, u32 pd, u32 pt)
{
	memset(guest_page(m, pd), 0, PAGE_SIZE);
	memset(guest_page(m, pt), 0, PAGE_SIZE);
	guest_page(m, pd)[0] = PT_KERNEL | PTE_PRESENT | PTE_WRITE;
	guest_page(m, pd)[1] = pt | PTE_PRESENT | PTE_WRITE | PTE_USER;
	guest_page(m, pt)[1] = FRAME | PTE_PRESENT | PTE_WRITE | PTE_USER;
}

static void write_guest_tables(struct guest_memory *m)
{
	memset(guest_page(m, PT_KERNEL), 0, PAGE_SIZE);
	guest_page(m, PT_KERNEL)[KERNEL_VA / PAGE_SIZE] = FRAME | PTE_PRESENT | PTE_WRITE;
	write_directory(m, PD_A, PT_A);
	write_directory(m, PD_B, PT_B);
}

/* The shadow's entry for va: the host frame it maps, or 0. */
static u32 shadow_entry(const struct shadow *sh, u32 va)
{
	u32 pde = sh->pgd[va / PGDIR_SPAN];

	if (!(pde & PTE_PRESENT))
		return 0;
	return ((const u32 *)(pde & PAGE_MASK))[va / PAGE_SIZE % PT_ENTRIES];
}

/* A kernel read and a user write, as the guest's accesses would fault. */
static bool fill(struct shadow *sh)
{
	u32 read = 0, write = PF_WRITE | PF_USER;

	return shadow_fault(sh, KERNEL_VA, &read) == SHADOW_FILLED &&
	       shadow_fault(sh, USER_VA, &write) == SHADOW_FILLED;
}

static bool maps_frame(const struct shadow *sh, const struct guest_memory *m, u32 va)
{
	return (shadow_entry(sh, va) & PAGE_MASK) == m->base + FRAME;
}

/* Guest memory and a shadow cache over it; or, with nothing kept, why
 * the test cannot run here. */
static const char *cache_setup(struct shadow_cache *c, struct guest_memory *m)
{
	if (guest_memory_alloc(m, GUESTMEM_MIN_MIB))
		return "no room for guest memory";
	if (!switcher_setup() || shadow_cache_init(c, m)) {
		guest_memory_free(m);
		return "no host here: no CR0.WP that holds (a 386, or an emulator), "
			"or no room for a shadow";
	}
	return NULL;
}

KTEST(shadow_cache_keeps_and_forgets)
{
	unsigned long free_before = pages_free_count();
	struct shadow_cache c;
	struct guest_memory m;
	struct shadow *a, *b;
	const char *skip;
	u32 *kernel_pte;

	KT_NOT_IN_GUEST("a guest cannot host: the Switcher runs at ring 0");
	skip = cache_setup(&c, &m);
	if (skip)
		KT_SKIP(skip);
	write_guest_tables(&m);
	kernel_pte = &guest_page(&m, PT_KERNEL)[KERNEL_VA / PAGE_SIZE];
	a = shadow_cache_switch(&c, PD_A);
	KT_EXPECT(a && fill(a));
	b = shadow_cache_switch(&c, PD_B);
	KT_EXPECT(b && b != a && fill(b));
	KT_EXPECT_EQ(c.built, 2);

	/* Back to A: its shadow, entries and all; the same cr3 again too. */
	KT_EXPECT(shadow_cache_switch(&c, PD_A) == a);
	KT_EXPECT(shadow_cache_switch(&c, PD_A) == a);
	KT_EXPECT_EQ(c.reused, 2);
	KT_EXPECT(maps_frame(a, &m, KERNEL_VA) && maps_frame(a, &m, USER_VA));

	/* The kernel's entry changed: made again from the new one in both
	 * (it was walked: accessed), but only at its va; cleared: forgotten. */
	*kernel_pte = OTHER_FRAME | PTE_PRESENT | PTE_WRITE | PTE_ACCESSED;
	shadow_cache_pte_changed(&c, PT_KERNEL + 4 * (KERNEL_VA / PAGE_SIZE), KERNEL_VA + PAGE_SIZE);
	KT_EXPECT(maps_frame(a, &m, KERNEL_VA) && maps_frame(b, &m, KERNEL_VA));
	shadow_cache_pte_changed(&c, PT_KERNEL + 4 * (KERNEL_VA / PAGE_SIZE), KERNEL_VA);
	KT_EXPECT_EQ(shadow_entry(a, KERNEL_VA) & PAGE_MASK, m.base + OTHER_FRAME);
	KT_EXPECT_EQ(shadow_entry(b, KERNEL_VA) & PAGE_MASK, m.base + OTHER_FRAME);
	*kernel_pte = 0;
	shadow_cache_pte_changed(&c, PT_KERNEL + 4 * (KERNEL_VA / PAGE_SIZE), KERNEL_VA);
	KT_EXPECT_EQ(shadow_entry(a, KERNEL_VA), 0);
	KT_EXPECT_EQ(shadow_entry(b, KERNEL_VA), 0);
	*kernel_pte = FRAME | PTE_PRESENT | PTE_WRITE;

	/* A's user entry cleared: B's, from another table, stays. */
	guest_page(&m, PT_A)[1] = 0;
	shadow_cache_pte_changed(&c, PT_A + 4, USER_VA);
	KT_EXPECT_EQ(shadow_entry(a, USER_VA), 0);
	KT_EXPECT(maps_frame(b, &m, USER_VA));
	guest_page(&m, PT_A)[1] = FRAME | PTE_PRESENT | PTE_WRITE | PTE_USER;

	/* B's directory entry for its user table: that table goes, B's own. */
	KT_EXPECT(fill(a));
	shadow_cache_pde_changed(&c, PD_B + 4);
	KT_EXPECT_EQ(b->pgd[1], 0);
	KT_EXPECT(maps_frame(a, &m, USER_VA));

	/* B released: its slot free again. */
	shadow_cache_release(&c, PD_B);
	KT_EXPECT(b->pgd == NULL);
	KT_EXPECT_EQ(c.built, 2);

	shadow_cache_free(&c);
	guest_memory_free(&m);
	KT_EXPECT_EQ(pages_free_count(), free_before);
}

/* More directories than kept shadows: the one used longest ago is
 * rebuilt, never the active one.  Written for four slots. */
#define NEW_PD		0x40000u	/* directories never seen before */

KTEST(shadow_cache_rebuilds_the_least_recently_used)
{
	unsigned long free_before = pages_free_count();
	struct shadow *a, *b, *d;
	struct shadow_cache c;
	struct guest_memory m;
	const char *skip;

	KT_NOT_IN_GUEST("a guest cannot host: the Switcher runs at ring 0");
	KT_EXPECT_EQ(SHADOWS_KEPT, 4);
	skip = cache_setup(&c, &m);
	if (skip)
		KT_SKIP(skip);
	a = shadow_cache_switch(&c, PD_A);		/* the identity is slot 0 */
	b = shadow_cache_switch(&c, PD_A + PAGE_SIZE);
	d = shadow_cache_switch(&c, PD_A + 2 * PAGE_SIZE);
	KT_EXPECT(a && b && d && a != b && b != d && d != a);
	KT_EXPECT(shadow_cache_switch(&c, PD_A + PAGE_SIZE) == b);
	KT_EXPECT(shadow_cache_switch(&c, PD_A) == a);

	/* By last use: the identity, d, b, then a - the active one, so
	 * last, when the one before it is active. */
	KT_EXPECT(shadow_cache_switch(&c, NEW_PD) == &c.shadow[0]);
	KT_EXPECT(shadow_cache_switch(&c, NEW_PD + PAGE_SIZE) == d);
	KT_EXPECT(shadow_cache_switch(&c, NEW_PD + 2 * PAGE_SIZE) == b);
	KT_EXPECT(shadow_cache_switch(&c, NEW_PD + 3 * PAGE_SIZE) == a);
	KT_EXPECT_EQ(a->guest_cr3, NEW_PD + 3 * PAGE_SIZE);
	KT_EXPECT_EQ(c.built, 7);
	KT_EXPECT_EQ(c.reused, 2);

	shadow_cache_free(&c);
	guest_memory_free(&m);
	KT_EXPECT_EQ(pages_free_count(), free_before);
}
