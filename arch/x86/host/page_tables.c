/*
 * page_tables.c - shadow page tables: the tables the CPU really uses
 * while a guest runs, built by the host on demand from the guest's own
 * (lguest's way; docs/guest.md says why not Xen's).
 *
 * The guest writes its page tables with plain stores, in its own memory;
 * the CPU never walks them.  A shadow starts with nothing but the
 * Switcher mapped, and the kernel half's shared tables its directory
 * points at (shadow_share.c).  On each page fault the host walks the
 * guest's tables for the address: if they do not allow the access, the
 * fault is the guest's own; if they do, the host fills the shadow entry
 * with the host frame behind the guest frame, and the guest runs on.
 * Every frame is translated by guest_memory_ptr(), so a shadow can only
 * ever map the guest's own memory.  The guest tells the host of every
 * present entry it changes (the set_pte_at and set_pde ops), and the
 * shadow forgets the entry it made from the old one, or makes it again
 * from the new one where a fill would set no bit (shadow_prefilled): so
 * a shadow stays right across cr3 loads, and shadow_cache.c keeps a few.
 * Until the guest's first cr3 the shadow maps its memory 1:1
 * (SHADOW_IDENTITY): a guest starts with paging on.
 *
 * The host also does what the CPU's walk would have done to the guest's
 * entries: a fill sets their accessed bits, and a write their dirty bit
 * (see fill_rights()).  A 4 MiB page (a directory entry with PS set) the
 * host does not shadow: the guest's cpuid shows no PSE, and a guest that
 * uses one anyway is stopped (SHADOW_LARGE_PAGE).
 */
#include <kernel.h>
#include <page_alloc.h>
#include <string.h>
#include <asm/paging.h>
#include <asm/switcher.h>
#include "host.h"

#define PDE_INDEX(va)	((va) / PGDIR_SPAN)
#define PTE_INDEX(va)	(((va) / PAGE_SIZE) % PT_ENTRIES)
#define SWITCHER_PDE	PDE_INDEX(SWITCHER_ADDR)

#define PTE_ACCESSED	0x020	/* the CPU sets it in each entry a walk uses */
#define PTE_DIRTY	0x040	/* and this in the page's entry on a write */
#define PDE_LARGE	0x080	/* PS: the entry maps 4 MiB, not a table */

/*
 * The highest linear address virtual-8086 mode reaches, and one past:
 * segment 0xffff, offset 0xffff.  A CPU never lets a guest into that
 * mode (an iret at ring 1 or 3 ignores EFLAGS.VM), but QEMU's TCG does,
 * with the frame's IOPL: there a `cli` would turn the host's interrupts
 * off for good.  No shadow entry below this is user-accessible, so such
 * a task faults at its first fetch, back to the host, whatever the
 * guest's tables say; a guest's programs get no pages there.
 */
#define VM86_REACH_END	(0xffff * 16 + 0xffff + 1)

/*
 * A shadow for the guest's page directory at guest-physical guest_cr3:
 * its directory and the Switcher's table in it, both or neither - on
 * -ENOMEM sh holds nothing (pgd NULL), so that whoever frees it on the
 * way out frees nothing twice.  A directory got before the refusal goes
 * back to the host, not to the spares: the count is then what it was
 * before the attempt.
 */
int shadow_init(struct shadow *sh, struct guest_memory *m, struct shadow_shares *shares,
		u32 guest_cr3)
{
	u32 pgd, switcher_table;

	*sh = (struct shadow){ .mem = m, .shares = shares, .guest_cr3 = guest_cr3 };
	pgd = shadow_frame_alloc(m);
	if (!pgd)
		return -ENOMEM;
	switcher_table = shadow_frame_alloc(m);
	if (!switcher_table) {
		shadow_frame_to_host(m, pgd);
		return -ENOMEM;
	}
	sh->pgd = (u32 *)pgd;
	switcher_map_in_guest(sh->pgd, switcher_table);
	return 0;
}

/* The shadow's table at directory slot d goes: a shared one unlinked,
 * its own freed. */
