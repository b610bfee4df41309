/*
 * ulib.c - the little of a C library that user programs need beyond the
 * kernel's own string routines (kernel/string.c, compiled in too):
 * atoi, strtoul, and printf to the console through the write system call.
 */
#include "pv386.h"

int atoi(const char *s)
{
	int v = 0, sign = 1;

	if (*s == '-')
		sign = -1, s++;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return sign * v;
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;		/* no digit in any base */
}

/* As in C: base 10 or 16, or 0 for "0x..." hex, else decimal.  No
 * overflow check: the value wraps, as unsigned arithmetic does. */
unsigned long strtoul(const char *s, char **end, int base)
{
	unsigned long v = 0;

	if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	}
	if (!base)
		base = 10;
	for (; digit_value(*s) < base; s++)
		v = v * base + digit_value(*s);
	if (end)
		*end = (char *)s;
	return v;
}

/* ---- printf: %d %u %x %s %c %p %%, with a width and 0 padding ---- */

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_number(struct out *o, unsigned long v, unsigned int base,
		       int width, char pad, int negative)
{
	char digits[12];
	int n = 0;

	do {
		digits[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (negative)
		digits[n++] = '-';
	while (width-- > n)
		put(o, pad);
	while (n)
		put(o, digits[--n]);
}

static const char *conversion(struct out *o, const char *f, va_list *ap)
{
	char pad = ' ';
	int width = 0;
	long d;
	const char *s;

	if (*f == '0')
		pad = '0', f++;
	while (*f >= '0' && *f <= '9')
		width = width * 10 + (*f++ - '0');
	if (*f == 'l')
		f++;
	switch (*f) {
	case 'd':
		d = va_arg(*ap, long);
		put_number(o, d < 0 ? -(unsigned long)d : (unsigned long)d, 10, width, pad, d < 0);
		break;
	case 'u': put_number(o, va_arg(*ap, unsigned long), 10, width, pad, 0); break;
	case 'x': put_number(o, va_arg(*ap, unsigned long), 16, width, pad, 0); break;
	case 'p': put_number(o, (unsigned long)va_arg(*ap, void *), 16, 8, '0', 0); break;
	case 'c': put(o, (char)va_arg(*ap, int)); break;
	case 's':
		for (s = va_arg(*ap, const char *); s && *s; s++)
			put(o, *s);
		break;
	default: put(o, *f); break;
	}
	return f + 1;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	va_list args;

	va_copy(args, ap);
	while (*fmt) {
		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt = conversion(&o, fmt + 1, &args);
	}
	va_end(args);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len;
}

int printf(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	write(buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1);
	return n;
}
