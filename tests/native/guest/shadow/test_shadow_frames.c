/*
 * test_shadow_frames.c - the host frames a guest's memory and shadow
 * page tables take (memory.c, page_tables.c, shadow_share.c,
 * shadow_cache.c, the kernel's own files), when the allocator refuses.
 *
 * A guest's life is played as the host plays it (guest.c's load_guest,
 * run.c's faults, hypercall.c's cr3 loads and table notices, then the
 * release): its memory, the identity shadow, faults that fill it, more
 * directories than there are kept shadows, kernel tables they share,
 * changed entries, released directories.  The first refused allocation
 * ends the life as the host would stop the guest, and everything is
 * given back.  That life is played once with each of its allocations
 * refused in turn (only that one, or that one and all after): nothing
 * may be freed twice or freed unallocated, nothing kept, no freed frame
 * used (fake_page_alloc.c), the frames the quota counts are always those
 * the shadows hold with the spares, and each shared table has as many
 * links as kept shadows' entries point at it.
 */
#include <stdio.h>
#include "../../../../arch/x86/host/host.h"	/* the host's own: tests reach in */
#include <asm/paging.h>
#include "../../runner/runner.h"
#include "fake_page_alloc.h"

#define GUEST_MIB	8
#define FRAME		0x300000u	/* what every guest table maps */
#define PT_KERNEL	0x10000u	/* 0-4 MiB: FRAME at KERNEL_VA */
#define PT_USER		0x11000u	/* FRAME at the second page of a slot */
#define PT_KERNEL2	0x12000u	/* 8-12 MiB, with two rights: FRAME at KERNEL2_VA */
#define PD(i)		(0x20000u + (i) * PAGE_SIZE)	/* directories */
#define DIRECTORIES	6		/* more than SHADOWS_KEPT */
#define KERNEL_VA	0x200000u
#define KERNEL2_VA	0x801000u	/* slot 2 */
#define USER_VA		0x401000u	/* slot 1 */
#define SPARSE_SLOT(i)	(300 + (i))	/* two more slots, each its own */
#define SPARSE_SLOT2(i)	(400 + (i))

static struct guest_memory m;
static struct shadow_cache c;

static u32 *guest_page(u32 gpa)
{
	return guest_memory_ptr(&m, gpa, PAGE_SIZE);
}

/* Directory i: the kernel's tables (the second with the user bit in
 * odd directories: shared as two), the user table at slot 1 and at two
 * slots of its own. */
static void write_guest_tables(void)
{
	unsigned int i;

	guest_page(PT_KERNEL)[KERNEL_VA / PAGE_SIZE] = FRAME | PTE_PRESENT | PTE_WRITE;
	guest_page(PT_KERNEL2)[1] = FRAME | PTE_PRESENT | PTE_WRITE | PTE_USER;
	guest_page(PT_USER)[1] = FRAME | PTE_PRESENT | PTE_WRITE | PTE_USER;
	for (i = 0; i < DIRECTORIES; i++) {
		u32 *pd = guest_page(PD(i));

		pd[0] = PT_KERNEL | PTE_PRESENT | PTE_WRITE;
		pd[1] = PT_USER | PTE_PRESENT | PTE_WRITE | PTE_USER;
		pd[2] = PT_KERNEL2 | PTE_PRESENT | PTE_WRITE | (i % 2 ? PTE_USER : 0);
		pd[SPARSE_SLOT(i)] = PT_USER | PTE_PRESENT | PTE_WRITE | PTE_USER;
		pd[SPARSE_SLOT2(i)] = PT_USER | PTE_PRESENT | PTE_WRITE | PTE_USER;
	}
}

/* How many kept shadows' directory entries point at table. */
static unsigned int links_to(const u32 *table)
{
	unsigned int i, d, n = 0;

	for (i = 0; i < SHADOWS_KEPT; i++)
		for (d = 0; c.shadow[i].pgd && d < PT_ENTRIES; d++)
			n += (c.shadow[i].pgd[d] & PTE_PRESENT) &&
			     (c.shadow[i].pgd[d] & PAGE_MASK) == (u32)table;
	return n;
}

/* Each shared table has as many links as entries point at it (so none
 * is freed while linked), and every entry marked shared is one. */
