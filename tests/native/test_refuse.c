/*
 * test_refuse.c - the sites the engine must leave alone, and that it
 * leaves them byte for byte as they were.
 *
 * Why: the patcher writes kernel code at boot from records the build
 * made.  A record that does not match the bytes (a wrong slot, a stale
 * table address, a site someone edited) must not be "fixed up" by
 * overwriting it, and neither may a site whose replacement would not fit
 * or would spoil a register its caller keeps live.  On a refusal, out must
 * equal cur, since the kernel may write out back.
 */
#include <string.h>
#include "check.h"

#define SITE_ADDR	0x00102000u

static const enum patch_kind kinds[] = { PATCH_INLINE, PATCH_NOPS, PATCH_DIRECT, PATCH_EMPTY };
static const char *const kind_names[] = { "inline", "nops", "direct", "empty" };

/* Patch cur; the result must be `want` and out must still equal cur. */
static void expect_refusal(const struct patch_env *env,
			   const struct paravirt_patch_site *site,
			   const struct op_template *op, enum patch_kind kind,
			   const u8 *cur, enum patch_result want, const char *what)
{
	u8 out[PATCH_MAX_SITE_LEN];
	enum patch_result r = patch_compute_site(env, site, op, kind, 0x00104000, cur, out);

	CHECK(r == want, "%s (%s, %s): result %d, want %d", what, op->name,
	      kind_names[kind], r, want);
	CHECK_BYTES(out, cur, site->len, what);
}

/* Every single-byte change of the original, in every position. */
static void mutate_each_byte(const struct native_op *n, enum patch_kind kind)
{
	struct paravirt_patch_site site = site_of(n, SITE_ADDR);
	struct op_template op = op_of(n);
	u8 orig[PATCH_MAX_SITE_LEN], cur[PATCH_MAX_SITE_LEN], done[PATCH_MAX_SITE_LEN];
	unsigned int at, v;

	patch_original(&env_generic, &site, &op, orig);
	if (patch_compute_site(&env_generic, &site, &op, kind, 0x00104000, orig, done) !=
	    PATCH_NEEDS_WRITE)
		memcpy(done, orig, site.len);	/* no replacement to stumble on */
	for (at = 0; at < site.len && !check_failures(); at++)
		for (v = 0; v < 256; v++) {
			if (v == orig[at])
				continue;
			memcpy(cur, orig, site.len);
			cur[at] = v;
			/* One byte can never turn the call into its replacement. */
			CHECK(memcmp(cur, done, site.len), "%s: one byte from done", n->name);
			expect_refusal(&env_generic, &site, &op, kind, cur,
				       PATCH_REFUSED_BYTES, "one byte changed");
		}
}

/* The right shape for another slot, table or clobber set is no match. */
static void mismatched_records(const struct native_op *n, enum patch_kind kind)
{
	struct paravirt_patch_site site = site_of(n, SITE_ADDR), other;
	struct op_template op = op_of(n);
	struct patch_env env = env_generic;
	u8 cur[PATCH_MAX_SITE_LEN];
	static const s32 table_moves[] = { 4, -4, 0x1000, -0x100000 };
	unsigned int i;

	patch_original(&env_generic, &site, &op, cur);
	for (i = 0; i < sizeof(table_moves) / sizeof(table_moves[0]); i++) {
		env.table = TEST_TABLE + table_moves[i];
		expect_refusal(&env, &site, &op, kind, cur, PATCH_REFUSED_BYTES,
			       "table moved");
	}
	other = site;
	for (i = 1; i < 64; i += 21) {
		other.slot = site.slot + i;
		expect_refusal(&env_generic, &other, &op, kind, cur,
			       PATCH_REFUSED_BYTES, "another slot");
		other.slot = site.slot - i;
		expect_refusal(&env_generic, &other, &op, kind, cur,
			       PATCH_REFUSED_BYTES, "another slot");
	}
	op.jump = !n->jump;		/* a call where a jump was recorded */
	expect_refusal(&env_generic, &site, &op, kind, cur, PATCH_REFUSED_BYTES,
		       "wrong shape");
}

