/*
 * test_shell_pv.c - the shell commands pvops, sites and pv
 * (kernel/shell/pv.c), found in .shell_commands the way the
 * shell finds them and run on a line of words, their output captured.
 */
#ifdef CONFIG_PARAVIRT
#include <kernel.h>
#include <cmdline.h>
#include <ktest.h>
#include <shell.h>
#include <string.h>
#include <asm/paravirt.h>
#include "console_capture.h"
#include "pv_switch_check.h"

#define MAX_WORDS	8
#define NOT_FOUND	(-9999)

/* Run a command line as the shell would; NOT_FOUND if no command. */
static int run_line(const char *line)
{
	static char buf[128];
	char *argv[MAX_WORDS + 1], *p = buf;
	const struct shell_command *c;
	int argc = 0, ret = NOT_FOUND;

	strlcpy(buf, line, sizeof(buf));
	while (*p && argc < MAX_WORDS) {
		argv[argc++] = p;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = '\0';
	}
	argv[argc] = NULL;
	capture_start();
	for_each_shell_command(c)
		if (!strcmp(c->name, argv[0]))
			ret = c->run(argc, argv);
	capture_stop();
	return ret;
}

/* The number at the end of the first captured line starting prefix. */
static unsigned long last_number(const char *prefix)
{
	char line[160];
	unsigned long v = 0;
	size_t n;

	if (!captured_line(prefix, line, sizeof(line)))
		return 0;
	for (n = strlen(line); n > 0 && line[n - 1] != ' '; n--)
		;
	return parse_ulong(line + n, &v) ? 0 : v;
}

KTEST(cmd_pvops_lists_every_op)
{
	unsigned int slot, missing = 0;
	char prefix[32];

	KT_EXPECT_EQ(run_line("pvops"), 0);
	KT_EXPECT(captured_line("pvops: backend ", prefix, sizeof(prefix)));
	for (slot = PARAVIRT_FIRST_OP_SLOT; slot < PARAVIRT_NR_SLOTS; slot++) {
		snprintf(prefix, sizeof(prefix), "%4u %-19s", slot, paravirt_op_name(slot));
		missing += !captured_lines(prefix);
	}
	KT_EXPECT_EQ(missing, 0);
	if (!strcmp(paravirt_ops.name, "native"))
		KT_EXPECT(captured_anywhere(" native_save_fl+0x0"));
	KT_EXPECT_EQ(run_line("pvops extra"), -EINVAL);
}

/* Under trace, pvops and sites show the calls: the test site's, known. */
KTEST(cmd_pvops_and_sites_show_trace_counts)
{
	const struct paravirt_patch_site *site = test_site();
	const char *boot = paravirt_ops.name;
	char prefix[32];
	u32 before;

	if (!site || !switch_to("trace"))
		KT_SKIP("no test site, or trace refused");
	before = paravirt_trace_site_calls(site);
	call_test_site(100);
	KT_EXPECT_EQ(run_line("pvops"), 0);
	snprintf(prefix, sizeof(prefix), "%4u %-19s", (unsigned int)PARAVIRT_SLOT(read_cr2),
		 "read_cr2");
	KT_EXPECT(last_number(prefix) >= 100);
	snprintf(prefix, sizeof(prefix), "-> %s_read_cr2+0x0 ", paravirt_ring_backend());
	KT_EXPECT(captured_anywhere(prefix));	/* the op trace wraps */
	KT_EXPECT_EQ(run_line("sites read_cr2"), 0);
	snprintf(prefix, sizeof(prefix), "%08x read_cr2", site->instr);
	KT_EXPECT_EQ(last_number(prefix), before + 100);
	KT_EXPECT(captured_anywhere(paravirt_patching_disabled() ? "indirect" : "direct"));
	KT_EXPECT(captured_anywhere("trace_test_read_cr2+0x"));
	KT_EXPECT(switch_to(boot));
}

KTEST(cmd_sites_shows_bytes_and_states)
{
	const struct paravirt_patch_stats *st = paravirt_patch_stats();

	KT_EXPECT_EQ(run_line("sites"), 0);
	KT_EXPECT(!capture_overflowed());
	KT_EXPECT_EQ(captured_lines("    now:  "), st->total + st->fenced);
	KT_EXPECT_EQ(captured_lines("    built:"), st->total + st->fenced);
	KT_EXPECT(captured_anywhere(" fenced "));
	KT_EXPECT(captured_lines("sites: "));
	KT_EXPECT_EQ(run_line("sites iret"), 0);
	KT_EXPECT(captured_anywhere(" iret "));
	KT_EXPECT(!captured_anywhere(" save_fl "));
	KT_EXPECT_EQ(run_line("sites no_such_op"), -EINVAL);
	KT_EXPECT(captured_lines("sites: no op named 'no_such_op'"));
	KT_EXPECT_EQ(run_line("sites a b"), -EINVAL);
}

KTEST(cmd_pv_shows_and_switches)
{
	const char *boot = paravirt_ops.name;
	char want[48];

	KT_EXPECT_EQ(run_line("pv"), 0);
	snprintf(want, sizeof(want), "  * %-8s", boot);
	KT_EXPECT(captured_lines(want));
	KT_EXPECT(captured_lines("    trace    ") || !strcmp(boot, "trace"));
	KT_EXPECT(captured_lines("    native   ") || !strcmp(boot, "native"));
	KT_EXPECT_EQ(run_line("pv use trace"), 0);
	snprintf(want, sizeof(want), "pv: switched from %s to trace", boot);
	KT_EXPECT(captured_lines(want));
	KT_EXPECT(!strcmp(paravirt_ops.name, "trace"));
	if (current_ring() == 0) {
		KT_EXPECT_EQ(run_line("pv use native"), 0);
		KT_EXPECT(!strcmp(paravirt_ops.name, "native"));
	} else {	/* a guest: native's instructions would fault */
		KT_EXPECT_EQ(run_line("pv use native"), -EINVAL);
		KT_EXPECT(captured_lines("pv: backend native refused ("));
		KT_EXPECT(!strcmp(paravirt_ops.name, "trace"));
	}
	KT_EXPECT(switch_to(boot));
}

KTEST(cmd_pv_reports_bad_input)
{
	const char *boot = paravirt_ops.name;
	u32 before = sites_hash();

	KT_EXPECT_EQ(run_line("pv use no_such_backend"), -ENOENT);
	KT_EXPECT(captured_lines("pv: no backend named 'no_such_backend'"));
	KT_EXPECT_EQ(run_line("pv use"), -EINVAL);
	KT_EXPECT(captured_lines("usage: pv [use NAME]"));
	KT_EXPECT_EQ(run_line("pv frobnicate trace"), -EINVAL);
	KT_EXPECT(!strcmp(paravirt_ops.name, boot));
	KT_EXPECT_EQ(sites_hash(), before);
}
#endif
