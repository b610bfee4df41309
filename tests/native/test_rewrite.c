/*
 * test_rewrite.c - what each kind of patch writes, other than inlining:
 * direct calls and jumps, all-NOP sites, the empty-op stub call, the
 * pvdebug register poisoning; and that patching twice changes nothing.
 *
 * Why: a rel32 off by the length of a push lands the CPU mid-instruction;
 * a NOP site for an op that returns something leaves garbage in EAX;
 * poisoning a register the op wrote destroys its result.  And the kernel
 * re-plans patched sites (patchlog, a second paravirt_patch_all), which
 * must recognise its own work instead of refusing or redoing it.
 */
#include <string.h>
#include "check.h"

#define PUT32(v)	(u8)(v), (u8)((v) >> 8), (u8)((v) >> 16), (u8)((v) >> 24)

static const enum patch_kind kinds[] = { PATCH_INLINE, PATCH_NOPS, PATCH_DIRECT, PATCH_EMPTY };

/* Patch the op's canonical site into out; return the result. */
static enum patch_result patch_fresh(const struct patch_env *env,
				     const struct paravirt_patch_site *site,
				     const struct op_template *op, enum patch_kind kind,
				     u32 target, u8 *out)
{
	u8 cur[PATCH_MAX_SITE_LEN];

	patch_original(env, site, op, cur);
	return patch_compute_site(env, site, op, kind, target, cur, out);
}

/* Expected bytes = prefix, then the padding to len (helpers.c). */
static void want_then_padding(const struct patch_env *env, u8 *want,
			      const u8 *prefix, unsigned int n, unsigned int len)
{
	if (n)
		memcpy(want, prefix, n);
	want_padding(env, want + n, len - n);
}

/* ---- PATCH_DIRECT ---- */

static void check_direct_call(u32 instr, u32 target, u16 clobbers)
{
	struct paravirt_patch_site site = call_site(instr, 19, clobbers);
	struct op_template op = op_of(native_op("irq_disable"));
	u8 orig[PATCH_MAX_SITE_LEN], out[PATCH_MAX_SITE_LEN], want[PATCH_MAX_SITE_LEN];
	unsigned int pushes = (site.len - 6) / 2;
	u32 after_call = instr + pushes + 5;
	u32 rel = target - after_call;
	enum patch_result r = patch_fresh(&env_generic, &site, &op, PATCH_DIRECT,
					  target, out);
	char what[64];

	/* The saves stay, since the function called is C; the call is one
	 * byte shorter than ff 15 abs32, so one NOP ends the site. */
	patch_original(&env_generic, &site, &op, orig);
	memcpy(want, orig, pushes);
	want[pushes] = 0xe8;
	memcpy(want + pushes + 1, (u8[]){ PUT32(rel) }, 4);
	memcpy(want + pushes + 5, orig + pushes + 6, pushes);
	want[site.len - 1] = 0x90;
	snprintf(what, sizeof(what), "call at %08x to %08x", instr, target);
	CHECK(r == PATCH_NEEDS_WRITE, "%s: result %d", what, r);
	CHECK_BYTES(out, want, site.len, what);
	/* As the CPU computes it: the next instruction plus the signed rel. */
	CHECK(after_call + (s32)get32(out + pushes + 1) == target, "%s: lands at %08x",
	      what, after_call + (s32)get32(out + pushes + 1));
}

static void check_direct_jump(const struct patch_env *env, u32 instr, u32 target)
{
	struct paravirt_patch_site site = jump_site(instr, 41);
	struct op_template op = op_of(native_op("iret"));
	u8 out[PATCH_MAX_SITE_LEN], want[PATCH_MAX_SITE_LEN];
	u8 jmp[5] = { 0xe9, PUT32(target - (instr + 5)) };
	enum patch_result r = patch_fresh(env, &site, &op, PATCH_DIRECT, target, out);
	char what[64];

	want_then_padding(env, want, jmp, 5, site.len);
	snprintf(what, sizeof(what), "jmp at %08x to %08x", instr, target);
	CHECK(r == PATCH_NEEDS_WRITE, "%s: result %d", what, r);
	CHECK_BYTES(out, want, site.len, what);
}

/* A few direct calls and jumps with every byte written out by hand, so
 * that the rel32 is not checked only by the formula the engine uses. */
