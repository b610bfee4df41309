/*
 * pv_switch_check.c - helpers for test_trace.c and test_pv_switch.c:
 * the patch sites summed up, and a site of known calls.
 */
#ifdef CONFIG_PARAVIRT
#include <kernel.h>
#include <ksyms.h>
#include <string.h>
#include <asm/cpu.h>
#include <asm/paravirt.h>
#include <asm/privileged.h>
#include "pv_switch_check.h"

/* FNV-1a over every site's address and bytes. */
u32 sites_hash(void)
{
	const struct paravirt_patch_site *s;
	u32 hash = 2166136261u;
	unsigned int i;

	for_each_patch_site(s) {
		hash = (hash ^ s->instr) * 16777619u;
		for (i = 0; i < s->len; i++)
			hash = (hash ^ ((const u8 *)s->instr)[i]) * 16777619u;
	}
	return hash;
}

/* What a site should be when the table makes sites state: "inline"
 * means direct for the lock's draw on a machine that may lack xadd,
 * whose slot holds the one-CPU form (spin_choose_draw_ops). */
static const char *state_of(const struct paravirt_patch_site *s, const char *state)
{
	if (!strcmp(state, "inline") && !cpu_has_xadd() &&
	    s->slot == PARAVIRT_SLOT(spin_draw))
		return "direct";
	return state;
}

unsigned int sites_not_in_state(const char *state)
{
	const struct paravirt_patch_site *s;
	unsigned int bad = 0;
	u8 orig[PATCH_MAX_SITE_LEN];

	for_each_patch_site(s) {
		const char *now = paravirt_site_state(s, orig);
		const char *want = state_of(s, state);

		if (paravirt_site_fenced(s) || !strcmp(now, want))
			continue;
		if (bad++ < 3)
			printk("ktest:   site %08x (%s) is %s, not %s\n", s->instr,
			       paravirt_op_name(s->slot), now, want);
	}
	return bad;
}

static void __attribute__((noinline)) trace_test_read_cr2(void)
{
	(void)read_cr2();
}

void call_test_site(unsigned int n)
{
	while (n--)
		trace_test_read_cr2();
}

const struct paravirt_patch_site *test_site(void)
{
	const struct paravirt_patch_site *s;
	u32 offset;

	for_each_patch_site(s) {
		const char *fn = ksym_lookup(s->instr, &offset);

		if (fn && !strcmp(fn, "trace_test_read_cr2"))
			return s;
	}
	return NULL;
}

bool switch_to(const char *name)
{
	const char *why;
	int err = paravirt_switch_backend(name, &why);

	if (err)
		printk("ktest:   pv use %s: error %d (%s)\n", name, err, why);
	return !err;
}
#endif
