/*
 * test_shadow_share.c - the kernel half's shadow tables shared among the
 * kept shadows (shadow_share.c) and the spare frames (page_tables.c),
 * natively, on the kernel's own files.
 *
 * A table is shared by the guest table it shadows, its slot and its
 * directory entry's rights, never more widely: a directory whose entry
 * lacks the user bit must not reach what another directory's entry
 * allows.  A new shadow starts with the shared tables its directory
 * points at (where the entry was walked before); a changed guest entry
 * is made again (prefilled) or forgotten in the one table; a directory
 * entry changed without a word is not followed into the table it no
 * longer points at; the last link frees the table.  A spare frame comes back zeroed: a shadow made
 * from it maps nothing of the one before.
 */
#include <string.h>
#include "../../../../arch/x86/host/host.h"	/* the host's own: tests reach in */
#include <asm/paging.h>
#include "../../runner/runner.h"
#include "fake_page_alloc.h"

#define GUEST_MIB	8
#define PT_KERNEL	0x10000u	/* slot 0 of every directory */
#define PT_OTHER	0x11000u	/* another table for slot 0 */
#define PT_USER		0x12000u
#define PD_A		0x20000u
#define PD_B		0x21000u
#define PD_C		0x22000u
#define FRAME		0x300000u
#define OTHER_FRAME	0x301000u
#define KERNEL_VA	0x201000u	/* above the VM86 reach: a user page may be user */
#define USER_VA		0x401000u	/* slot 1 */
#define PDE_ACCESSED	0x020
#define PTE_DIRTY	0x040

static struct guest_memory m;
static struct shadow_cache c;

static u32 *guest_page(u32 gpa)
{
	return guest_memory_ptr(&m, gpa, PAGE_SIZE);
}

/* A guest whose directories A, B and C point slot 0 at the kernel's
 * table with the rights given, and slot 1 at a user table. */
static void start(u32 rights_a, u32 rights_b, u32 rights_c)
{
	const u32 pd[3] = { PD_A, PD_B, PD_C }, rights[3] = { rights_a, rights_b, rights_c };
	unsigned int i;

	fake_reset(0, false);
	CHECK(guest_memory_alloc(&m, GUEST_MIB) == 0 && shadow_cache_init(&c, &m) == 0,
	      "no guest");
	guest_page(PT_KERNEL)[KERNEL_VA / PAGE_SIZE % PT_ENTRIES] =
		FRAME | PTE_PRESENT | PTE_WRITE | PTE_USER;
	guest_page(PT_OTHER)[KERNEL_VA / PAGE_SIZE % PT_ENTRIES] =
		OTHER_FRAME | PTE_PRESENT | PTE_WRITE | PTE_USER;
	guest_page(PT_USER)[1] = FRAME | PTE_PRESENT | PTE_WRITE | PTE_USER;
	for (i = 0; i < 3; i++) {
		guest_page(pd[i])[0] = PT_KERNEL | PTE_PRESENT | rights[i];
		guest_page(pd[i])[1] = PT_USER | PTE_PRESENT | PTE_WRITE | PTE_USER;
	}
}

static void stop(const char *when)
{
	shadow_cache_free(&c);
	CHECK(m.shadow_frames == 0, "%s: %lu frames counted after the release", when,
	      m.shadow_frames);
	guest_memory_free(&m);
	fake_check_nothing_held(when);
	fake_reset(0, false);
}

static struct shadow *switch_to(u32 pd)
{
	struct shadow *sh = shadow_cache_switch(&c, pd);

	CHECK(sh && sh->guest_cr3 == pd, "no shadow for %08x", pd);
	return sh;
}

static enum shadow_result fault(struct shadow *sh, u32 va, u32 error_code)
{
	return shadow_fault(sh, va, &error_code);
}

/* The shadow's entry for va, or 0. */
static u32 entry(const struct shadow *sh, u32 va)
{
	u32 pde = sh->pgd[va / PGDIR_SPAN];

	return pde & PTE_PRESENT ? ((u32 *)(pde & PAGE_MASK))[va / PAGE_SIZE % PT_ENTRIES] : 0;
}

static u32 table_of(const struct shadow *sh, u32 va)
{
	return sh->pgd[va / PGDIR_SPAN] & PAGE_MASK;
}

/* Two directories with the same kernel table: one shadow table for both,
 * counted once; a third, its entry walked before, starts with it linked
 * and its kernel page mapped, without a fault. */
