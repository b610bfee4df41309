/*
 * ksyms.c - looks up addresses in the symbol table that tools/gen-ksyms
 * generated from the kernel's first link (see ksyms.h).
 */
#include <ksyms.h>

/* From the generated table: count, sorted addresses, and names, all in
 * the same order. */
extern const u32 ksym_count;
extern const u32 ksym_addrs[];
extern const char *const ksym_names[];
extern const char __kernel_text_end[];

const char *ksym_lookup(u32 addr, u32 *offset)
{
	u32 lo = 0, hi = ksym_count;

	if (!ksym_count || addr < ksym_addrs[0] || addr >= (u32)__kernel_text_end)
		return NULL;
	while (hi - lo > 1) {		/* last symbol at or below addr */
		u32 mid = lo + (hi - lo) / 2;

		if (ksym_addrs[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*offset = addr - ksym_addrs[lo];
	return ksym_names[lo];
}