static void drop_table(struct shadow *sh, unsigned int d)
{
	u32 pde = sh->pgd[d];

	if (!(pde & PTE_PRESENT))
		return;
	sh->pgd[d] = 0;
	if (pde & SHADOW_PDE_SHARED)
		shared_table_unlink(sh->shares, pde);
	else
		shadow_frame_free(sh->mem, pde & PAGE_MASK);
}

/*
 * Forget every mapping but the Switcher's: the guest's tables changed,
 * or the shadow is rebuilt for another directory.  Only the groups of
 * slots a table was put in are looked at: a pv386 address space uses
 * three or four slots of the 1023, and a look at each was most of a
 * rebuild's cost.
 */
#define GROUP_SLOTS	32	/* directory slots per bit of table_groups */

void shadow_set_pde(struct shadow *sh, unsigned int d, u32 pde)
{
	sh->pgd[d] = pde;
	sh->table_groups |= 1u << (d / GROUP_SLOTS);
}

void shadow_drop(struct shadow *sh)
{
	unsigned int g, d;

	for (g = 0; g < PT_ENTRIES / GROUP_SLOTS; g++) {
		if (!(sh->table_groups & 1u << g))
			continue;
		for (d = g * GROUP_SLOTS; d < (g + 1) * GROUP_SLOTS && d < SWITCHER_PDE; d++)
			drop_table(sh, d);
	}
	sh->table_groups = 0;
}

/* Every frame it holds back; a shadow never made holds none. */
void shadow_free(struct shadow *sh)
{
	if (!sh->pgd)
		return;
	shadow_drop(sh);
	shadow_frame_free(sh->mem, sh->pgd[SWITCHER_PDE] & PAGE_MASK);
	shadow_frame_free(sh->mem, (u32)sh->pgd);
	sh->pgd = NULL;
}

/*
 * A new shadow of sh->guest_cr3 links each shared table its directory
 * points at (shadow_share.c), where the entry has its accessed bit (set
 * by an earlier walk: a CPU would find nothing more to set in it).  Its
 * kernel then runs without a fault; an entry without the bit links at
 * its first fault, which sets it.
 */
void shadow_link_shared(struct shadow *sh)
{
	const u32 *dir = guest_memory_ptr(sh->mem, sh->guest_cr3, PAGE_SIZE);
	struct shared_table *st = NULL;
	u32 pde;

	if (!sh->shares || !dir || sh->guest_cr3 % PAGE_SIZE)
		return;
	while ((st = shared_table_next(sh->shares, st))) {
		if ((sh->pgd[st->index] & PTE_PRESENT) || !(dir[st->index] & PTE_ACCESSED))
			continue;
		pde = shared_table_link_if(st, dir[st->index]);
		if (pde)
			shadow_set_pde(sh, st->index, pde);
	}
}

/* The guest's entry for va at one level, or NULL if its table is not in
 * guest memory. */
static u32 *guest_entry(const struct shadow *sh, u32 table, unsigned int index)
{
	return guest_memory_ptr(sh->mem, (table & PAGE_MASK) + 4 * index, 4);
}

/* Whether the guest's two entries allow the access the error code
 * describes: a write needs both writable, a user access both user. */
static bool guest_allows(u32 pde, u32 pte, u32 error_code)
{
	u32 both = pde & pte;

	if ((error_code & PF_WRITE) && !(both & PTE_WRITE))
		return false;
	return !(error_code & PF_USER) || (both & PTE_USER);
}

/* What a shadow entry for va allows, from the guest's two entries'
 * rights together: no more, and never a user's below VM86_REACH_END. */
static u32 shadow_rights(u32 va, u32 guest_rights)
{
	u32 rights = guest_rights & (PTE_WRITE | PTE_USER);

	return va < VM86_REACH_END ? rights & ~PTE_USER : rights;
}

/* A table for directory slot d, which has none (or a stale shared
 * one): the shared one of guest_pde's, else one of its own; NULL if it
 * gets no frame.  Out of line: a fill mostly finds its table. */