/* Same length, other registers saved: 51 ff 15 .. 59 against 50 ff 15 .. 58. */
static void swapped_saves(void)
{
	struct paravirt_patch_site saves_ecx = call_site(SITE_ADDR, 19, CLBR_EAX | CLBR_EDX);
	struct paravirt_patch_site saves_eax = call_site(SITE_ADDR, 19, CLBR_ECX | CLBR_EDX);
	struct op_template op = op_of(native_op("irq_disable"));
	u8 cur[PATCH_MAX_SITE_LEN];

	CHECK(saves_ecx.len == saves_eax.len, "8-byte sites differ in length");
	patch_original(&env_generic, &saves_eax, &op, cur);
	expect_refusal(&env_generic, &saves_ecx, &op, PATCH_INLINE, cur,
		       PATCH_REFUSED_BYTES, "other register saved");
}

void test_refuse_bytes(void)
{
	unsigned int i, k;

	for (i = 0; i < nr_native_ops; i++)
		for (k = 0; k < 4; k++) {
			mutate_each_byte(&native_ops[i], kinds[k]);
			mismatched_records(&native_ops[i], kinds[k]);
		}
	swapped_saves();
}

/* A made-up op with a template of len bytes (b8 = mov $imm32,%eax...). */
static struct op_template op_with_template(unsigned int len)
{
	static const u8 tpl[12] = { 0xb8, 0x78, 0x56, 0x34, 0x12, 0x90, 0x90,
				    0x90, 0x90, 0x90, 0x90, 0x90 };

	return (struct op_template){ .name = "made-up", .tpl = tpl, .tpl_len = len };
}

/* Template longer than the site, and the boundary where it just fits. */
static void template_too_long(void)
{
	struct paravirt_patch_site site = call_site(SITE_ADDR, 19, CLBR_ANY);
	struct op_template fits = op_with_template(6), too_long = op_with_template(7);
	u8 cur[PATCH_MAX_SITE_LEN], out[PATCH_MAX_SITE_LEN];

	CHECK(site.len == 6, "bare call site of %u bytes", site.len);
	patch_original(&env_generic, &site, &fits, cur);
	expect_refusal(&env_generic, &site, &too_long, PATCH_INLINE, cur,
		       PATCH_REFUSED_FIT, "7-byte template, 6-byte site");
	CHECK(patch_compute_site(&env_generic, &site, &fits, PATCH_INLINE, 0, cur, out) ==
	      PATCH_NEEDS_WRITE,
	      "6-byte template refused at a 6-byte site");
	CHECK_BYTES(out, fits.tpl, 6, "6-byte template");
	fits.tpl = NULL;		/* an op without a native template */
	expect_refusal(&env_generic, &site, &fits, PATCH_INLINE, cur,
		       PATCH_REFUSED_FIT, "no template");
}

/*
 * A site of 2 bytes cannot hold any original (the shortest, a bare call,
 * is 6), so the engine reports the bytes, not the fit, whatever they are:
 * it checks what is there before what would go there.
 */
static void site_shorter_than_any_call(void)
{
	struct paravirt_patch_site site = { SITE_ADDR, 19, 2, CLBR_ANY };
	struct op_template op = op_of(native_op("read_cr0"));	/* 3 bytes */
	static const u8 cur[2] = { 0xff, 0x15 };

	expect_refusal(&env_generic, &site, &op, PATCH_INLINE, cur,
		       PATCH_REFUSED_BYTES, "3-byte template, 2-byte site");
	expect_refusal(&env_generic, &site, &op, PATCH_DIRECT, cur,
		       PATCH_REFUSED_BYTES, "direct call, 2-byte site");
}

/* push $slot; call needs 7 bytes, and a slot that fits a signed byte. */
static void empty_stub_too_long(void)
{
	struct paravirt_patch_site site = call_site(SITE_ADDR, 19, CLBR_ANY);
	struct op_template op = op_of(native_op("irq_disable"));
	u8 cur[PATCH_MAX_SITE_LEN];

	patch_original(&env_generic, &site, &op, cur);
	expect_refusal(&env_generic, &site, &op, PATCH_EMPTY, cur,
		       PATCH_REFUSED_FIT, "empty-op stub, 6-byte site");
	site = call_site(SITE_ADDR, 128, CLBR_EAX);
	patch_original(&env_generic, &site, &op, cur);
	expect_refusal(&env_generic, &site, &op, PATCH_EMPTY, cur,
		       PATCH_REFUSED_FIT, "empty-op stub, slot 128");
}