struct direct_case {
	const char *what;
	bool jump;
	u16 clobbers;
	u32 instr, target;
	u8 len;
	u8 bytes[12];
};

static const struct direct_case direct_cases[] = {
	/* 0x104000 - (0x101234 + 2 pushes + 5) = 0x2dc5 */
	{ "call forwards", false, CLBR_EAX, 0x00101234, 0x00104000, 10,
	  { 0x51, 0x52, 0xe8, 0xc5, 0x2d, 0x00, 0x00, 0x5a, 0x59, 0x90 } },
	/* 0x100000 - 0x10123b = -0x123b */
	{ "call backwards", false, CLBR_EAX, 0x00101234, 0x00100000, 10,
	  { 0x51, 0x52, 0xe8, 0xc5, 0xed, 0xff, 0xff, 0x5a, 0x59, 0x90 } },
	/* three pushes: 0x104000 - 0x10123c = 0x2dc4 */
	{ "call keeping EAX", false, CLBR_NONE, 0x00101234, 0x00104000, 12,
	  { 0x50, 0x51, 0x52, 0xe8, 0xc4, 0x2d, 0x00, 0x00, 0x5a, 0x59, 0x58, 0x90 } },
	/* past 4 GiB: 0x10 - 0xfffffff7 wraps to 0x19 */
	{ "call wrapping", false, CLBR_EAX, 0xfffffff0, 0x00000010, 10,
	  { 0x51, 0x52, 0xe8, 0x19, 0x00, 0x00, 0x00, 0x5a, 0x59, 0x90 } },
	/* 0x104000 - (0x101234 + 5) = 0x2dc7, then a 2-byte NOP */
	{ "jump", true, CLBR_ANY, 0x00101234, 0x00104000, 7,
	  { 0xe9, 0xc7, 0x2d, 0x00, 0x00, 0x89, 0xf6 } },
};

static void check_direct_known_bytes(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(direct_cases) / sizeof(direct_cases[0]); i++) {
		const struct direct_case *c = &direct_cases[i];
		struct paravirt_patch_site site = c->jump ? jump_site(c->instr, 41)
					 : call_site(c->instr, 19, c->clobbers);
		struct op_template op = op_of(native_op(c->jump ? "iret" : "irq_disable"));
		u8 out[PATCH_MAX_SITE_LEN];
		enum patch_result r = patch_fresh(&env_generic, &site, &op, PATCH_DIRECT,
						  c->target, out);

		CHECK(site.len == c->len, "%s: site of %u bytes, want %u", c->what,
		      site.len, c->len);
		CHECK(r == PATCH_NEEDS_WRITE, "%s: result %d", c->what, r);
		CHECK_BYTES(out, c->bytes, c->len, c->what);
	}
}

/* A site sized to its template keeps its prologue before the direct
 * call, and jumps over the rest: load_tls's 59 bytes, written out. */
static void check_direct_sized(void)
{
	const struct native_op *n = native_op("load_tls");
	struct paravirt_patch_site site = site_of(n, 0x00101234);
	struct op_template op = op_of(n);
	u8 out[PATCH_MAX_SITE_LEN], want[PATCH_MAX_SITE_LEN];
	/* 0x104000 - (0x101234 + 2 + 5) = 0x2dc5 */
	static const u8 call[] = { 0x89, 0xd8, 0xe8, 0xc5, 0x2d, 0x00, 0x00, 0xeb, 59 - 9 };
	enum patch_result r = patch_fresh(&env_p6, &site, &op, PATCH_DIRECT, 0x00104000, out);

	memcpy(want, call, sizeof(call));
	memset(want + sizeof(call), 0xcc, site.len - sizeof(call));
	CHECK(site.len == 59, "load_tls site of %u bytes", site.len);
	CHECK(r == PATCH_NEEDS_WRITE, "load_tls direct: result %d", r);
	CHECK_BYTES(out, want, site.len, "load_tls direct");
}

