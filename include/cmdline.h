/*
 * cmdline.h - kernel command-line options.
 *
 * A file that wants an option declares it where it is used:
 *
 *     boot_option("hz", parse_hz, "timer ticks per second");
 *
 * The declaration lands in the .boot_options section; cmdline_parse()
 * walks the command line from the boot loader and calls the handler of
 * each option it finds, with the text after '=' (or NULL for a bare
 * word).  That text lives only while the handler runs: a handler that
 * wants it later copies it.  Unknown options and rejected values are warned about, never
 * fatal: a typo must not stop a machine from booting.
 *
 * An early_boot_option() is applied by cmdline_parse_early(), before the
 * console exists (the paravirt patcher needs its options before the first
 * printk): its handler must not print, and cannot reject a value.
 */
#ifndef PV386_CMDLINE_H
#define PV386_CMDLINE_H

#include <types.h>

struct boot_option {
	const char *name;
	int (*handler)(const char *value);	/* 0, or -EINVAL to reject */
	const char *help;
	bool early;
};

#define __boot_option(name, handler, help, early)			\
	static const struct boot_option __boot_option_##handler	\
	__section(".boot_options") __used __attribute__((aligned(4))) =	\
		{ name, handler, help, early }

#define boot_option(name, handler, help) \
	__boot_option(name, handler, help, false)
#define early_boot_option(name, handler, help) \
	__boot_option(name, handler, help, true)

/* A boot_info.cmdline (255 bytes) with each byte shown as \xNN. */
#define CMDLINE_SHOWN_MAX	(4 * 255 + 1)

void cmdline_parse_early(const char *cmdline);
void cmdline_parse(const char *cmdline);
int parse_ulong(const char *s, unsigned long *out);
bool list_has_word(const char *list, const char *word);
char *cmdline_printable(char *out, size_t size, const char *in);

#endif