static void check_links(const char *step)
{
	unsigned int i, d, marked = 0, links = 0;

	for (i = 0; i < SHARED_TABLES; i++) {
		const struct shared_table *st = &c.shares.table[i];

		if (!st->table)
			continue;
		CHECK(st->links > 0 && st->links == links_to(st->table), "after %s: a shared "
		      "table with %u links, %u entries at it", step, st->links, links_to(st->table));
		links += st->links;
	}
	for (i = 0; i < SHADOWS_KEPT; i++)
		for (d = 0; c.shadow[i].pgd && d < PT_ENTRIES; d++)
			marked += (c.shadow[i].pgd[d] & SHADOW_PDE_SHARED) != 0;
	CHECK(marked == links, "after %s: %u entries marked shared, %u links", step, marked,
	      links);
}

/* What must hold between any two steps: the frames the quota counts
 * are the single frames held (every one a shadow's), never more than
 * the quota, and guest memory is one run while the guest has it. */
static void check_accounts(const char *step)
{
	CHECK(m.shadow_frames == fake_live_frames(), "after %s: %lu shadow frames counted, "
	      "%lu held", step, m.shadow_frames, fake_live_frames());
	CHECK(m.shadow_frames <= m.shadow_quota, "after %s: %lu shadow frames, quota %lu",
	      step, m.shadow_frames, m.shadow_quota);
	CHECK(fake_live_runs() == (m.size ? 1u : 0u), "after %s: %lu runs held", step,
	      fake_live_runs());
	if (c.mem == &m)
		check_links(step);
}

/* A fault the guest's tables allow: filled, or the host has no frame
 * (the life ends). */
static bool fault(u32 va, u32 error_code, const char *step)
{
	enum shadow_result r = shadow_fault(c.active, va, &error_code);

	CHECK(r == SHADOW_FILLED || r == SHADOW_NO_MEMORY, "%s: fault at %08x gave %d",
	      step, va, r);
	check_accounts(step);
	return r == SHADOW_FILLED;
}

static bool switch_to(u32 pd)
{
	bool ok = shadow_cache_switch(&c, pd) != NULL;

	check_accounts("a switch");
	return ok && c.active->guest_cr3 == pd;
}

/* The faults a task on directory i makes: its kernel, its program. */
static bool run_task(unsigned int i)
{
	return switch_to(PD(i)) && fault(KERNEL_VA, 0, "a kernel read") &&
	       fault(KERNEL2_VA, PF_WRITE, "a kernel write") &&
	       fault(USER_VA, PF_USER | PF_WRITE, "a user write") &&
	       fault(SPARSE_SLOT(i) * PGDIR_SPAN + PAGE_SIZE, PF_USER, "a sparse read") &&
	       fault(SPARSE_SLOT2(i) * PGDIR_SPAN + PAGE_SIZE, PF_USER, "a sparse read");
}

/* After the start: the guest runs until the host would stop it (false)
 * or to its end (true). */
static bool guest_runs(void)
{
	unsigned int i;

	if (!fault(0x100000, 0, "an identity fault") ||
	    !fault(GUEST_MIB * 0x100000u - PAGE_SIZE, PF_WRITE, "an identity fault"))
		return false;
	write_guest_tables();
	for (i = 0; i < DIRECTORIES; i++)	/* the last ones rebuild kept slots */
		if (!run_task(i))
			return false;
	/* Its program's table changed: that shadow's table goes, refills. */
	shadow_cache_pde_changed(&c, PD(DIRECTORIES - 1) + 4);
	check_accounts("a pde notice");
	if (!fault(USER_VA, PF_USER, "a refill"))
		return false;
	shadow_cache_pte_changed(&c, PT_USER + 4, USER_VA);
	check_accounts("a pte notice");
	/* A kernel table's slot changed in one directory: its link goes,
	 * the table stays for the others, and the next fault links again. */
	shadow_cache_pte_changed(&c, PT_KERNEL + 4 * (KERNEL_VA / PAGE_SIZE), KERNEL_VA);
	shadow_cache_pde_changed(&c, PD(DIRECTORIES - 1));
	check_accounts("a kernel pde notice");
	if (!fault(KERNEL_VA, 0, "a kernel refill"))
		return false;
	/* A directory kept but not active freed: its slot is built anew. */
	shadow_cache_release(&c, PD(DIRECTORIES - 2));
	check_accounts("a release");
	if (!run_task(0))
		return false;
	/* The active one freed: emptied, and it faults its way on. */
	shadow_cache_release(&c, PD(0));
	check_accounts("the active one's release");
	return fault(KERNEL_VA, 0, "a fault after the release");
}