static __attribute__((noinline)) u32 *new_table(struct shadow *sh, unsigned int d,
						u32 guest_pde)
{
	u32 new_pde;

	drop_table(sh, d);
	if (shared_table_link(sh->shares, guest_pde, d, &new_pde))
		return NULL;
	if (!new_pde) {
		u32 table = shadow_frame_alloc(sh->mem);

		if (!table)
			return NULL;
		new_pde = table | PTE_PRESENT | PTE_WRITE | PTE_USER;
	}
	shadow_set_pde(sh, d, new_pde);
	return (u32 *)(new_pde & PAGE_MASK);
}

/* Whether the shared table pde links at slot d is guest_pde's (present,
 * of 4 KiB pages): the guest may have changed its entry without a word.
 * Asked at every fill of a shared slot, so inline, and the slot asked
 * about last is looked at first: a fill mostly follows one in the same
 * 4 MiB. */
static inline bool shared_table_follows(struct shadow_shares *s, u32 pde, u32 guest_pde,
					unsigned int d)
{
	const struct shared_table *st = s->last;

	if (!st || (u32)st->table != (pde & PAGE_MASK))
		st = shared_table_of(s, pde);
	return st->key == (guest_pde & SHARED_KEY_MASK) && st->index == d;
}

/*
 * The shadow's page table for va, whose guest directory entry is
 * guest_pde (present, of 4 KiB pages; 0 before the guest's first cr3):
 * the shared one of the kernel half's (shadow_share.c), else one of its
 * own, made if need be; NULL if it gets no frame.  A shared table linked
 * from another guest table than guest_pde's now (changed without a
 * word) is unlinked first: a shared table only ever holds entries of the
 * one it shadows.
 */
static inline u32 *shadow_table(struct shadow *sh, u32 va, u32 guest_pde)
{
	unsigned int d = PDE_INDEX(va);
	u32 pde = sh->pgd[d];

	if ((pde & (PTE_PRESENT | SHADOW_PDE_SHARED)) == PTE_PRESENT ||
	    ((pde & SHADOW_PDE_SHARED) && shared_table_follows(sh->shares, pde, guest_pde, d)))
		return (u32 *)(pde & PAGE_MASK);
	return new_table(sh, d, guest_pde);
}

/* The guest's fault as its own tables would have raised it: "not
 * present" where its walk found nothing, "protection" where it found a
 * page its rights forbid.  The CPU's P bit described the shadow. */
static enum shadow_result guest_fault(u32 *error_code, bool present)
{
	*error_code = present ? *error_code | PF_PROT : *error_code & ~PF_PROT;
	return SHADOW_GUEST_FAULT;
}

/* Before the guest has page tables of its own: its memory 1:1, for its
 * kernel only (a pv386 guest loads cr3 before it runs anything else). */
static enum shadow_result identity_fault(struct shadow *sh, u32 va, u32 *error_code)
{
	void *frame = guest_memory_ptr(sh->mem, va & PAGE_MASK, PAGE_SIZE);
	u32 *table;

	if (!frame || (*error_code & PF_USER))
		return guest_fault(error_code, frame != NULL);
	table = shadow_table(sh, va, 0);
	if (!table)
		return SHADOW_NO_MEMORY;
	table[PTE_INDEX(va)] = (u32)frame | PTE_PRESENT | PTE_WRITE;
	sh->fills++;
	return SHADOW_FILLED;
}

/*
 * The shadow entry's rights for an access the guest's entries allow, and
 * the accessed and dirty bits the CPU's walk would have set in them.
 * The shadow gets the guest's effective rights, no more - and no write
 * while the guest's entry is clean: a read fill of a writable page maps
 * it read-only, so that its first write faults here and the dirty bit is
 * set then, as the CPU sets it at the first write (lguest did the same).
 * A guest that clears a dirty bit tells the host (set_pte), whose
 * forgetting the entry makes the next write fault again.
 */
