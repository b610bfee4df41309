/*
 * fuzz_patch.c - patch_compute_site on random sites, ops and bytes.
 *
 * Why: the hand-written tests cover the sites the kernel emits today; the
 * engine must also be safe for every record a future macro, a corrupt
 * .parainstructions or a half-patched site could present.  For each
 * random case the rules of asm/patch.h must hold:
 *   - nothing outside out[0..site->len) is written, nothing outside
 *     cur[0..site->len) or the template is read (guard bytes, and buffers
 *     that end at a PROT_NONE page; ASan and UBSan watch the rest);
 *   - a refusal leaves out equal to cur;
 *   - PATCH_NEEDS_WRITE only when cur was exactly the canonical original;
 *   - running again on the output finds PATCH_ALREADY_DONE and the same bytes.
 *
 * The seed is printed; rerun with `test_patch --seed N` or
 * PATCH_FUZZ_SEED=N to reproduce, PATCH_FUZZ_ITERS=N for more cases.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "check.h"

#define DEFAULT_ITERS	1000000
#define MAX_LEN		(PATCH_MAX_SITE_LEN + 8)	/* past it on purpose */
#define MAX_TPL		(PATCH_MAX_SITE_LEN + 4)
#define MAX_PRO		(PATCH_MAX_PROLOGUE + 2)	/* past it on purpose */
#define GUARD_LEN	16

enum page { CUR_PAGE, OUT_PAGE, TPL_PAGE };

/* ---- random numbers: splitmix64, small and well mixed ---- */

static u64 rng_state;

static u64 rnd(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static u32 below(u32 n)
{
	return rnd() % n;
}

static bool one_in(u32 n)
{
	return below(n) == 0;
}

/* Addresses near both ends of the space, where rel32 arithmetic wraps. */
static u32 random_addr(void)
{
	switch (below(4)) {
	case 0:  return below(64);
	case 1:  return -below(64);
	default: return rnd();
	}
}

static void random_bytes(u8 *p, unsigned int n)
{
	while (n--)
		*p++ = rnd();
}

/* ---- one case ---- */

enum cur_shape { CUR_ORIGINAL, CUR_MUTATED, CUR_RANDOM, CUR_PATCHED,
		 CUR_WRONG_LEN, NR_CUR_SHAPES };
static const char *const shape_names[] = {
	"original", "mutated", "random", "patched", "wrong-len",
};

struct fuzz_case {
	struct patch_env env;
	struct paravirt_patch_site site;
	struct op_template op;
	u8 tpl[MAX_TPL];
	u8 pro[MAX_PRO];
	enum patch_kind kind;
	u32 target;
	enum cur_shape shape;
	u8 cur[MAX_LEN];
	u8 orig[MAX_LEN];		/* canonical original ... */
	int orig_len;			/* ... and its length */
};

static void random_env(struct fuzz_case *c)
{
	bool p6 = one_in(2);

	c->env = p6 ? env_p6 : env_generic;
	c->env.table = one_in(2) ? TEST_TABLE : random_addr();
	c->env.poison = one_in(3);
}

/* Short templates mostly, as most ops have; now and then a prologue. */
static void random_op(struct fuzz_case *c)
{
	bool prologue = one_in(4);

	random_bytes(c->tpl, MAX_TPL);
	random_bytes(c->pro, MAX_PRO);
	c->op = (struct op_template){
		.name = "fuzz",
		.tpl = one_in(8) ? NULL : c->tpl,
		.tpl_len = one_in(4) ? below(MAX_TPL + 1) : below(13),
		.writes = one_in(16) ? (u8)rnd() : below(8),
		.jump = one_in(4),
		.prologue = prologue ? c->pro : NULL,
		.prologue_len = prologue ? below(MAX_PRO + 1) : 0,
	};
}

static void random_site(struct fuzz_case *c)
{
	c->site = (struct paravirt_patch_site){
		.instr = random_addr(),
		.slot = below(64),
		.len = below(MAX_LEN + 1),
		.clobbers = one_in(32) ? (u16)rnd() : below(8),
	};
}

/* Bytes for cur; for the realistic shapes the site length is the
 * original's, as the build would record it. */
static void random_cur(struct fuzz_case *c)
{
	unsigned int n, len;
	u8 out[PATCH_MAX_SITE_LEN];

	c->shape = below(NR_CUR_SHAPES);
	random_bytes(c->cur, MAX_LEN);
	len = patch_original(&c->env, &c->site, &c->op, c->orig);
	if (c->shape == CUR_RANDOM || len == 0)	/* 0: no original (a prologue
						   past PATCH_MAX_PROLOGUE) */
		return;
	if (c->shape != CUR_WRONG_LEN)
		c->site.len = len;
	memcpy(c->cur, c->orig, len < c->site.len ? len : c->site.len);
	if (c->shape == CUR_MUTATED)
		for (n = 1 + below(3); n--; )
			c->cur[below(c->site.len)] = rnd();
	if (c->shape == CUR_PATCHED &&
	    patch_compute_site(&c->env, &c->site, &c->op, c->kind, c->target, c->cur,
			       out) == PATCH_NEEDS_WRITE)
		memcpy(c->cur, out, c->site.len);
}

static void random_case(struct fuzz_case *c)
{
	random_env(c);
	random_op(c);
	random_site(c);
	c->kind = below(4);
	c->target = random_addr();
	random_cur(c);
	c->orig_len = patch_original(&c->env, &c->site, &c->op, c->orig);
}

static bool cur_is_original(const struct fuzz_case *c)
{
	return c->orig_len == c->site.len && !memcmp(c->cur, c->orig, c->site.len);
}

/* Enough to rebuild the case by hand from a failure message. */
static const char *describe(const struct fuzz_case *c)
{
	static char buf[1024];

	snprintf(buf, sizeof(buf),
		 "seed %#llx: site instr=%08x slot=%u len=%u clobbers=%#x; "
		 "op tpl=%s [%s] pro [%s] writes=%#x jump=%d; kind %d target %08x; "
		 "env table=%08x %s poison=%d; cur (%s) [%s]",
		 fuzz_seed, c->site.instr, c->site.slot, c->site.len, c->site.clobbers,
		 c->op.tpl ? "set" : "NULL", hex(c->tpl, c->op.tpl_len),
		 hex(c->pro, c->op.prologue_len), c->op.writes, c->op.jump, c->kind, c->target, c->env.table,
		 c->env.nops == p6_nops ? "p6" : "generic", c->env.poison,
		 shape_names[c->shape], hex(c->cur, c->site.len));
	return buf;
}

/* ---- where the buffers live ---- */

/* out: in the middle of guard bytes, or ending at a PROT_NONE page. */
struct out_buf {
	u8 plain[GUARD_LEN + MAX_LEN + GUARD_LEN];
	u8 *out;
	bool paged;		/* out ends at a PROT_NONE page */
	u8 guard;
};

static void place_out(struct out_buf *b, unsigned int len)
{
	b->guard = rnd();
	memset(b->plain, b->guard, sizeof(b->plain));
	b->paged = one_in(4);
	if (b->paged) {
		b->out = guarded_page(OUT_PAGE) + guarded_size - len;
		memset(b->out, b->guard, len);
	} else {
		b->out = b->plain + GUARD_LEN;
	}
}

/* In a page, the next byte is unmapped: a write there has crashed. */
static bool guards_intact(const struct out_buf *b, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < sizeof(b->plain) && !b->paged; i++)
		if ((i < GUARD_LEN || i >= GUARD_LEN + len) && b->plain[i] != b->guard)
			return false;
	return true;
}

