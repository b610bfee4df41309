/*
 * string.c - memcmp and strlen for stage 2, on low memory only (gcc -m16
 * may turn these loops into string instructions with 16-bit addresses,
 * see memops.S).  memcpy and memset, which do reach above 64 KiB, are in
 * memops.S.
 */
#include "loader.h"

int memcmp(const void *a, const void *b, u32 n)
{
	const u8 *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

u32 strlen(const char *s)
{
	u32 n = 0;

	while (s[n])
		n++;
	return n;
}
