/*
 * test_printk.c - the formats printk supports, checked through snprintf
 * (same formatter), the command-line number parser, and that the line
 * naming a killed task comes in one printk.
 */
#include <ktest.h>
#include <kernel.h>
#include <cmdline.h>
#include <string.h>
#include <task.h>
#include <asm/traps.h>
#include "console_capture.h"
#include "run_program.h"

static bool formats_as(const char *want, const char *got)
{
	if (!strcmp(want, got))
		return true;
	printk("ktest:   formatted '%s', wanted '%s'\n", got, want);
	return false;
}

KTEST(printk_integer_formats)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%d %u %x %X %i", -42, 42u, 0xbeefu, 0xbeefu, 7);
	KT_EXPECT(formats_as("-42 42 beef BEEF 7", buf));
	snprintf(buf, sizeof(buf), "[%5d][%-5d][%05d][%08x]", 42, 42, -42, 0x1fu);
	KT_EXPECT(formats_as("[   42][42   ][-0042][0000001f]", buf));
}

KTEST(printk_64bit_formats)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%llx %llu %lld", 0x123456789abcdefull,
		 18446744073709551615ull, -9000000000ll);
	KT_EXPECT(formats_as("123456789abcdef 18446744073709551615 -9000000000", buf));
}

KTEST(printk_string_char_pointer)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s|%c|%p|%%|%s", "pv", 'x', (void *)0xb8000,
		 (char *)NULL);
	KT_EXPECT(formats_as("pv|x|0x000b8000|%|(null)", buf));
}

KTEST(printk_truncates_safely)
{
	char buf[8];
	int n = snprintf(buf, sizeof(buf), "%s", "0123456789");

	KT_EXPECT_EQ(n, 10);
	KT_EXPECT(formats_as("0123456", buf));
}

/* parse_ulong(s) should give want (or -EINVAL, leaving the output as it
 * was: 0x5a5a5a5a). */
static bool parses_as(const char *s, int status, unsigned long want)
{
	unsigned long v = 0x5a5a5a5a;
	int got = parse_ulong(s, &v);

	if (got == status && v == (status ? 0x5a5a5a5a : want))
		return true;
	printk("ktest:   parse_ulong(\"%s\") gave %d and %lu (0x%lx)\n", s, got, v, v);
	return false;
}

KTEST(cmdline_parse_ulong)
{
	KT_EXPECT(parses_as("250", 0, 250));
	KT_EXPECT(parses_as("0", 0, 0));
	KT_EXPECT(parses_as("007", 0, 7));		/* decimal, not octal */
	KT_EXPECT(parses_as("0x1F", 0, 0x1f));
	KT_EXPECT(parses_as("0X1f", 0, 0x1f));
	KT_EXPECT(parses_as("4294967295", 0, 0xffffffff));	/* the largest */
	KT_EXPECT(parses_as("0xffffffff", 0, 0xffffffff));
	KT_EXPECT(parses_as("0x00000000ffffffff", 0, 0xffffffff));
	KT_EXPECT(parses_as("4294967296", -EINVAL, 0));	/* one more */
	KT_EXPECT(parses_as("4294967396", -EINVAL, 0));	/* 100 if it wrapped */
	KT_EXPECT(parses_as("42949672950", -EINVAL, 0));
	KT_EXPECT(parses_as("0x100000000", -EINVAL, 0));
	KT_EXPECT(parses_as("12a", -EINVAL, 0));
	KT_EXPECT(parses_as("", -EINVAL, 0));
	KT_EXPECT(parses_as("0x", -EINVAL, 0));
	KT_EXPECT(parses_as("0xg", -EINVAL, 0));
	KT_EXPECT(parses_as("-1", -EINVAL, 0));
	KT_EXPECT(parses_as("+1", -EINVAL, 0));
	KT_EXPECT(parses_as(" 1", -EINVAL, 0));
	KT_EXPECT(parses_as("1 ", -EINVAL, 0));
}

/* A killed task's line is one message on every console: printed in
 * pieces, another CPU's line could land in the middle ("task 42 (x)
 * killed: task 43 (x) killed: ...").  crash divide dies of #DE, on
 * every machine the suite runs on (emulators included). */
KTEST(printk_kill_line_is_one_message)
{
	char line[200];

	capture_start();
	KT_EXPECT_EQ(run_program("crash", "divide"), EXIT_KILLED(X86_TRAP_DE));
	capture_stop();
	KT_EXPECT(captured_line("task ", line, sizeof(line)));
	KT_EXPECT(strstr(line, "(crash) killed: ") != NULL);
	KT_EXPECT(captured_lines_whole("task "));
}

/* Where a user's write is cut into messages: after the last newline of
 * a piece, or nowhere in a piece that has none. */
KTEST(printk_whole_lines_cuts_after_the_last_newline)
{
	KT_EXPECT_EQ(printk_whole_lines("ab\ncd\nef", 8), 6);
	KT_EXPECT_EQ(printk_whole_lines("abcdef", 6), 6);
	KT_EXPECT_EQ(printk_whole_lines("abc\n", 4), 4);
	KT_EXPECT_EQ(printk_whole_lines("\nabc", 4), 1);
	KT_EXPECT_EQ(printk_whole_lines("", 0), 0);
}

/* What the kernel echoes of a command line (cmdline_printable): no byte
 * that could drive a terminal, each shown as \xNN, cut at a whole escape. */
KTEST(cmdline_printable_escapes_control_bytes)
{
	char buf[CMDLINE_SHOWN_MAX], small[8];

	cmdline_printable(buf, sizeof(buf), "a\x1b[2J\rb\x7f\x9b\\ c");
	KT_EXPECT(formats_as("a\\x1b[2J\\x0db\\x7f\\x9b\\x5c c", buf));
	cmdline_printable(small, sizeof(small), "ab\x01\x02z");
	KT_EXPECT(formats_as("ab\\x01", small));
	cmdline_printable(small, sizeof(small), "abcdefghij");
	KT_EXPECT(formats_as("abcdefg", small));
}
