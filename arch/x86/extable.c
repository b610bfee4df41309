/*
 * extable.c - looks up a faulting address in the exception table.
 *
 * The linker gathers every _ASM_EXTABLE entry into __ex_table (see
 * linker.ld), in link order.  extable_init() sorts it by address once,
 * at boot, before paging makes it read-only; a fault then finds its
 * entry by binary search.  A linear search would make a fault's cost
 * depend on where its entry happens to lie, and the PARAVIRT=n kernel,
 * whose inlined ops each bring an entry, has twice as many as the other.
 */
#include <asm/extable.h>

extern struct exception_table_entry __start___ex_table[];
extern struct exception_table_entry __stop___ex_table[];

/* Insertion sort: some dozens of entries, once. */
void extable_init(void)
{
	struct exception_table_entry *e, *p, tmp;

	for (e = __start___ex_table + 1; e < __stop___ex_table; e++) {
		tmp = *e;
		for (p = e; p > __start___ex_table && p[-1].insn > tmp.insn; p--)
			*p = p[-1];
		*p = tmp;
	}
}

const struct exception_table_entry *search_exception_tables(unsigned long addr)
{
	const struct exception_table_entry *lo = __start___ex_table;
	const struct exception_table_entry *hi = __stop___ex_table;

	while (lo < hi) {
		const struct exception_table_entry *mid = lo + (hi - lo) / 2;

		if (mid->insn == addr)
			return mid;
		if (mid->insn < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