static u32 fill_rights(u32 *pde, u32 *pte, u32 error_code)
{
	*pde |= PTE_ACCESSED;
	*pte |= PTE_ACCESSED;
	if (error_code & PF_WRITE)
		*pte |= PTE_DIRTY;
	if (!(*pte & PTE_DIRTY))
		return *pde & *pte & PTE_USER;
	return *pde & *pte & (PTE_WRITE | PTE_USER);
}

/*
 * A page fault at va with *error_code: fill the shadow (SHADOW_FILLED),
 * or say it is the guest's own fault (*error_code then what the guest's
 * tables give), or that they point outside its memory
 * (SHADOW_BAD_TABLE) or map a 4 MiB page (SHADOW_LARGE_PAGE): the host
 * stops such a guest.
 */
enum shadow_result shadow_fault(struct shadow *sh, u32 va, u32 *error_code)
{
	u32 *pde, *pte;
	u32 *table;
	void *frame;

	if (va >= SWITCHER_ADDR)	/* the Switcher is never the guest's */
		return guest_fault(error_code, false);
	if (sh->guest_cr3 == SHADOW_IDENTITY)
		return identity_fault(sh, va, error_code);
	pde = guest_entry(sh, sh->guest_cr3, PDE_INDEX(va));
	if (!pde)
		return SHADOW_BAD_TABLE;
	if (!(*pde & PTE_PRESENT))
		return guest_fault(error_code, false);
	if (*pde & PDE_LARGE)
		return SHADOW_LARGE_PAGE;
	pte = guest_entry(sh, *pde, PTE_INDEX(va));
	if (!pte)
		return SHADOW_BAD_TABLE;
	if (!(*pte & PTE_PRESENT))
		return guest_fault(error_code, false);
	if (!guest_allows(*pde, *pte, *error_code) ||
	    ((*error_code & PF_USER) && va < VM86_REACH_END))
		return guest_fault(error_code, true);
	frame = guest_memory_ptr(sh->mem, *pte & PAGE_MASK, PAGE_SIZE);
	if (!frame)
		return SHADOW_BAD_TABLE;
	table = shadow_table(sh, va, *pde);
	if (!table)
		return SHADOW_NO_MEMORY;
	table[PTE_INDEX(va)] = (u32)frame | PTE_PRESENT |
			       shadow_rights(va, fill_rights(pde, pte, *error_code));
	sh->fills++;
	return SHADOW_FILLED;
}

/*
 * Where the guest's own tables put the user page of va: for the host to
 * read a guest program's instruction (port_io.c).  Only a page the
 * program may read itself: present and user in both entries.
 */
const void *guest_user_page(const struct shadow *sh, u32 va)
{
	const u32 *pde, *pte;

	if (va >= SWITCHER_ADDR || sh->guest_cr3 == SHADOW_IDENTITY)
		return NULL;
	pde = guest_entry(sh, sh->guest_cr3, PDE_INDEX(va));
	if (!pde || !(*pde & PTE_PRESENT) || (*pde & PDE_LARGE))
		return NULL;
	pte = guest_entry(sh, *pde, PTE_INDEX(va));
	if (!pte || !(*pte & PTE_PRESENT) || !guest_allows(*pde, *pte, PF_USER))
		return NULL;
	return guest_memory_ptr(sh->mem, *pte & PAGE_MASK, PAGE_SIZE);
}

/*
 * The guest's page under va as a supervisor write finds it: its host
 * pointer in *page, and the two entries the walk used (NULL before the
 * guest's first cr3: its memory 1:1, no entries), or why there is none.
 * Nothing is changed here.
 */
