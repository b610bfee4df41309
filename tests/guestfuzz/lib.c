/*
 * lib.c - the little the guest fuzzer needs of a C library: memory and
 * string helpers, its console (the console_write hypercall), its
 * command line's numbers, and the seeded random stream every choice
 * comes from.  Its formatting is the kernel's own, kernel/vsprintf.c,
 * linked in (the Makefile), which needs only memset and strlen here.
 */
#include "guestfuzz.h"

void *memset(void *d, int c, size_t n)
{
	u8 *p = d;

	while (n--)
		*p++ = (u8)c;
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	u8 *p = d;
	const u8 *q = s;

	while (n--)
		*p++ = *q++;
	return d;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

/* A line on the host's console ("guest: " and the line). */
void print(const char *fmt, ...)
{
	static char line[GUEST_CONSOLE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	hcall(HCALL_console_write, (u32)line, strlen(line), 0);
}

/* key=N in the command line (a decimal number), or dflt. */
u32 parse_number(const char *cmdline, const char *key, u32 dflt)
{
	size_t klen = strlen(key);
	const char *c;

	for (c = cmdline; *c; c++) {
		u32 v = 0;
		size_t i;

		if (c != cmdline && c[-1] != ' ')
			continue;
		for (i = 0; i < klen && c[i] == key[i]; i++)
			;
		if (i < klen || c[klen] != '=')
			continue;
		for (c += klen + 1; *c >= '0' && *c <= '9'; c++)
			v = v * 10 + (u32)(*c - '0');
		return v;
	}
	return dflt;
}

static u32 state;

/* A life's stream depends on the seed and the life only. */
void rng_seed(u32 seed, u32 life)
{
	state = seed * 2654435761u ^ (life + 1) * 40503u ^ 0x9e3779b9u;
	if (!state)
		state = 1;
	for (int i = 0; i < 8; i++)
		rnd();
}

u32 rnd(void)
{
	state ^= state << 13;
	state ^= state >> 17;
	state ^= state << 5;
	return state;
}
