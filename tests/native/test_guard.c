/*
 * test_guard.c - sites at the very edge of mapped memory.
 *
 * Why: in the kernel, cur is the live code itself, and a site can be the
 * last bytes of .text, right before an unmapped page; out is a buffer of
 * exactly the site's length.  An engine that reads a byte past the site
 * (say, comparing a full 16-byte buffer) or writes a byte past it would
 * fault there or corrupt what follows.  Here each buffer touches a
 * PROT_NONE page, so such an access crashes the test (ASan reports the
 * SEGV and the function), and the bytes produced must equal those from
 * ordinary buffers.
 */
#include <string.h>
#include "check.h"

enum { CUR_PAGE, OUT_PAGE, TPL_PAGE, PRO_PAGE };

static const enum patch_kind kinds[] = { PATCH_INLINE, PATCH_NOPS, PATCH_DIRECT, PATCH_EMPTY };

/* n bytes ending exactly where page i ends, or starting where it starts. */
static u8 *at_edge(unsigned int page, unsigned int n, bool end)
{
	return end ? guarded_page(page) + guarded_size - n : guarded_page(page);
}

/* The same patch in plain buffers and in edge buffers must agree. */
static void patch_at_edges(const struct patch_env *env, const struct native_op *n,
			   enum patch_kind kind, bool cur_at_end)
{
	struct paravirt_patch_site site = site_of(n, 0x00101234);
	struct op_template op = op_of(n);
	u8 orig[PATCH_MAX_SITE_LEN], want[PATCH_MAX_SITE_LEN];
	u8 *cur = at_edge(CUR_PAGE, site.len, cur_at_end);
	u8 *out = at_edge(OUT_PAGE, site.len, !cur_at_end);
	u8 *tpl = at_edge(TPL_PAGE, op.tpl_len, true);
	u8 *pro = at_edge(PRO_PAGE, op.prologue_len, true);
	enum patch_result want_r, r;

	patch_original(env, &site, &op, orig);
	want_r = patch_compute_site(env, &site, &op, kind, 0x00104000, orig, want);
	memcpy(cur, orig, site.len);
	memcpy(tpl, op.tpl, op.tpl_len);	/* a read past it crashes too */
	op.tpl = tpl;
	if (op.prologue_len)			/* and past the prologue */
		memcpy(pro, op.prologue, op.prologue_len);
	op.prologue = pro;
	r = patch_compute_site(env, &site, &op, kind, 0x00104000, cur, out);
	CHECK(r == want_r, "%s kind %d: %d at the edge, %d elsewhere", n->name, kind, r, want_r);
	CHECK_BYTES(out, want, site.len, n->name);

	/* Patched bytes at the edge: the second run reads them there. */
	memcpy(cur, want, site.len);
	r = patch_compute_site(env, &site, &op, kind, 0x00104000, cur, out);
	CHECK(want_r != PATCH_NEEDS_WRITE || r == PATCH_ALREADY_DONE, "%s: second run %d",
	      n->name, r);
}

/* patch_original writes exactly the original into a buffer of its size. */
static void original_at_edge(const struct native_op *n)
{
	struct paravirt_patch_site site = site_of(n, 0x00101234);
	struct op_template op = op_of(n);
	u8 want[PATCH_MAX_SITE_LEN];
	u8 *out = at_edge(OUT_PAGE, site.len, true);
	int len = patch_original(&env_generic, &site, &op, want);

	CHECK(len == site.len, "%s: original of %d bytes", n->name, len);
	patch_original(&env_generic, &site, &op, out);
	CHECK_BYTES(out, want, site.len, n->name);
}

static void padding_at_edge(const struct patch_env *env)
{
	unsigned int len;

	for (len = 1; len <= PATCH_MAX_SITE_LEN; len++)
		patch_fill_padding(env, at_edge(OUT_PAGE, len, true), len);
}

void test_guard_pages(void)
{
	const struct patch_env *envs[] = { &env_generic, &env_p6 };
	unsigned int i, e, k;

	for (i = 0; i < nr_native_ops; i++) {
		original_at_edge(&native_ops[i]);
		for (e = 0; e < 4; e++) {
			struct patch_env env = *envs[e % 2];

			env.poison = e >= 2;
			for (k = 0; k < 4; k++) {
				patch_at_edges(&env, &native_ops[i], kinds[k], true);
				patch_at_edges(&env, &native_ops[i], kinds[k], false);
			}
		}
	}
	padding_at_edge(&env_generic);
	padding_at_edge(&env_p6);
}
