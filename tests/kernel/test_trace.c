/*
 * test_trace.c - the trace backend: its sites are direct calls, and it
 * counts exactly the calls made, per op and per site.
 *
 * Each test switches to trace if the boot did not choose it, and back
 * to the boot's backend at its end (paravirt/switch.c).
 */
#ifdef CONFIG_PARAVIRT
#include <kernel.h>
#include <ktest.h>
#include <string.h>
#include <asm/paravirt.h>
#include <asm/privileged.h>
#include "pv_switch_check.h"

#define KNOWN_CALLS	1000

KTEST(trace_boot_makes_every_site_direct)
{
	const struct paravirt_patch_stats *st = paravirt_patch_stats();

	if (strcmp(paravirt_ops.name, "trace"))
		KT_SKIP("booted without pv=trace");
	if (paravirt_patching_disabled())
		KT_SKIP("booted with nopatch");
	KT_EXPECT(st->total > 0);
	KT_EXPECT_EQ(st->direct, st->total);
	KT_EXPECT_EQ(st->refused, 0);
	KT_EXPECT_EQ(sites_not_in_state("direct"), 0);
}

/* KNOWN_CALLS calls from one site, with interrupts off so that nothing
 * else reads %cr2 meanwhile: the op and the site gain exactly that. */
KTEST(trace_counts_known_calls)
{
	const struct paravirt_patch_site *site = test_site();
	const char *boot = paravirt_ops.name;
	unsigned int slot = PARAVIRT_SLOT(read_cr2);
	u32 op_before, site_before;
	unsigned long flags;

	KT_EXPECT(site != NULL);
	if (!site || !switch_to("trace"))
		return;
	flags = raw_local_irq_save();
	op_before = paravirt_trace_calls(slot);
	site_before = paravirt_trace_site_calls(site);
	call_test_site(KNOWN_CALLS);
	KT_EXPECT_EQ(paravirt_trace_calls(slot) - op_before, KNOWN_CALLS);
	KT_EXPECT_EQ(paravirt_trace_site_calls(site) - site_before, KNOWN_CALLS);
	raw_local_irq_restore(flags);
	KT_EXPECT(switch_to(boot));
}

/* Not tracing, nothing is counted: the site is inline or calls native
 * (or guest, in a guest) directly. */
KTEST(trace_counts_nothing_under_native)
{
	const struct paravirt_patch_site *site = test_site();
	const char *boot = paravirt_ops.name;
	u32 before;

	if (!site || !switch_to(paravirt_ring_backend()))
		KT_SKIP("no test site, or the backend of this ring refused");
	before = paravirt_trace_site_calls(site);
	call_test_site(KNOWN_CALLS);
	KT_EXPECT_EQ(paravirt_trace_site_calls(site), before);
	KT_EXPECT(switch_to(boot));
}

/* Interrupts and system calls come back through iret or sysexit, the
 * jump sites: trace counts them per op. */
KTEST(trace_counts_jump_ops)
{
	const char *boot = paravirt_ops.name;
	u32 before = paravirt_trace_calls(PARAVIRT_SLOT(iret));
	int i;

	if (!switch_to("trace"))
		return;
	raw_local_irq_enable();
	for (i = 0; i < 5; i++)		/* each wakes on an interrupt, which irets */
		raw_safe_halt();
	KT_EXPECT(paravirt_trace_calls(PARAVIRT_SLOT(iret)) - before >= 5);
	KT_EXPECT(switch_to(boot));
}
#endif
