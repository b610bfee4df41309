/*
 * vsprintf.c - formatting for printk and snprintf.
 *
 * Supports what a kernel log needs: %d %i %u %x %X %p %s %c %%, the
 * l and ll (64-bit) length modifiers, a field width, '0' padding and '-'
 * left alignment.
 */
#include <kernel.h>
#include <math64.h>
#include <string.h>

struct outbuf {
	char *buf;
	size_t size;		/* room in buf, including the final NUL */
	size_t len;		/* characters produced so far (may exceed size) */
};

static void out_char(struct outbuf *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void out_padded(struct outbuf *o, const char *s, size_t n,
		       int width, bool left, char pad)
{
	int fill = width > (int)n ? width - (int)n : 0;

	while (!left && fill-- > 0)
		out_char(o, pad);
	while (n--)
		out_char(o, *s++);
	while (left && fill-- > 0)
		out_char(o, ' ');
}

/* Digits of v in base 10 or 16, most significant first, into tmp. */
static size_t format_number(char *tmp, u64 v, unsigned int base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char rev[24];
	size_t n = 0, i;

	do {
		rev[n++] = digits[div64_u32_rem(&v, base)];
	} while (v);
	for (i = 0; i < n; i++)
		tmp[i] = rev[n - 1 - i];
	return n;
}

struct spec {
	int width;
	bool left, zero;
	int longs;		/* number of 'l' modifiers */
};

static const char *parse_spec(const char *fmt, struct spec *sp)
{
	memset(sp, 0, sizeof(*sp));
	for (;; fmt++) {
		if (*fmt == '-')
			sp->left = true;
		else if (*fmt == '0')
			sp->zero = true;
		else
			break;
	}
	while (*fmt >= '0' && *fmt <= '9')
		sp->width = sp->width * 10 + (*fmt++ - '0');
	while (*fmt == 'l') {
		sp->longs++;
		fmt++;
	}
	return fmt;
}

static u64 fetch_unsigned(const struct spec *sp, va_list *ap)
{
	if (sp->longs >= 2)
		return va_arg(*ap, u64);
	return va_arg(*ap, unsigned int);
}

static s64 fetch_signed(const struct spec *sp, va_list *ap)
{
	if (sp->longs >= 2)
		return va_arg(*ap, s64);
	return va_arg(*ap, int);
}

static void format_integer(struct outbuf *o, const struct spec *sp, char conv,
			   va_list *ap)
{
	char tmp[24];
	size_t n;
	u64 v;
	bool negative = false;

	if (conv == 'd' || conv == 'i') {
		s64 s = fetch_signed(sp, ap);
		negative = s < 0;
		v = negative ? -(u64)s : (u64)s;
	} else {
		v = fetch_unsigned(sp, ap);
	}
	n = format_number(tmp + 1, v, conv == 'u' || conv == 'd' || conv == 'i' ? 10 : 16,
			  conv == 'X');
	if (negative) {
		if (sp->zero && !sp->left) {	/* the sign goes before the zeros */
			out_char(o, '-');
			out_padded(o, tmp + 1, n, sp->width - 1, false, '0');
			return;
		}
		tmp[0] = '-';
		out_padded(o, tmp, n + 1, sp->width, sp->left, ' ');
		return;
	}
	/* '-' wins over '0': zeros never go on the right. */
	out_padded(o, tmp + 1, n, sp->width, sp->left,
		   sp->zero && !sp->left ? '0' : ' ');
}

/* %p: always 0x and eight digits, so addresses line up in dumps. */
static void format_pointer(struct outbuf *o, const struct spec *sp, void *p)
{
	u32 v = (u32)p;
	char tmp[10] = { '0', 'x' };
	int i;

	for (i = 0; i < 8; i++)
		tmp[2 + i] = "0123456789abcdef"[(v >> (28 - 4 * i)) & 0xf];
	out_padded(o, tmp, sizeof(tmp), sp->width, sp->left, ' ');
}

static void format_one(struct outbuf *o, const struct spec *sp, char conv, va_list *ap)
{
	char c;
	const char *s;

	switch (conv) {
	case 'd': case 'i': case 'u': case 'x': case 'X':
		format_integer(o, sp, conv, ap);
		break;
	case 'p':
		format_pointer(o, sp, va_arg(*ap, void *));
		break;
	case 's':
		s = va_arg(*ap, const char *);
		if (!s)
			s = "(null)";
		out_padded(o, s, strlen(s), sp->width, sp->left, ' ');
		break;
	case 'c':
		c = (char)va_arg(*ap, int);
		out_padded(o, &c, 1, sp->width, sp->left, ' ');
		break;
	case '%':
		out_char(o, '%');
		break;
	default:		/* unknown: print it as written, visibly */
		out_char(o, '%');
		out_char(o, conv);
		break;
	}
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct outbuf o = { buf, size, 0 };
	struct spec sp;
	va_list aq;

	va_copy(aq, ap);
	while (*fmt) {
		if (*fmt != '%') {
			out_char(&o, *fmt++);
			continue;
		}
		fmt = parse_spec(fmt + 1, &sp);
		if (!*fmt)
			break;
		format_one(&o, &sp, *fmt++, &aq);
	}
	va_end(aq);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
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