void test_direct(void)
{
	check_direct_known_bytes();
	check_direct_sized();
	/* Near 0, mid-space, and sites that end at or wrap past 4 GiB. */
	static const u32 addrs[] = { 0x00000000, 0x00000010, 0x00101234, 0x7ffffff8,
				     0x80000000, 0xfffffff0, 0xfffffff6, 0xfffffffe };
	unsigned int i, clobbers;

	for (i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
		u32 a = addrs[i];
		const u32 targets[] = { a + 0x1000, a - 0x1000, a, 0, 0xffffffff, 0x00104000 };
		unsigned int t;

		for (t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
			check_direct_call(a, targets[t], CLBR_EAX);
			check_direct_jump(&env_generic, a, targets[t]);
			check_direct_jump(&env_p6, a, targets[t]);
		}
	}
	/* The call moves with the number of pushes before it. */
	for (clobbers = 0; clobbers <= CLBR_ANY; clobbers++) {
		check_direct_call(0x00101234, 0x00100000, clobbers);	/* backwards */
		check_direct_call(0x00101234, 0x00200000, clobbers);
	}
}

/* ---- PATCH_NOPS ---- */

static void check_all_nops(const struct patch_env *env, u16 clobbers)
{
	struct paravirt_patch_site site = call_site(0x00101234, 19, clobbers);
	struct op_template op = op_of(native_op("irq_disable"));
	u8 out[PATCH_MAX_SITE_LEN], want[PATCH_MAX_SITE_LEN];
	enum patch_result r = patch_fresh(env, &site, &op, PATCH_NOPS, 0, out);

	want_then_padding(env, want, NULL, 0, site.len);
	CHECK(r == PATCH_NEEDS_WRITE, "clobbers %u: result %d", clobbers, r);
	CHECK_BYTES(out, want, site.len, "all NOPs");
}

/* An op with a result, or one reached by a jump, cannot vanish. */
static void check_nops_refused(const char *name)
{
	const struct native_op *n = native_op(name);
	struct paravirt_patch_site site = site_of(n, 0x00101234);
	struct op_template op = op_of(n);
	u8 cur[PATCH_MAX_SITE_LEN], out[PATCH_MAX_SITE_LEN];
	enum patch_result r;

	patch_original(&env_generic, &site, &op, cur);
	r = patch_compute_site(&env_generic, &site, &op, PATCH_NOPS, 0, cur, out);
	CHECK(r == PATCH_REFUSED_FIT, "%s as NOPs: result %d", name, r);
	CHECK_BYTES(out, cur, site.len, name);
}

void test_nops_kind(void)
{
	static const u8 generic_10[] = { 0xeb, 0x08, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
					 0xcc, 0xcc };
	static const u8 p6_10[] = { 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0 };
	struct paravirt_patch_site site = call_site(0x00101234, 19, CLBR_EAX);
	struct op_template op = op_of(native_op("irq_disable"));
	u8 out[PATCH_MAX_SITE_LEN];
	unsigned int clobbers;

	patch_fresh(&env_generic, &site, &op, PATCH_NOPS, 0, out);
	CHECK_BYTES(out, generic_10, 10, "10-byte site, generic");
	patch_fresh(&env_p6, &site, &op, PATCH_NOPS, 0, out);
	CHECK_BYTES(out, p6_10, 10, "10-byte site, P6");
	for (clobbers = 0; clobbers <= CLBR_ANY; clobbers++) {
		check_all_nops(&env_generic, clobbers);
		check_all_nops(&env_p6, clobbers);
	}
	check_nops_refused("save_fl");
	check_nops_refused("read_tsc");
	check_nops_refused("iret");
	check_nops_refused("irq_enable_sysexit");
}

/* ---- PATCH_EMPTY ---- */

static void check_empty(const struct patch_env *env, const struct paravirt_patch_site *site,
		       bool jump, u32 stub)
{
	struct op_template op = { .name = "empty", .jump = jump };
	u8 out[PATCH_MAX_SITE_LEN], want[PATCH_MAX_SITE_LEN];
	u8 call[7] = { 0x6a, site->slot, 0xe8, PUT32(stub - (site->instr + 7)) };
	enum patch_result r = patch_fresh(env, site, &op, PATCH_EMPTY, stub, out);
	char what[64];

	want_then_padding(env, want, call, 7, site->len);
	snprintf(what, sizeof(what), "slot %u at %08x, %u bytes", site->slot,
		 site->instr, site->len);
	CHECK(r == PATCH_NEEDS_WRITE, "%s: result %d", what, r);
	CHECK_BYTES(out, want, site->len, what);
}

