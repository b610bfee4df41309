/*
 * cmdline.c - splits the boot command line into options and hands each
 * to the handler declared with boot_option().
 *
 * QEMU's -kernel passes the kernel's own path as the first word
 * ("build/pv386.elf test"), GRUB 2 only the arguments ("test"): a first
 * word containing '/' is taken for the path and skipped.
 */
#include <kernel.h>
#include <cmdline.h>
#include <string.h>

extern const struct boot_option __start_boot_options[];
extern const struct boot_option __stop_boot_options[];

/* Whether word is one of the comma-separated names in list (the value
 * of an option such as iopl=ioport,ldt). */
bool list_has_word(const char *list, const char *word)
{
	size_t len = strlen(word);

	while (*list) {
		if (!strncmp(list, word, len) && (list[len] == ',' || !list[len]))
			return true;
		while (*list && *list != ',')
			list++;
		if (*list)
			list++;
	}
	return false;
}

/* Decimal or 0x-prefixed hexadecimal; 0 on success, -EINVAL otherwise. */
int parse_ulong(const char *s, unsigned long *out)
{
	unsigned long v = 0;
	unsigned int base = 10, d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && (*s | 0x20) >= 'a' && (*s | 0x20) <= 'f')
			d = (*s | 0x20) - 'a' + 10;
		else
			return -EINVAL;
		if (v > (~0ul - d) / base)	/* would not fit in 32 bits */
			return -EINVAL;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

/*
 * out (of size bytes) gets in with every byte outside printable ASCII,
 * and the backslash, written as \xNN: what a terminal shows then is the
 * text itself.  CMDLINE_SHOWN_MAX holds a whole boot_info.cmdline.
 * Truncated at a whole escape if out is too small; returns out.
 */
char *cmdline_printable(char *out, size_t size, const char *in)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;
	unsigned char c;

	if (!size)
		return out;
	for (; (c = *in); in++) {
		bool plain = c >= 0x20 && c < 0x7f && c != '\\';

		if (n + (plain ? 1 : 4) >= size)
			break;
		if (plain) {
			out[n++] = c;
			continue;
		}
		out[n++] = '\\';
		out[n++] = 'x';
		out[n++] = hex[c >> 4];
		out[n++] = hex[c & 15];
	}
	out[n] = '\0';
	return out;
}

static const struct boot_option *find_option(const char *name)
{
	const struct boot_option *opt;

	for (opt = __start_boot_options; opt < __stop_boot_options; opt++)
		if (!strcmp(opt->name, name))
			return opt;
	return NULL;
}

/*
 * word is "name" or "name=value", already NUL-terminated.  The early pass
 * applies only early options and says nothing; the normal pass applies
 * the others and reports what it does not know.
 */
static void apply_option(char *word, bool early)
{
	char *value = strstr(word, "=");
	const struct boot_option *opt;
	char shown[CMDLINE_SHOWN_MAX], shown_value[CMDLINE_SHOWN_MAX];

	if (value)
		*value++ = '\0';
	opt = find_option(word);
	if (early) {
		if (opt && opt->early)
			opt->handler(value);
		return;
	}
	if (!opt) {
		printk("cmdline: unknown option '%s' ignored\n",
		       cmdline_printable(shown, sizeof(shown), word));
		return;
	}
	if (!opt->early && opt->handler(value))
		printk("cmdline: bad value '%s' for '%s' ignored (%s)\n",
		       cmdline_printable(shown_value, sizeof(shown_value), value ? value : ""),
		       word, opt->help);
}

static void parse(const char *cmdline, bool early)
{
	char buf[256], *p = buf, *word;
	bool first = true;

	strlcpy(buf, cmdline, sizeof(buf));	/* as long as boot_info's copy */
	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		word = p;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = '\0';
		if (!(first && strstr(word, "/")))
			apply_option(word, early);
		first = false;
	}
}

void cmdline_parse_early(const char *cmdline)
{
	parse(cmdline, true);
}

void cmdline_parse(const char *cmdline)
{
	parse(cmdline, false);
}