void test_kernel_table_shared_by_every_shadow(void)
{
	struct shadow *a, *b, *cc;
	unsigned long frames;

	start(PTE_WRITE, PTE_WRITE, PTE_WRITE | PDE_ACCESSED);
	a = switch_to(PD_A);
	CHECK(fault(a, KERNEL_VA, 0) == SHADOW_FILLED, "A's kernel read");
	frames = m.shadow_frames;
	b = switch_to(PD_B);
	CHECK(b->pgd[0] == 0, "B's entry, never walked, linked at the build");
	CHECK(fault(b, KERNEL_VA, PF_WRITE) == SHADOW_FILLED, "B's kernel write");
	CHECK(table_of(a, KERNEL_VA) == table_of(b, KERNEL_VA), "A and B have two tables");
	CHECK(guest_page(PD_B)[0] & PDE_ACCESSED, "B's walk left its entry unaccessed");
	CHECK(m.shadow_frames == frames + 2, "B took %lu frames, not its directory and "
	      "the Switcher's table", m.shadow_frames - frames);
	cc = switch_to(PD_C);
	CHECK(table_of(cc, KERNEL_VA) == table_of(a, KERNEL_VA) &&
	      (entry(cc, KERNEL_VA) & PAGE_MASK) == m.base + FRAME,
	      "C's kernel page not mapped at its build");
	CHECK(c.shares.table[0].links == 3 && shared_tables_held(&c.shares) == 1,
	      "%u shared tables, the first with %u links", shared_tables_held(&c.shares),
	      c.shares.table[0].links);
	stop("three directories, one kernel table");
}

/* The same guest table under a supervisor entry and a user one: two
 * shadow tables, so that the user page B's entry allows stays refused
 * in A, as A's own walk refuses it. */
void test_shared_tables_keep_each_directory_entry_rights(void)
{
	struct shadow *a, *b;
	u32 error_code = PF_USER;

	start(PTE_WRITE, PTE_WRITE | PTE_USER, PTE_WRITE);
	b = switch_to(PD_B);
	CHECK(fault(b, KERNEL_VA, PF_USER) == SHADOW_FILLED, "B's user read");
	CHECK(entry(b, KERNEL_VA) & PTE_USER, "B's user page not user");
	a = switch_to(PD_A);
	CHECK(fault(a, KERNEL_VA, 0) == SHADOW_FILLED, "A's kernel read");
	CHECK(table_of(a, KERNEL_VA) != table_of(b, KERNEL_VA), "one table for both rights");
	CHECK(!(entry(a, KERNEL_VA) & PTE_USER), "A's supervisor entry gives a user page");
	CHECK(shadow_fault(a, KERNEL_VA, &error_code) == SHADOW_GUEST_FAULT &&
	      (error_code & PF_PROT), "A's user read let through");
	stop("two rights, two tables");
}

/* A changed kernel entry is made again at once in the one table all
 * link, where the guest's walk already set its accessed bit (read-only
 * while the page is clean), and forgotten where it did not; a slot
 * changed without a word is not filled into the table of another. */
void test_shared_table_follows_its_guest_table(void)
{
	struct shadow *a, *b;
	u32 *kernel_pte, shared;

	start(PTE_WRITE, PTE_WRITE, PTE_WRITE);
	kernel_pte = &guest_page(PT_KERNEL)[KERNEL_VA / PAGE_SIZE % PT_ENTRIES];
	a = switch_to(PD_A);
	CHECK(fault(a, KERNEL_VA, 0) == SHADOW_FILLED, "A's kernel read");
	b = switch_to(PD_B);
	CHECK(fault(b, KERNEL_VA, 0) == SHADOW_FILLED, "B's kernel read");
	*kernel_pte = OTHER_FRAME | PTE_PRESENT | PTE_WRITE | PTE_USER | PDE_ACCESSED;
	shadow_cache_pte_changed(&c, PT_KERNEL + 4 * (KERNEL_VA / PAGE_SIZE % PT_ENTRIES),
				 KERNEL_VA);
	CHECK(entry(a, KERNEL_VA) == entry(b, KERNEL_VA) &&
	      (entry(a, KERNEL_VA) & (PAGE_MASK | PTE_PRESENT | PTE_WRITE)) ==
	      ((m.base + OTHER_FRAME) | PTE_PRESENT), "the changed entry not made again, "
	      "read-only: %08x", entry(a, KERNEL_VA));
	*kernel_pte = FRAME | PTE_PRESENT | PTE_WRITE | PTE_USER;
	shadow_cache_pte_changed(&c, PT_KERNEL + 4 * (KERNEL_VA / PAGE_SIZE % PT_ENTRIES),
				 KERNEL_VA);
	CHECK(entry(a, KERNEL_VA) == 0 && entry(b, KERNEL_VA) == 0, "an entry never "
	      "walked made ahead: %08x", entry(a, KERNEL_VA));

	shared = table_of(a, KERNEL_VA);
	guest_page(PD_B)[0] = PT_OTHER | PTE_PRESENT | PTE_WRITE | PDE_ACCESSED;	/* no word */
	guest_page(PT_OTHER)[KERNEL_VA / PAGE_SIZE % PT_ENTRIES] |= PDE_ACCESSED;
	shadow_cache_pte_changed(&c, PT_OTHER + 4 * (KERNEL_VA / PAGE_SIZE % PT_ENTRIES),
				 KERNEL_VA);
	CHECK(((u32 *)shared)[KERNEL_VA / PAGE_SIZE % PT_ENTRIES] == 0, "a change of B's "
	      "other table made in the shared one");
	CHECK(fault(b, KERNEL_VA, 0) == SHADOW_FILLED, "B's read of its other table");
	CHECK(table_of(b, KERNEL_VA) != shared, "B filled the table it no longer points at");
	CHECK((entry(b, KERNEL_VA) & PAGE_MASK) == m.base + OTHER_FRAME, "B's page is not "
	      "its table's");
	CHECK(((u32 *)shared)[KERNEL_VA / PAGE_SIZE % PT_ENTRIES] == 0, "the shared table "
	      "holds B's other page");
	stop("a table changed with and without a word");
}