void test_empty_kind(void)
{
	static const u8 slot19[10] = { 0x6a, 0x13, 0xe8, PUT32(0x00100800 - 0x00101234 - 7),
				       0x8d, 0x76, 0x00 };
	struct paravirt_patch_site site = call_site(0x00101234, 19, CLBR_EAX);
	struct op_template op = { .name = "empty" };
	u8 out[PATCH_MAX_SITE_LEN];
	unsigned int clobbers;

	patch_fresh(&env_generic, &site, &op, PATCH_EMPTY, 0x00100800, out);
	CHECK_BYTES(out, slot19, 10, "push $19; call stub");
	for (clobbers = 0; clobbers < CLBR_ANY; clobbers++) {	/* 6 bytes: too short */
		struct paravirt_patch_site s = call_site(0xfffffff8, 127, clobbers);

		check_empty(&env_generic, &s, false, 0x00100800);
		check_empty(&env_p6, &s, false, 0x00100800);
	}
	site = jump_site(0x00101234, 41);	/* exactly 7 bytes: no NOPs */
	check_empty(&env_p6, &site, true, 0x00100800);
}

/* ---- pvdebug poisoning ---- */

struct poison_case {
	const char *op;
	enum patch_kind kind;
	u16 clobbers;
	u8 len;
	u8 bytes[12];
};

/* b8+r imm32 is `mov $PATCH_POISON, %reg`: EAX 0, ECX 1, EDX 2, in that
 * order while they fit.  Generic NOPs. */
#define MOV_POISON(r)	0xb8 + (r), PUT32(PATCH_POISON)

static const struct poison_case poison_cases[] = {
	{ "irq_disable", PATCH_INLINE, CLBR_EAX, 10,
	  { 0xfa, MOV_POISON(0), 0x8d, 0x74, 0x26, 0x00 } },
	{ "write_cr3", PATCH_INLINE, CLBR_EAX, 10,	/* its argument is lost */
	  { 0x0f, 0x22, 0xd8, MOV_POISON(0), 0x89, 0xf6 } },
	{ "save_fl", PATCH_INLINE, CLBR_EAX, 10,	/* EAX is its result */
	  { 0x9c, 0x58, 0x3e, 0x8d, 0xb4, 0x26, 0, 0, 0, 0 } },
	{ "read_tsc", PATCH_INLINE, CLBR_EAX | CLBR_EDX, 8,
	  { 0x0f, 0x31, 0x8d, 0xb6, 0, 0, 0, 0 } },
	{ "read_cr0", PATCH_INLINE, CLBR_EAX | CLBR_EDX, 8,
	  { 0x0f, 0x20, 0xc0, MOV_POISON(2) } },
	{ "irq_disable", PATCH_INLINE, CLBR_EAX | CLBR_EDX, 8,	/* no room for EDX */
	  { 0xfa, MOV_POISON(0), 0x89, 0xf6 } },
	{ "irq_disable", PATCH_INLINE, CLBR_ECX | CLBR_EDX, 8,
	  { 0xfa, MOV_POISON(1), 0x89, 0xf6 } },
	{ "irq_disable", PATCH_INLINE, CLBR_ANY, 6,
	  { 0xfa, MOV_POISON(0) } },
	{ "iret", PATCH_INLINE, CLBR_ANY, 7,		/* nothing returns there */
	  { 0xcf, 0x8d, 0xb6, 0, 0, 0, 0 } },
	{ "irq_disable", PATCH_NOPS, CLBR_EAX, 10,
	  { MOV_POISON(0), 0x3e, 0x8d, 0x74, 0x26, 0x00 } },
	{ "irq_disable", PATCH_NOPS, CLBR_ANY, 6,
	  { MOV_POISON(0), 0x90 } },
	{ "irq_disable", PATCH_NOPS, CLBR_NONE, 12,	/* a jmp past 9 bytes */
	  { 0xeb, 0x0a, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc } },
	{ "irq_disable", PATCH_DIRECT, CLBR_EAX, 10,	/* the callee may clobber */
	  { 0x51, 0x52, 0xe8, PUT32(0x00104000 - 0x00101234 - 7), 0x5a, 0x59, 0x90 } },
};

