/*
 * extable.c - looks up a faulting address in the exception table.
 *
 * The linker gathers every _ASM_EXTABLE entry into __ex_table (see
 * linker.ld); there are few, so a linear search is enough.
 */
#include <asm/extable.h>

extern const struct exception_table_entry __start___ex_table[];
extern const struct exception_table_entry __stop___ex_table[];

const struct exception_table_entry *search_exception_tables(unsigned long addr)
{
	const struct exception_table_entry *e;

	for (e = __start___ex_table; e < __stop___ex_table; e++)
		if (e->insn == addr)
			return e;
	return NULL;
}