static enum guest_write_result write_walk(const struct shadow *sh, u32 va, u32 **pde,
					  u32 **pte, u8 **page)
{
	*pde = *pte = NULL;
	if (va >= SWITCHER_ADDR)	/* the Switcher is never the guest's */
		return GUEST_WRITE_NOT_MAPPED;
	if (sh->guest_cr3 != SHADOW_IDENTITY) {
		*pde = guest_entry(sh, sh->guest_cr3, PDE_INDEX(va));
		if (!*pde)
			return GUEST_WRITE_OUTSIDE;
		if (!(**pde & PTE_PRESENT))
			return GUEST_WRITE_NOT_MAPPED;
		if (**pde & PDE_LARGE)
			return GUEST_WRITE_LARGE_PAGE;
		*pte = guest_entry(sh, **pde, PTE_INDEX(va));
		if (!*pte)
			return GUEST_WRITE_OUTSIDE;
		if (!(**pte & PTE_PRESENT))
			return GUEST_WRITE_NOT_MAPPED;
		if (!guest_allows(**pde, **pte, PF_WRITE))
			return GUEST_WRITE_READ_ONLY;
		va = **pte;
	}
	*page = guest_memory_ptr(sh->mem, va & PAGE_MASK, PAGE_SIZE);
	return *page ? GUEST_WRITTEN : GUEST_WRITE_OUTSIDE;
}

/*
 * Write the guest's [va, va + len) as its kernel's pushes would (a trap
 * frame the host delivers, len at most a page): through its own page
 * tables, each page present and writable in both entries, with the
 * accessed bits set in both and the dirty bit in the page's (SDM vol. 3A
 * 4.8), as the CPU's walk does for a push.  Either all of it is written,
 * or nothing is and the answer says why, with *where the frame's lowest
 * address on the page that refused: the upper page is looked at first,
 * as the CPU pushes from the top down.  A frame that wraps below 0 runs
 * into the Switcher's pages, never the guest's.
 */
enum guest_write_result shadow_guest_write(const struct shadow *sh, u32 va, const void *src,
					   u32 len, u32 *where)
{
	u32 split = (va | (PAGE_SIZE - 1)) + 1;	/* where the next page starts */
	u32 first_len = split - va < len ? split - va : len;
	u32 *pde[2], *pte[2];
	u8 *page[2];
	enum guest_write_result r;
	int i;

	for (i = first_len < len ? 1 : 0; i >= 0; i--) {
		*where = i ? split : va;
		r = write_walk(sh, *where, &pde[i], &pte[i], &page[i]);
		if (r != GUEST_WRITTEN)
			return r;
	}
	for (i = 0; i < (first_len < len ? 2 : 1); i++) {
		if (pde[i]) {
			*pde[i] |= PTE_ACCESSED;
			*pte[i] |= PTE_ACCESSED | PTE_DIRTY;
		}
	}
	memcpy(page[0] + va % PAGE_SIZE, src, first_len);
	if (first_len < len)
		memcpy(page[1], (const u8 *)src + first_len, len - first_len);
	return GUEST_WRITTEN;
}

/* The shadow's entry for va, or NULL where it has no table. */
static u32 *shadow_pte(const struct shadow *sh, u32 va)
{
	u32 pde = va < SWITCHER_ADDR ? sh->pgd[PDE_INDEX(va)] : 0;

	return pde & PTE_PRESENT ? &((u32 *)(pde & PAGE_MASK))[PTE_INDEX(va)] : NULL;
}

/* The shadow's entry for va goes, and fills again on use. */
void shadow_forget(struct shadow *sh, u32 va)
{
	u32 *pte = shadow_pte(sh, va);

	if (pte)
		*pte = 0;
}

/* Reads of va go on as they did; its next write faults (irq_window.c). */
void shadow_write_protect(struct shadow *sh, u32 va)
{
	u32 *pte = shadow_pte(sh, va);

	if (pte)
		*pte &= ~PTE_WRITE;
}

/*
 * What a fill would make of the guest's entries pde and pte for va, made
 * before any access asks (prefilled), where the fill would change
 * neither entry: both present and accessed already (the CPU's walk would
 * set nothing more), and writable only if the page is dirty, as
 * fill_rights() maps a clean page read-only.  Else 0: the first use
 * fills, and sets the bits then.  KVM prefetches shadow entries on the
 * same condition.  The frame in m, the guest's memory, as every frame.
 */
