/*
 * test_printk.c - the formats printk supports, checked through snprintf
 * (same formatter), and the command-line number parser.
 */
#include <ktest.h>
#include <kernel.h>
#include <cmdline.h>
#include <string.h>

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

KTEST(cmdline_parse_ulong)
{
	unsigned long v = 0;

	KT_EXPECT_EQ(parse_ulong("250", &v), 0);
	KT_EXPECT_EQ(v, 250);
	KT_EXPECT_EQ(parse_ulong("0x1F", &v), 0);
	KT_EXPECT_EQ(v, 0x1f);
	KT_EXPECT_EQ(parse_ulong("12a", &v), -EINVAL);
	KT_EXPECT_EQ(parse_ulong("", &v), -EINVAL);
}