static bool untouched(const struct out_buf *b, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		if (b->out[i] != b->guard)
			return false;
	return true;
}

/* cur and the template at a page edge sometimes: reads past them crash. */
static const u8 *place_cur(const struct fuzz_case *c)
{
	u8 *p;

	switch (below(4)) {
	case 0:  p = guarded_page(CUR_PAGE) + guarded_size - c->site.len; break;
	case 1:  p = guarded_page(CUR_PAGE); break;
	default: return c->cur;
	}
	memcpy(p, c->cur, c->site.len);
	return p;
}

static void place_tpl(struct fuzz_case *c)
{
	u8 *p;

	if (!c->op.tpl || !one_in(4))
		return;
	p = guarded_page(TPL_PAGE) + guarded_size - c->op.tpl_len;
	memcpy(p, c->op.tpl, c->op.tpl_len);
	c->op.tpl = p;
}

/* ---- the rules ---- */

static void check_second_run(const struct fuzz_case *c, const u8 *first)
{
	u8 out[MAX_LEN];
	struct out_buf b;
	enum patch_result r;

	memcpy(out, first, c->site.len);	/* first may be where b goes */
	place_out(&b, c->site.len);
	r = patch_compute_site(&c->env, &c->site, &c->op, c->kind, c->target, out, b.out);
	CHECK(r == PATCH_ALREADY_DONE, "second run gave %d, out [%s]; %s", r,
	      hex(out, c->site.len), describe(c));
	CHECK(!memcmp(b.out, out, c->site.len) && guards_intact(&b, c->site.len),
	      "second run changed [%s] to [%s]; %s", hex(out, c->site.len),
	      hex(b.out, c->site.len), describe(c));
}