/* Lengths the engine rejects before reading anything: out untouched. */
static void impossible_lengths(void)
{
	static const u8 len[] = { 0, PATCH_MAX_SITE_LEN + 1, 100, 255 };
	struct op_template op = op_of(native_op("irq_disable"));
	u8 cur[256], out[256], untouched[256];
	unsigned int i;

	memset(cur, 0x90, sizeof(cur));
	memset(untouched, 0xcc, sizeof(untouched));
	for (i = 0; i < sizeof(len); i++) {
		struct paravirt_patch_site site = { SITE_ADDR, 19, len[i], CLBR_EAX };
		enum patch_result r;

		memset(out, 0xcc, sizeof(out));
		r = patch_compute_site(&env_generic, &site, &op, PATCH_INLINE, 0, cur, out);
		CHECK(r == PATCH_REFUSED_FIT, "length %u: result %d", len[i], r);
		CHECK_BYTES(out, untouched, sizeof(out), "length out of range");
	}
}

/* A direct call is one byte shorter than the indirect one, a direct jump
 * two: it fits every site the build can emit. */
static void direct_always_fits(void)
{
	struct op_template op = op_of(native_op("irq_disable"));
	u8 cur[PATCH_MAX_SITE_LEN], out[PATCH_MAX_SITE_LEN];
	unsigned int clobbers;

	for (clobbers = 0; clobbers <= CLBR_ANY; clobbers++) {
		struct paravirt_patch_site site = call_site(SITE_ADDR, 19, clobbers);

		patch_original(&env_generic, &site, &op, cur);
		CHECK(patch_compute_site(&env_generic, &site, &op, PATCH_DIRECT, 0, cur, out) ==
		      PATCH_NEEDS_WRITE,
		      "direct call refused, clobbers %u", clobbers);
	}
}

void test_refuse_fit(void)
{
	template_too_long();
	site_shorter_than_any_call();
	empty_stub_too_long();
	impossible_lengths();
	direct_always_fits();
}

/* The kernel's own cases: a result in a register the site keeps. */
static void real_ops_at_saving_sites(void)
{
	struct paravirt_patch_site asm_site = call_site(SITE_ADDR, 16, CLBR_NONE);
	struct paravirt_patch_site c_site = call_site(SITE_ADDR, 26, CLBR_EAX);
	struct op_template save_fl = op_of(native_op("save_fl"));
	struct op_template read_tsc = op_of(native_op("read_tsc"));
	u8 cur[PATCH_MAX_SITE_LEN];

	patch_original(&env_generic, &asm_site, &save_fl, cur);
	expect_refusal(&env_generic, &asm_site, &save_fl, PATCH_INLINE, cur,
		       PATCH_REFUSED_FIT, "save_fl where EAX is kept");
	patch_original(&env_generic, &c_site, &read_tsc, cur);
	expect_refusal(&env_generic, &c_site, &read_tsc, PATCH_INLINE, cur,
		       PATCH_REFUSED_FIT, "rdtsc where EDX is kept");
}

/* Inlining drops the saves: only safe if the template writes nothing the
 * site keeps.  Every writes/clobbers pair, with a 1-byte template. */
void test_refuse_writes(void)
{
	u8 cur[PATCH_MAX_SITE_LEN], out[PATCH_MAX_SITE_LEN];
	unsigned int writes, clobbers;

	for (writes = 0; writes <= CLBR_ANY; writes++)
		for (clobbers = 0; clobbers <= CLBR_ANY; clobbers++) {
			struct paravirt_patch_site site = call_site(SITE_ADDR, 22, clobbers);
			struct op_template op = op_with_template(1);
			enum patch_result r;

			op.writes = writes;
			patch_original(&env_generic, &site, &op, cur);
			if (writes & ~clobbers) {
				expect_refusal(&env_generic, &site, &op, PATCH_INLINE, cur,
					       PATCH_REFUSED_FIT, "writes a saved register");
				continue;
			}
			r = patch_compute_site(&env_generic, &site, &op, PATCH_INLINE, 0,
					       cur, out);
			CHECK(r == PATCH_NEEDS_WRITE, "writes %u clobbers %u: result %d",
			      writes, clobbers, r);
		}
	real_ops_at_saving_sites();
}