/* After the template: a poisoning mov for each clobbered-but-not-written
 * register, in order, while one fits; then the padding. */
static void check_poison_shape(const struct native_op *n, u16 clobbers)
{
	struct paravirt_patch_site site = site_clobbering(n, 0x00101234, clobbers);
	struct op_template op = op_of(n);
	struct patch_env env = env_generic;
	u8 out[PATCH_MAX_SITE_LEN];
	unsigned int at = n->want_len, r;

	env.poison = true;
	if (patch_fresh(&env, &site, &op, PATCH_INLINE, 0, out) != PATCH_NEEDS_WRITE)
		return;		/* refused: test_refuse_writes covers that */
	for (r = 0; r < 3; r++) {
		if (!(clobbers & ~n->writes & (1 << r)) || at + 5 > site.len)
			continue;
		CHECK(out[at] == 0xb8 + r && get32(out + at + 1) == PATCH_POISON,
		      "%s clobbers %u: want mov to reg %u at %u: [%s]", n->name,
		      clobbers, r, at, hex(out, site.len));
		at += 5;
	}
	CHECK(is_padding(&env, out + at, site.len - at), "%s clobbers %u: no padding at %u: [%s]",
	      n->name, clobbers, at, hex(out, site.len));
}

void test_poison(void)
{
	struct patch_env env = env_generic;
	unsigned int i, clobbers;

	env.poison = true;
	for (i = 0; i < sizeof(poison_cases) / sizeof(poison_cases[0]); i++) {
		const struct poison_case *c = &poison_cases[i];
		const struct native_op *n = native_op(c->op);
		struct paravirt_patch_site site = n->jump ? jump_site(0x00101234, n->slot)
					 : call_site(0x00101234, n->slot, c->clobbers);
		struct op_template op = op_of(n);
		u8 out[PATCH_MAX_SITE_LEN];
		enum patch_result r = patch_fresh(&env, &site, &op, c->kind, 0x00104000, out);

		CHECK(site.len == c->len, "%s: site of %u bytes", c->op, site.len);
		CHECK(r == PATCH_NEEDS_WRITE, "%s: result %d", c->op, r);
		CHECK_BYTES(out, c->bytes, c->len, c->op);
	}
	for (i = 0; i < nr_native_ops; i++) {
		if (native_ops[i].jump)
			continue;
		for (clobbers = 0; clobbers <= CLBR_ANY; clobbers++)
			check_poison_shape(&native_ops[i], clobbers);
	}
}

/* ---- idempotence ---- */

/* A second run on the output finds its own work, and a third agrees. */
static void check_twice(const struct patch_env *env, const struct paravirt_patch_site *site,
			const struct op_template *op, enum patch_kind kind, unsigned int *done)
{
	u8 once[PATCH_MAX_SITE_LEN], twice[PATCH_MAX_SITE_LEN];
	enum patch_result r1 = patch_fresh(env, site, op, kind, 0x00104000, once), r2;

	r2 = patch_compute_site(env, site, op, kind, 0x00104000, once, twice);
	if (r1 == PATCH_NEEDS_WRITE) {
		(*done)++;
		CHECK(r2 == PATCH_ALREADY_DONE, "%s kind %d clobbers %u: second run %d",
		      op->name, kind, site->clobbers, r2);
	} else {
		CHECK(r2 == r1, "%s kind %d: refused %d, then %d", op->name, kind, r1, r2);
	}
	CHECK_BYTES(twice, once, site->len, op->name);
}

void test_idempotent(void)
{
	const struct patch_env *envs[] = { &env_generic, &env_p6 };
	unsigned int i, e, k, clobbers, done = 0;

	for (i = 0; i < nr_native_ops; i++) {
		const struct native_op *n = &native_ops[i];
		struct op_template op = op_of(n);

		for (e = 0; e < 4; e++) {
			struct patch_env env = *envs[e % 2];

			env.poison = e >= 2;
			for (k = 0; k < 4; k++)
				for (clobbers = 0; clobbers <= CLBR_ANY; clobbers++) {
					struct paravirt_patch_site site =
						site_clobbering(n, 0x00101234, clobbers);

					check_twice(&env, &site, &op, kinds[k], &done);
				}
		}
	}
	CHECK(done > nr_native_ops * 4, "only %u sites were patched at all", done);
}