/* One life: start as load_guest does, run, release as guest_release
 * does.  True if it ran to its end. */
static bool guest_life(void)
{
	bool ran;

	if (guest_memory_alloc(&m, GUEST_MIB)) {
		check_accounts("a refused start");
		return false;
	}
	if (shadow_cache_init(&c, &m)) {
		check_accounts("a refused identity shadow");
		guest_memory_free(&m);
		return false;
	}
	check_accounts("the start");
	ran = guest_runs();
	shadow_cache_free(&c);
	CHECK(m.shadow_frames == 0, "%lu shadow frames counted after the release",
	      m.shadow_frames);
	guest_memory_free(&m);
	check_accounts("the release");
	return ran;
}

/* The life with each allocation refused in turn: every refusal noticed
 * (the life ends early), nothing kept, nothing freed twice. */
static void every_refusal(bool from_then_on)
{
	unsigned long n, calls;

	fake_reset(0, false);
	CHECK(guest_life(), "the life does not run to its end with every frame given");
	fake_check_nothing_held("a whole life");
	calls = fake_calls();
	CHECK(calls > 20, "only %lu allocations in a life", calls);
	for (n = 1; n <= calls && !check_failures(); n++) {
		char when[64];

		fake_reset(n, from_then_on);
		CHECK(!guest_life(), "allocation %lu refused: the life went on to its end", n);
		CHECK(fake_refusals() > 0, "allocation %lu was never asked for", n);
		snprintf(when, sizeof(when), "allocation %lu refused", n);
		fake_check_nothing_held(when);
	}
	fake_reset(0, false);
}

void test_each_refusal_alone_leaves_nothing_behind(void)
{
	every_refusal(false);
}

void test_refusals_from_each_on_leave_nothing_behind(void)
{
	every_refusal(true);
}

/* The directory given, the Switcher's table refused: the shadow must
 * hold nothing, and freeing it free nothing (a shadow that freed the
 * directory but kept the pointer would free it again, and frame 0
 * besides). */
void test_shadow_init_refused_holds_nothing(void)
{
	struct shadow sh;
	unsigned long n;

	for (n = 1; n <= 2; n++) {
		fake_reset(0, false);
		CHECK(guest_memory_alloc(&m, GUEST_MIB) == 0, "no guest memory");
		fake_fail_in(n, false);
		CHECK(shadow_init(&sh, &m, NULL, PD(0)) == -ENOMEM, "refusal %lu not said", n);
		CHECK(sh.pgd == NULL, "refusal %lu: the shadow keeps %p", n, (void *)sh.pgd);
		CHECK(m.shadow_frames == 0, "refusal %lu: %lu frames counted", n, m.shadow_frames);
		shadow_free(&sh);
		guest_memory_free(&m);
		fake_check_nothing_held("a refused shadow_init");
	}
	fake_reset(0, false);
}

/* A refused start leaves its memory empty: a caller that frees it on
 * the way out frees nothing (a second free of a frame would panic). */
void test_guest_memory_refused_is_empty(void)
{
	m = (struct guest_memory){ .base = 0x5a5a5000u, .size = 0x5a5a5000u };
	fake_reset(1, false);
	CHECK(guest_memory_alloc(&m, GUEST_MIB) == -ENOMEM, "not refused");
	CHECK(m.base == 0 && m.size == 0, "left %08x+%08x", m.base, m.size);
	guest_memory_free(&m);
	m = (struct guest_memory){ .base = 0x5a5a5000u, .size = 0x5a5a5000u };
	CHECK(guest_memory_alloc(&m, GUESTMEM_MIN_MIB - 1) == -EINVAL, "a 3 MiB guest");
	CHECK(m.base == 0 && m.size == 0, "left %08x+%08x", m.base, m.size);
	guest_memory_free(&m);
	fake_check_nothing_held("refused guest memory");
	fake_reset(0, false);
}

/* The quota's size: its directory, the Switcher's table, tables for
 * twice its memory and 16 more, in each kept shadow. */
void test_quota_follows_guest_memory(void)
{
	static const struct { unsigned int mib; unsigned long quota; } sizes[] = {
		{ 4, 4 * (2 + 2 + 16) }, { 16, 4 * (2 + 8 + 16) }, { 64, 4 * (2 + 32 + 16) },
	};
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		fake_reset(0, false);
		CHECK(guest_memory_alloc(&m, sizes[i].mib) == 0, "no memory");
		CHECK(m.shadow_quota == sizes[i].quota, "%u MiB: quota %lu, not %lu",
		      sizes[i].mib, m.shadow_quota, sizes[i].quota);
		CHECK(SHADOWS_KEPT == 4, "the quotas here are for 4 kept shadows");
		guest_memory_free(&m);
	}
	fake_reset(0, false);
}

