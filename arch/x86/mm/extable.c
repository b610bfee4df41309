/*
 * extable.c - looks up a faulting address in the exception table.
 *
 * The linker gathers every _ASM_EXTABLE entry into __ex_table (see
 * linker.ld), in link order.  extable_init() sorts it by address once,
 * at boot, before paging makes it read-only; a fault then finds its
 * entry by binary search.  A linear search would make a fault's cost
 * depend on where its entry happens to lie, and the PARAVIRT=n kernel,
 * whose inlined ops each bring an entry, has twice as many as the other.
 *
 * Code loaded at boot rather than linked in (the ops ROM,
 * arch/x86/paravirt/backends/rom.c) brings its own entries: one more table,
 * registered with extable_add_loaded() and searched after the kernel's.
 */
#include <asm/extable.h>

extern struct exception_table_entry __start___ex_table[];
extern struct exception_table_entry __stop___ex_table[];

static struct exception_table_entry *loaded_start, *loaded_end;

/* Insertion sort: some dozens of entries, once. */
static void sort_entries(struct exception_table_entry *start,
			 struct exception_table_entry *end)
{
	struct exception_table_entry *e, *p, tmp;

	for (e = start + 1; e < end; e++) {
		tmp = *e;
		for (p = e; p > start && p[-1].insn > tmp.insn; p--)
			*p = p[-1];
		*p = tmp;
	}
}

void extable_init(void)
{
	sort_entries(__start___ex_table, __stop___ex_table);
}

void extable_add_loaded(struct exception_table_entry *entries, unsigned int n)
{
	sort_entries(entries, entries + n);
	loaded_start = entries;
	loaded_end = entries + n;
}

/*
 * The first entry at or after addr, by halves, then one comparison: the
 * same number of probes wherever the entry lies.  (Stopping at the first
 * equal probe would make a fault's cost depend on link order, and make
 * bench compares kernels whose tables are laid out differently.)
 */
static const struct exception_table_entry *
search(const struct exception_table_entry *lo, const struct exception_table_entry *end,
       unsigned long addr)
{
	const struct exception_table_entry *hi = end;

	while (lo < hi) {
		const struct exception_table_entry *mid = lo + (hi - lo) / 2;

		if (mid->insn < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < end && lo->insn == addr ? lo : NULL;
}

const struct exception_table_entry *search_exception_tables(unsigned long addr)
{
	const struct exception_table_entry *e;

	e = search(__start___ex_table, __stop___ex_table, addr);
	return e ? e : search(loaded_start, loaded_end, addr);
}
