/*
 * test_padding.c - how many padding instructions a site runs each time
 * it is passed (patch_padding_runs), as make bench counts them.
 *
 * Why: make bench tells the NOPs of patched sites from the rest of what
 * a path costs by counting, per site, 0 or 1.  A site counted 1 whose
 * spare bytes never run (after iret), or counted 0 where a NOP follows
 * the template, would make "patched less padding" wrong by as many
 * passes.  Each count is checked against the bytes the engine writes:
 * 1 exactly where the replacement is followed by padding that returns
 * into the site.
 */
#include <string.h>
#include "check.h"

#define SITE_AT	0x00104000u

static const u8 long_prologue[255];	/* past PATCH_MAX_PROLOGUE, and any site */

/* The site as the engine patches it from the build's bytes, into out;
 * the replacement's length before its padding, or -1 if refused. */
static int patched_body(const struct patch_env *env, const struct paravirt_patch_site *site,
			const struct op_template *op, enum patch_kind kind, u32 target, u8 *out)
{
	u8 cur[PATCH_MAX_SITE_LEN];
	unsigned int n;

	patch_original(env, site, op, cur);
	if (patch_compute_site(env, site, op, kind, target, cur, out) != PATCH_NEEDS_WRITE)
		return -1;
	for (n = 0; n < site->len && !is_padding(env, out + n, site->len - n); n++)
		;
	return n;
}

/* Every template inline at the kernel's own sites: padding runs exactly
 * where the template is shorter than its site and the op returns. */
static void check_inline_ops(const struct patch_env *env)
{
	unsigned int i;

	for (i = 0; i < nr_native_ops; i++) {
		const struct native_op *n = &native_ops[i];
		struct paravirt_patch_site site = site_of(n, SITE_AT);
		struct op_template op = op_of(n);
		u8 out[PATCH_MAX_SITE_LEN];
		int body = patched_body(env, &site, &op, PATCH_INLINE, 0, out);
		unsigned int runs = patch_padding_runs(env, &site, &op, PATCH_INLINE, 0, false);

		CHECK(body == n->want_len, "%s: the template is %d bytes, not %u", n->name, body,
		      n->want_len);
		CHECK(runs == (!n->jump && n->want_len < site.len),
		      "%s inline in %u bytes: %u padding runs", n->name, site.len, runs);
	}
}

void test_padding_runs(void)
{
	const struct native_op *cli = native_op("irq_disable"), *iret = native_op("iret");
	const struct native_op *tls = native_op("load_tls"), *read_cr0 = native_op("read_cr0");
	struct paravirt_patch_site site = site_of(cli, SITE_AT);
	struct op_template op = op_of(cli);
	u32 target = SITE_AT + 0x1000;

	check_inline_ops(&env_generic);
	check_inline_ops(&env_p6);
	/* call rel32 is a byte shorter than call *abs32: one NOP after it */
	CHECK(patch_padding_runs(&env_p6, &site, &op, PATCH_DIRECT, target, false) == 1,
	      "a direct call runs its NOP");
	CHECK(patch_padding_runs(&env_p6, &site, &op, PATCH_NOPS, 0, false) == 1,
	      "an all-NOP site is one NOP");
	/* kept as built (fenced): the call fills its site */
	CHECK(patch_padding_runs(&env_p6, &site, &op, PATCH_INLINE, 0, true) == 0,
	      "a kept call site runs no padding");
	/* jmp rel32 never comes back: its padding never runs */
	site = site_of(iret, SITE_AT);
	op = op_of(iret);
	CHECK(patch_padding_runs(&env_p6, &site, &op, PATCH_DIRECT, target, false) == 0,
	      "a direct jump's padding runs");
	/* load_tls kept: its call, then the build's jmp over the filler */
	site = site_of(tls, SITE_AT);
	op = op_of(tls);
	CHECK(patch_padding_runs(&env_p6, &site, &op, PATCH_INLINE, 0, true) == 1,
	      "a kept sized site skips no jmp");
	/* a template that would spoil a saved register: the build's call
	 * stays (an op whose sites have no room past their call) */
	site = site_clobbering(read_cr0, SITE_AT, CLBR_NONE);
	op = op_of(read_cr0);
	CHECK(patch_padding_runs(&env_p6, &site, &op, PATCH_INLINE, 0, false) == 0,
	      "a refused site runs padding the build never put there");
	/* records no site can be: nothing counted, nothing written past out */
	site.len = 0;
	CHECK(patch_padding_runs(&env_p6, &site, &op, PATCH_INLINE, 0, false) == 0,
	      "a site of no bytes runs padding");
	site.len = PATCH_MAX_SITE_LEN + 1;
	CHECK(patch_padding_runs(&env_p6, &site, &op, PATCH_INLINE, 0, true) == 0,
	      "a site too long to patch runs padding");
	site = site_of(cli, SITE_AT);
	op = op_of(cli);
	op.prologue = long_prologue;
	op.prologue_len = sizeof(long_prologue);
	CHECK(patch_padding_runs(&env_p6, &site, &op, PATCH_INLINE, 0, true) == 0,
	      "a prologue no site can hold runs padding");
}