/*
 * A guest whose directory maps every slot below the Switcher to one user
 * table (its own), running on a fresh shadow of it: each user access to
 * a new slot then needs one more shadow table.
 */
static void guest_mapping_every_slot(void)
{
	unsigned long slot;
	u32 *pd;

	fake_reset(0, false);
	CHECK(guest_memory_alloc(&m, GUESTMEM_MIN_MIB) == 0 && shadow_cache_init(&c, &m) == 0,
	      "no guest");
	pd = guest_page(PD(0));
	guest_page(PT_USER)[1] = FRAME | PTE_PRESENT | PTE_WRITE | PTE_USER;
	for (slot = 1; slot < SWITCHER_ADDR / PGDIR_SPAN; slot++)
		pd[slot] = PT_USER | PTE_PRESENT | PTE_WRITE | PTE_USER;
	CHECK(switch_to(PD(0)), "no shadow for its directory");
}

/*
 * A guest that maps one 4 MiB slot after another (to the same table of
 * its own): the shadow fills them until the quota is met, then says it
 * has no frame - without asking the host for one more - and the frames
 * all come back.
 */
void test_quota_stops_a_guest_mapping_every_slot(void)
{
	unsigned long slot, filled = 0, calls_before;

	guest_mapping_every_slot();
	for (slot = 1; slot < SWITCHER_ADDR / PGDIR_SPAN; slot++) {
		calls_before = fake_calls();
		if (!fault(slot * PGDIR_SPAN + PAGE_SIZE, PF_USER, "a new slot"))
			break;
		filled++;
	}
	CHECK(m.shadow_frames == m.shadow_quota, "stopped at %lu frames, quota %lu",
	      m.shadow_frames, m.shadow_quota);
	CHECK(filled == m.shadow_quota - 4, "%lu slots filled, quota %lu", filled,
	      m.shadow_quota);
	CHECK(fake_calls() == calls_before, "the host was asked for a frame past the quota");
	CHECK(m.shadow_peak == m.shadow_quota, "peak %lu", m.shadow_peak);
	shadow_cache_free(&c);
	CHECK(m.shadow_frames == 0, "%lu frames counted after the release", m.shadow_frames);
	guest_memory_free(&m);
	fake_check_nothing_held("the quota's guest released");
	fake_reset(0, false);
}

/*
 * The quota met by a new directory: one frame short of it, a new shadow
 * gets its directory, is refused the Switcher's table and hands the
 * directory back - so the count is below the quota again, and the limit
 * met must be noted at the refusal (the host named its own memory).  The
 * host's own refusal, the count far below the quota, is noted as such.
 */
void test_new_directory_at_the_quota_names_it(void)
{
	unsigned long slot;

	guest_mapping_every_slot();
	for (slot = 1; m.shadow_frames < m.shadow_quota - 1; slot++)
		CHECK(fault(slot * PGDIR_SPAN + PAGE_SIZE, PF_USER, "a new slot"),
		      "slot %lu refused at %lu frames", slot, m.shadow_frames);
	CHECK(!switch_to(PD(1)), "a new directory past the quota");
	CHECK(m.shadow_frames == m.shadow_quota - 1, "%lu frames after the refusal, quota %lu",
	      m.shadow_frames, m.shadow_quota);
	CHECK(m.quota_refused, "the refusal at the quota's edge is not noted as the quota's");
	shadow_cache_free(&c);
	guest_memory_free(&m);
	fake_check_nothing_held("the quota's edge");

	fake_reset(0, false);
	CHECK(guest_memory_alloc(&m, GUESTMEM_MIN_MIB) == 0 && shadow_cache_init(&c, &m) == 0,
	      "no guest");
	fake_fail_in(2, false);			/* the new shadow's Switcher table */
	CHECK(!switch_to(PD(1)), "the host's refusal not seen");
	CHECK(!m.quota_refused, "the host's refusal, %lu of %lu frames, noted as the quota's",
	      m.shadow_frames, m.shadow_quota);
	shadow_cache_free(&c);
	guest_memory_free(&m);
	fake_check_nothing_held("the host's refusal");
	fake_reset(0, false);
}