static void check_result(const struct fuzz_case *c, enum patch_result r,
			 const struct out_buf *b)
{
	unsigned int len = c->site.len;
	bool in_range = len >= 1 && len <= PATCH_MAX_SITE_LEN;

	CHECK(guards_intact(b, len), "wrote outside out[0..%u); %s", len, describe(c));
	if (!in_range) {
		/* Left alone before anything is read; out was never filled. */
		CHECK(r == PATCH_REFUSED_FIT && untouched(b, len),
		      "length %u: result %d; %s", len, r, describe(c));
		return;
	}
	if (r == PATCH_NEEDS_WRITE)
		CHECK(cur_is_original(c), "PATCH_NEEDS_WRITE on a non-original site; %s",
		      describe(c));
	else
		CHECK(!memcmp(b->out, c->cur, len), "result %d but out [%s] != cur; %s",
		      r, hex(b->out, len), describe(c));
	if (r == PATCH_REFUSED_BYTES)
		CHECK(!cur_is_original(c), "the original refused as wrong bytes; %s",
		      describe(c));
	if (r == PATCH_REFUSED_FIT)
		CHECK(cur_is_original(c), "non-original refused for fit; %s", describe(c));
	if (r == PATCH_NEEDS_WRITE || r == PATCH_ALREADY_DONE)
		check_second_run(c, b->out);
}

/* The registers a call site saves: those it may not clobber (none at a
 * callee-save site). */
static unsigned int saved_count(u16 clobbers)
{
	unsigned int r, n = 0;

	if (clobbers & CLBR_CALLEE_SAVE)
		return 0;
	for (r = 0; r < 3; r++)
		n += !(clobbers & (1 << r));
	return n;
}

/* A few things a PATCH_NEEDS_WRITE site must visibly be, per kind. */
static void check_done_shape(const struct fuzz_case *c, const u8 *out)
{
	u32 at = c->site.instr;

	switch (c->kind) {
	case PATCH_INLINE:
		CHECK(!memcmp(out, c->op.tpl, c->op.tpl_len), "template missing; %s",
		      describe(c));
		break;
	case PATCH_DIRECT:
		if (c->op.jump) {
			CHECK(out[0] == 0xe9 && get32(out + 1) == c->target - (at + 5),
			      "bad jmp rel32 [%s]; %s", hex(out, c->site.len), describe(c));
		} else {
			unsigned int call = saved_count(c->site.clobbers) + c->op.prologue_len;

			CHECK(out[call] == 0xe8 &&
			      get32(out + call + 1) == c->target - (at + call + 5),
			      "bad call rel32 [%s]; %s", hex(out, c->site.len), describe(c));
		}
		break;
	case PATCH_EMPTY:
		CHECK(out[0] == 0x6a && out[1] == c->site.slot && out[2] == 0xe8 &&
		      get32(out + 3) == c->target - (at + 7),
		      "bad stub call [%s]; %s", hex(out, c->site.len), describe(c));
		break;
	case PATCH_NOPS:
		break;
	}
}

static void run_case(struct fuzz_case *c, unsigned int *results)
{
	struct out_buf b;
	const u8 *cur;
	enum patch_result r;

	place_tpl(c);
	place_out(&b, c->site.len);
	cur = place_cur(c);
	r = patch_compute_site(&c->env, &c->site, &c->op, c->kind, c->target, cur, b.out);
	if (r > PATCH_REFUSED_FIT) {
		CHECK(0, "result %d is no enum patch_result; %s", r, describe(c));
		return;
	}
	results[r]++;
	if (r == PATCH_NEEDS_WRITE)
		check_done_shape(c, b.out);
	check_result(c, r, &b);	/* last: its second run reuses the pages */
}

static unsigned long iterations(void)
{
	const char *s = getenv("PATCH_FUZZ_ITERS");

	return s ? strtoul(s, NULL, 0) : DEFAULT_ITERS;
}

void test_fuzz(void)
{
	unsigned int results[4] = { 0 };
	unsigned long i, n = iterations();
	clock_t start = clock();
	struct fuzz_case c;

	rng_state = fuzz_seed;
	printf("fuzz: seed %#llx (rerun: test_patch --seed %#llx), %lu cases\n",
	       fuzz_seed, fuzz_seed, n);
	for (i = 0; i < n && check_failures() < 10; i++) {
		random_case(&c);
		run_case(&c, results);
	}
	printf("fuzz: %u need a write, %u already done, %u refused (bytes), "
	       "%u refused (fit) in %.2f s\n",
	       results[PATCH_NEEDS_WRITE], results[PATCH_ALREADY_DONE],
	       results[PATCH_REFUSED_BYTES], results[PATCH_REFUSED_FIT],
	       (double)(clock() - start) / CLOCKS_PER_SEC);
	/* A fuzzer that never reaches a branch tests nothing there. */
	if (n >= 10000 && !check_failures())
		CHECK(results[0] && results[1] && results[2] && results[3],
		      "some result never happened: %u %u %u %u",
		      results[0], results[1], results[2], results[3]);
}
