/*
 * lib.c - the little the guest fuzzer needs of a C library: memory and
 * string helpers, a printf with %s %c %d %u %x (width and 0-padding),
 * its console (the console_write hypercall), its command line's
 * numbers, and the seeded random stream every choice comes from.
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

/* One character into buf, if there is room (the count goes on). */
static void put(char *buf, size_t size, size_t *at, char c)
{
	if (*at + 1 < size)
		buf[*at] = c;
	(*at)++;
}

static void put_number(char *buf, size_t size, size_t *at, u32 v, unsigned int base,
		       unsigned int width, char pad)
{
	char digits[12];
	unsigned int n = 0;

	do {
		digits[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (width > n) {
		put(buf, size, at, pad);
		width--;
	}
	while (n)
		put(buf, size, at, digits[--n]);
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	size_t at = 0;

	for (; *fmt; fmt++) {
		unsigned int width = 0;
		char pad = ' ';
		const char *s;
		int d;

		if (*fmt != '%') {
			put(buf, size, &at, *fmt);
			continue;
		}
		if (*++fmt == '0')
			pad = '0';
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (u32)(*fmt++ - '0');
		switch (*fmt) {
		case 's':
			for (s = va_arg(ap, const char *); *s; s++)
				put(buf, size, &at, *s);
			break;
		case 'c':
			put(buf, size, &at, (char)va_arg(ap, int));
			break;
		case 'd':
			d = va_arg(ap, int);
			if (d < 0)
				put(buf, size, &at, '-');
			put_number(buf, size, &at, d < 0 ? -(u32)d : (u32)d, 10, width, pad);
			break;
		case 'u':
			put_number(buf, size, &at, va_arg(ap, u32), 10, width, pad);
			break;
		case 'x':
			put_number(buf, size, &at, va_arg(ap, u32), 16, width, pad);
			break;
		default:
			put(buf, size, &at, *fmt);
		}
	}
	if (size)
		buf[at < size ? at : size - 1] = '\0';
	return (int)at;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
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
