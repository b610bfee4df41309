/*
 * shadow_share.c - the kernel half's shadow page tables, one per guest
 * kernel page table, shared by every kept shadow (shadow_cache.c).
 *
 * Every pv386 address space points its directory slots below
 * KERNEL_SPACE_END at the same guest page tables, the kernel's.  A shadow
 * built with tables of its own refilled the kernel's pages one exit at a
 * time in each new address space: 21 of the 24 fills of a spawned
 * program were the kernel's (make bench's spawn_exit).  So a table the
 * kernel half uses is shadowed once, here, and each kept shadow whose
 * directory points at it links that one table (KVM's shadow MMU shares
 * a shadow page among all the roots that reach the guest table it
 * shadows, the same way): a new shadow starts with the kernel mapped,
 * and only user pages fault.
 *
 * A shared table is known by its key: the guest table's gpa, the slot
 * it is at (the va it maps, which the VM86 reach rule depends on) and the
 * rights of the directory entry pointing at it (the shadow's entries
 * carry the two levels' rights together), so that every shadow linking
 * it gets exactly what its own directory's walk would give.  The
 * directory's accessed bit is set at the walk that links it, as a fill
 * sets it; an existing table is linked into a new shadow only where the
 * guest's entry has that bit already.  A changed guest entry reaches the
 * shared tables of its table once, by their key, whichever shadows link
 * them (page_tables.c's shadow_shares_pte_changed): four shadows asked
 * in turn cost a set_pte four times the work, and a patcher's pass over
 * the kernel's text is thousands of them.
 *
 * Each table counts its links, the kept shadows' directory entries that
 * point at it, marked SHADOW_PDE_SHARED, and goes back to the host with
 * the last one: a table no shadow links would go on holding entries of a
 * guest page that may by then be anything.  Its frame is counted once in
 * the guest's memory, so sharing only ever lowers what the quota sees.
 * With every slot in use a shadow makes a table of its own, as before.
 */
#include <kernel.h>
#include <asm/paging.h>
#include <asm/switcher.h>
#include "host.h"

#define PDE_LARGE	0x080

void shadow_shares_init(struct shadow_shares *s, struct guest_memory *m)
{
	*s = (struct shadow_shares){ .mem = m };
}

/* The guest's directory entry, if a table of the kernel half: present,
 * of 4 KiB pages. */
static bool shareable(u32 guest_pde, unsigned int index)
{
	return index < SHARED_SLOTS && (guest_pde & (PTE_PRESENT | PDE_LARGE)) == PTE_PRESENT;
}

/* Slots are looked at up to the last one ever used: a guest has a few
 * kernel tables, and each of its set_pte calls looks at them all. */
static struct shared_table *by_key(struct shadow_shares *s, u32 key, unsigned int index)
{
	struct shared_table *st;

	for (st = s->table; st < s->table + s->used; st++)
		if (st->table && st->key == key && st->index == index)
			return st;
	return NULL;
}

static struct shared_table *by_table(struct shadow_shares *s, u32 table)
{
	struct shared_table *st;

	for (st = s->table; st < s->table + s->used; st++)
		if ((u32)st->table == table)
			return st;
	return NULL;
}

/* A slot no table is in, or NULL if all are in use. */
static struct shared_table *free_slot(struct shadow_shares *s)
{
	struct shared_table *st = by_table(s, 0);

	if (!st && s->used < SHARED_TABLES)
		st = &s->table[s->used++];
	return st;
}

static u32 link(struct shared_table *st)
{
	st->links++;
	return (u32)st->table | PTE_PRESENT | PTE_WRITE | PTE_USER | SHADOW_PDE_SHARED;
}

/* A free slot with a new table (zeroed: nothing mapped yet); NULL with
 * *no_frame false if every slot is in use. */
static struct shared_table *make(struct shadow_shares *s, u32 key, unsigned int index,
				 bool *no_frame)
{
	struct shared_table *st = free_slot(s);
	u32 frame;

	if (!st)
		return NULL;
	frame = shadow_frame_alloc(s->mem);
	*no_frame = !frame;
	if (!frame)
		return NULL;
	*st = (struct shared_table){ .table = (u32 *)frame, .key = key, .index = index };
	return st;
}

int shared_table_link(struct shadow_shares *s, u32 guest_pde, unsigned int index,
		      u32 *shadow_pde)
{
	struct shared_table *st;
	bool no_frame = false;

	*shadow_pde = 0;
	if (!s || s->no_sharing || !shareable(guest_pde, index))
		return 0;
	st = by_key(s, guest_pde & SHARED_KEY_MASK, index);
	if (!st)
		st = make(s, guest_pde & SHARED_KEY_MASK, index, &no_frame);
	if (st)
		*shadow_pde = link(st);
	return no_frame ? -ENOMEM : 0;
}

void shared_table_unlink(struct shadow_shares *s, u32 shadow_pde)
{
	struct shared_table *st = by_table(s, shadow_pde & PAGE_MASK);

	if (--st->links)
		return;
	shadow_frame_free(s->mem, (u32)st->table);
	*st = (struct shared_table){ .table = NULL };
}

struct shared_table *shared_table_of(struct shadow_shares *s, u32 shadow_pde)
{
	s->last = by_table(s, shadow_pde & PAGE_MASK);
	return s->last;
}

unsigned int shared_tables_held(const struct shadow_shares *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < SHARED_TABLES; i++)
		n += s->table[i].table != NULL;
	return n;
}

/* The shared table after `after` (NULL: the first), or NULL: a walk
 * over every table there is. */
struct shared_table *shared_table_next(struct shadow_shares *s, struct shared_table *after)
{
	struct shared_table *st = after ? after + 1 : s->table;

	for (; st < s->table + s->used; st++)
		if (st->table)
			return st;
	return NULL;
}

/* The directory entry that links st (one link more) for a guest entry
 * of its key - its table, at its slot, with its rights - else 0. */
u32 shared_table_link_if(struct shared_table *st, u32 guest_pde)
{
	if (!shareable(guest_pde, st->index) || (guest_pde & SHARED_KEY_MASK) != st->key)
		return 0;
	return link(st);
}