/* A shadow's own table (a user one) makes a changed entry again too:
 * writable, where the page is dirty. */
void test_own_table_entry_made_again(void)
{
	struct shadow *a;

	start(PTE_WRITE, PTE_WRITE, PTE_WRITE);
	a = switch_to(PD_A);
	CHECK(fault(a, USER_VA, PF_USER | PF_WRITE) == SHADOW_FILLED, "A's user write");
	guest_page(PT_USER)[1] = OTHER_FRAME | PTE_PRESENT | PTE_WRITE | PTE_USER |
				 PDE_ACCESSED | PTE_DIRTY;
	shadow_cache_pte_changed(&c, PT_USER + 4, USER_VA);
	CHECK((entry(a, USER_VA) & (PAGE_MASK | PTE_PRESENT | PTE_WRITE | PTE_USER)) ==
	      ((m.base + OTHER_FRAME) | PTE_PRESENT | PTE_WRITE | PTE_USER),
	      "A's changed user entry not made again: %08x", entry(a, USER_VA));
	stop("a user entry made again");
}

/* The last link frees the table: a released directory, then the slot
 * of the active one changed. */
void test_shared_table_goes_with_its_last_link(void)
{
	struct shadow *a, *b;
	unsigned long frames;

	start(PTE_WRITE, PTE_WRITE, PTE_WRITE);
	a = switch_to(PD_A);
	CHECK(fault(a, KERNEL_VA, 0) == SHADOW_FILLED, "A's kernel read");
	b = switch_to(PD_B);
	CHECK(fault(b, KERNEL_VA, 0) == SHADOW_FILLED, "B's kernel read");
	shadow_cache_release(&c, PD_A);
	CHECK(shared_tables_held(&c.shares) == 1 && c.shares.table[0].links == 1,
	      "A's release took the table B links");
	frames = m.shadow_frames;
	shadow_cache_pde_changed(&c, PD_B);
	CHECK(shared_tables_held(&c.shares) == 0 && b->pgd[0] == 0, "the table outlived "
	      "its last link");
	CHECK(m.shadow_frames == frames, "the freed table not kept as a spare (%lu frames, "
	      "%lu before)", m.shadow_frames, frames);
	stop("the last link");
}

static unsigned int present_entries(const u32 *table)
{
	unsigned int i, n = 0;

	for (i = 0; i < PT_ENTRIES; i++)
		n += (table[i] & PTE_PRESENT) != 0;
	return n;
}

/* A released shadow's frames become spares, zeroed: the next shadow is
 * made of them without the allocator and maps nothing of the old one -
 * its directory only the Switcher, its table only the page it faults. */
void test_spares_come_back_zeroed(void)
{
	struct shadow *a, *b;
	unsigned long calls;

	start(PTE_WRITE, PTE_WRITE, PTE_WRITE);
	guest_page(PT_USER)[2] = FRAME | PTE_PRESENT | PTE_WRITE | PTE_USER;
	a = switch_to(PD_A);
	CHECK(fault(a, USER_VA, PF_USER) == SHADOW_FILLED &&
	      fault(a, USER_VA + PAGE_SIZE, PF_USER) == SHADOW_FILLED, "A's user reads");
	switch_to(PD_B);
	shadow_cache_release(&c, PD_A);
	CHECK(m.spares == 3, "%u spares after a release of three frames", m.spares);
	calls = fake_calls();
	b = switch_to(PD_C);
	CHECK(fake_calls() == calls, "a new shadow asked the allocator with spares left");
	CHECK(present_entries(b->pgd) == 1, "a new directory with %u entries",
	      present_entries(b->pgd));
	CHECK(fault(b, USER_VA, PF_USER) == SHADOW_FILLED && m.spares == 0,
	      "the table did not come from the spares");
	CHECK(present_entries((u32 *)table_of(b, USER_VA)) == 1, "a new table with %u entries",
	      present_entries((u32 *)table_of(b, USER_VA)));
	stop("spares");
}
