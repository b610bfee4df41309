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

	if (value)
		*value++ = '\0';
	opt = find_option(word);
	if (early) {
		if (opt && opt->early)
			opt->handler(value);
		return;
	}
	if (!opt) {
		printk("cmdline: unknown option '%s' ignored\n", word);
		return;
	}
	if (!opt->early && opt->handler(value))
		printk("cmdline: bad value '%s' for '%s' ignored (%s)\n",
		       value ? value : "", word, opt->help);
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