static u32 shadow_prefilled(const struct guest_memory *m, u32 va, u32 pde, u32 pte)
{
	u32 both = pde & pte, rights = both & (pte & PTE_DIRTY ? PTE_WRITE | PTE_USER : PTE_USER);
	void *frame;

	if ((both & (PTE_PRESENT | PTE_ACCESSED)) != (PTE_PRESENT | PTE_ACCESSED) ||
	    (pde & PDE_LARGE) || va >= SWITCHER_ADDR)
		return 0;
	frame = guest_memory_ptr(m, pte & PAGE_MASK, PAGE_SIZE);
	return frame ? (u32)frame | PTE_PRESENT | shadow_rights(va, rights) : 0;
}

/*
 * The guest changed its page-table entry at pte_gpa, which maps va: if
 * the shadow's own table for va was made from there, its entry is made
 * again from the new one at once (shadow_prefilled()), or it goes and
 * fills again on use.  A present entry changes mostly in its rights -
 * the kernel's text made writable for the patcher, and read-only again
 * - and each page's next use would be an exit.  Only where the shadow
 * has a table for va (none is made here), and not a shared one (those
 * hear of it once, by the table they shadow: shadow_shares_pte_changed).
 * Only the va the guest names is looked at: a guest that maps one table
 * at two places, or names the wrong va, keeps a stale entry - to its own
 * memory, as every shadow entry is.
 */
void shadow_pte_changed(struct shadow *sh, u32 pte_gpa, u32 va)
{
	const u32 *pde, *pte;
	u32 *entry;

	if (va >= SWITCHER_ADDR || sh->guest_cr3 == SHADOW_IDENTITY ||
	    PTE_INDEX(va) != pte_gpa % PAGE_SIZE / 4 ||
	    (sh->pgd[PDE_INDEX(va)] & SHADOW_PDE_SHARED))
		return;
	entry = shadow_pte(sh, va);
	pde = guest_entry(sh, sh->guest_cr3, PDE_INDEX(va));
	if (!entry || !pde || !(*pde & PTE_PRESENT) ||
	    (*pde & PAGE_MASK) != (pte_gpa & PAGE_MASK))
		return;
	pte = guest_entry(sh, pte_gpa, PTE_INDEX(va));
	*entry = pte && !(sh->shares && sh->shares->no_prefill) ?
		 shadow_prefilled(sh->mem, va, *pde, *pte) : 0;
}

/*
 * A changed entry of a guest table reaches each shared table of it at
 * va's slot (one per directory entry rights in use: shadow_share.c),
 * whichever directories link it: the table holds that guest table's
 * entries, and every sharer's directory entry has the key's rights and
 * its accessed bit (a link needs it), so the entry is made again as a
 * fill by any of them would make it.
 */
void shadow_shares_pte_changed(struct shadow_shares *s, u32 pte_gpa, u32 va)
{
	u32 i = PTE_INDEX(va), table = pte_gpa & PAGE_MASK;
	struct shared_table *st = NULL;
	const u32 *pte;

	if (PDE_INDEX(va) >= SHARED_SLOTS || pte_gpa % PAGE_SIZE / 4 != i)
		return;		/* a user page's: no shared table maps it */
	pte = guest_memory_ptr(s->mem, table + 4 * i, sizeof(u32));
	while ((st = shared_table_next(s, st)))
		if (st->index == PDE_INDEX(va) && (st->key & PAGE_MASK) == table)
			st->table[i] = pte && !s->no_prefill ?
				       shadow_prefilled(s->mem, va, st->key | PTE_PRESENT |
							PTE_ACCESSED, *pte) : 0;
}

/* The guest changed its directory entry at pde_gpa: if the directory is
 * this shadow's, the shadow's table for those 4 MiB goes. */
void shadow_forget_pde(struct shadow *sh, u32 pde_gpa)
{
	unsigned int d = pde_gpa % PAGE_SIZE / 4;

	if ((pde_gpa & PAGE_MASK) != sh->guest_cr3 || d >= SWITCHER_PDE)
		return;
	drop_table(sh, d);
}
