/*
 * test_templates.c - the exact bytes around an inlined op: the indirect
 * call or jump the build emits (what the engine must recognise), with
 * its prologue and the padding of a site sized to its template, each
 * native template and prologue, and the whole site after PATCH_INLINE.
 *
 * Why exact bytes: a template one byte off is still "some instruction",
 * and a site that decodes differently from what the build recorded would
 * be rewritten mid-instruction.  The expectations are spelled out here in
 * hex from the instruction set, never taken from the code under test.
 */
#include <string.h>
#include "check.h"

#define SITE_ADDR	0x00101234u	/* somewhere in a kernel linked at 1 MiB */

/* The little-endian bytes of paravirt_ops + 4 * slot. */
#define SLOT_ADDR(slot)	SLOT_BYTES(TEST_TABLE + 4 * (slot))
#define SLOT_BYTES(a)	(u8)(a), (u8)((a) >> 8), (u8)((a) >> 16), (u8)((a) >> 24)

struct original_case {
	const char *what;
	bool jump;
	u16 clobbers;
	u8 len;			/* the record's: more than the call is padding */
	u8 bytes[24];
	const u8 *prologue;
	u8 prologue_len;
};

static const u8 mov_ebx_eax[] = { 0x89, 0xd8 };

/* Pushes in EAX, ECX, EDX order, pops in reverse: a stack discipline.
 * The build pads a sized site with a nop (one byte) or a jmp rel8 to
 * the site's end over int3 filler (more). */
static const struct original_case originals[] = {
	{ "asm site saving all (CLBR_NONE)", false, CLBR_NONE, 12,
	  { 0x50, 0x51, 0x52, 0xff, 0x15, SLOT_ADDR(19), 0x5a, 0x59, 0x58 }, NULL, 0 },
	{ "C site returning in EAX (CLBR_EAX)", false, CLBR_EAX, 10,
	  { 0x51, 0x52, 0xff, 0x15, SLOT_ADDR(19), 0x5a, 0x59 }, NULL, 0 },
	{ "read_tsc site (CLBR_EAX|CLBR_EDX)", false, CLBR_EAX | CLBR_EDX, 8,
	  { 0x51, 0xff, 0x15, SLOT_ADDR(19), 0x59 }, NULL, 0 },
	{ "site saving EAX only (CLBR_ECX|CLBR_EDX)", false, CLBR_ECX | CLBR_EDX, 8,
	  { 0x50, 0xff, 0x15, SLOT_ADDR(19), 0x58 }, NULL, 0 },
	{ "bare call (CLBR_ANY)", false, CLBR_ANY, 6,
	  { 0xff, 0x15, SLOT_ADDR(19) }, NULL, 0 },
	{ "jump site (jmp *%cs:abs32)", true, CLBR_ANY, 7,
	  { 0x2e, 0xff, 0x25, SLOT_ADDR(19) }, NULL, 0 },
	{ "bare call sized to 7: a nop", false, CLBR_ANY, 7,
	  { 0xff, 0x15, SLOT_ADDR(19), 0x90 }, NULL, 0 },
	{ "bare call sized to 8: jmp over nothing", false, CLBR_ANY, 8,
	  { 0xff, 0x15, SLOT_ADDR(19), 0xeb, 0x00 }, NULL, 0 },
	{ "saving ECX, sized to 13", false, CLBR_EAX | CLBR_EDX, 13,
	  { 0x51, 0xff, 0x15, SLOT_ADDR(19), 0x59, 0xeb, 0x03, 0xcc, 0xcc, 0xcc }, NULL, 0 },
	{ "prologue (mov %ebx,%eax), bare call", false, CLBR_ANY, 8,
	  { 0x89, 0xd8, 0xff, 0x15, SLOT_ADDR(19) }, mov_ebx_eax, 2 },
	{ "prologue after the pushes, sized to 16", false, CLBR_EAX, 16,
	  { 0x51, 0x52, 0x89, 0xd8, 0xff, 0x15, SLOT_ADDR(19), 0x5a, 0x59,
	    0xeb, 0x02, 0xcc, 0xcc }, mov_ebx_eax, 2 },
};

static struct paravirt_patch_site original_site(const struct original_case *c)
{
	struct paravirt_patch_site site = c->jump ? jump_site(SITE_ADDR, 19)
				 : call_site(SITE_ADDR, 19, c->clobbers);

	site.len = c->len;
	return site;
}

/* patch_original writes exactly the original, and not a byte more. */
void test_original_bytes(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(originals) / sizeof(originals[0]); i++) {
		const struct original_case *c = &originals[i];
		struct paravirt_patch_site site = original_site(c);
		struct op_template op = { .name = c->what, .jump = c->jump,
				       .prologue = c->prologue,
				       .prologue_len = c->prologue_len };
		u8 out[PATCH_MAX_SITE_LEN + 8];
		int n;

		memset(out, 0xa5, sizeof(out));
		n = patch_original(&env_generic, &site, &op, out);
		CHECK(n == c->len, "%s: length %d, want %u", c->what, n, c->len);
		CHECK_BYTES(out, c->bytes, c->len, c->what);
		CHECK(out[c->len] == 0xa5, "%s: wrote past the original", c->what);
	}
}

/* A record shorter than the call is no original of it; a prologue
 * longer than any is refused before a byte is written. */
void test_original_mismatch(void)
{
	struct paravirt_patch_site site = call_site(SITE_ADDR, 19, CLBR_EAX);
	u8 long_prologue[PATCH_MAX_PROLOGUE + 1] = { 0 };
	struct op_template op = { .name = "made-up" };
	u8 out[PATCH_MAX_SITE_LEN];

	site.len = 9;
	CHECK(patch_original(&env_generic, &site, &op, out) == 10,
	      "9-byte record: the call is still 10 bytes");
	op.prologue = long_prologue;
	op.prologue_len = sizeof(long_prologue);
	site.len = 40;
	memset(out, 0xa5, sizeof(out));
	CHECK(patch_original(&env_generic, &site, &op, out) == 0 && out[0] == 0xa5,
	      "a %u-byte prologue was accepted", op.prologue_len);
}

/* Each template symbol holds exactly the native instruction(s). */
void test_template_bytes(void)
{
	unsigned int i;

	for (i = 0; i < nr_native_ops; i++) {
		const struct native_op *n = &native_ops[i];
		unsigned int len = n->end - n->start;

		CHECK(len == n->want_len, "tpl_%s is %u bytes, want %u",
		      n->name, len, n->want_len);
		if (len == n->want_len)
			CHECK_BYTES(n->start, n->want, len, n->name);
		len = n->pro_end - n->pro_start;
		CHECK(len == n->want_pro_len, "pro_%s is %u bytes, want %u",
		      n->name, len, n->want_pro_len);
		if (len && len == n->want_pro_len)
			CHECK_BYTES(n->pro_start, n->want_pro, len, n->name);
	}
}

/* One op at its usual site, inlined: the template, then one padding
 * instruction (a NOP for up to 9 spare bytes on any CPU, 11 on a P6,
 * else a jmp over the rest). */
static void check_inline_site(const struct native_op *n, const struct patch_env *env)
{
	struct paravirt_patch_site site = site_of(n, SITE_ADDR);
	struct op_template op = op_of(n);
	u8 cur[PATCH_MAX_SITE_LEN], out[PATCH_MAX_SITE_LEN], want[PATCH_MAX_SITE_LEN];
	unsigned int spare = site.len - n->want_len;
	enum patch_result r;
	char what[64];

	patch_original(env, &site, &op, cur);
	memcpy(want, n->want, n->want_len);
	want_padding(env, want + n->want_len, spare);
	r = patch_compute_site(env, &site, &op, PATCH_INLINE, 0, cur, out);
	snprintf(what, sizeof(what), "%s (%s NOPs)", n->name,
		 env == &env_p6 ? "P6" : "generic");
	CHECK(r == PATCH_NEEDS_WRITE, "%s: result %d", what, r);
	CHECK_BYTES(out, want, site.len, what);
}

void test_inline_sites(void)
{
	unsigned int i;

	/* The kernel's sites: 10-byte C sites, 12 bytes for the ops that
	 * take an argument in EAX (the site keeps it), 8-byte read_tsc,
	 * 7-byte jump sites, and the context switch's sites as long as
	 * their templates: 59-byte load_tls (its 8-byte call padded),
	 * 6-byte load_esp0 (its bare call), the 6-byte bare call of a
	 * callee-save site (spin_unlock, the lazy modes), and the flag ops'
	 * with room for the guest's templates (13, 13 and 20 bytes).
	 * site_of() builds them; check it did. */
	for (i = 0; i < nr_native_ops; i++) {
		const struct native_op *n = &native_ops[i];
		unsigned int len = site_of(n, SITE_ADDR).len;
		unsigned int want_len = n->jump ? 7 :
			!strcmp(n->name, "read_tsc") ? 8 :
			!strcmp(n->name, "load_tls") ? 59 :
			!strcmp(n->name, "load_esp0") ? 6 :
			!strcmp(n->name, "save_fl") || !strcmp(n->name, "restore_fl") ? 13 :
			!strcmp(n->name, "save_fl_irq_disable") ? 20 :
			n->clobbers & CLBR_CALLEE_SAVE ? 6 :
			n->clobbers == CLBR_NONE ? 12 : 10;

		CHECK(len == want_len, "%s: site of %u bytes, want %u", n->name, len, want_len);
		check_inline_site(n, &env_generic);
		check_inline_site(n, &env_p6);
	}
}

/*
 * The kernel's own list of patchable ops (PATCH_TEMPLATES in asm/patch.h)
 * must say what these tests expect: the same ops, and for each the same
 * result registers and the same call-or-jump.  A wrong `writes` there
 * would let pvdebug poison a result (read_tsc's EDX, say) unnoticed.
 */
struct kernel_op {
	const char *name;
	u8 writes;
	bool jump;
};

#define KERNEL_OP(op, writes, jump) { #op, writes, jump },
static const struct kernel_op kernel_ops[] = { PATCH_TEMPLATES(KERNEL_OP) };

/* PATCH_PROLOGUES names exactly the ops given a prologue here. */
#define KERNEL_PROLOGUE(op)	#op,
static const char *const kernel_prologues[] = { PATCH_PROLOGUES(KERNEL_PROLOGUE) };

static void check_kernel_prologues(void)
{
	unsigned int i, n = sizeof(kernel_prologues) / sizeof(kernel_prologues[0]);
	unsigned int ours = 0;

	for (i = 0; i < nr_native_ops; i++)
		ours += native_ops[i].want_pro_len > 0;
	CHECK(n == ours, "the kernel gives %u ops a prologue, the tests %u", n, ours);
	for (i = 0; i < n; i++)
		CHECK(native_op(kernel_prologues[i])->want_pro_len > 0,
		      "%s: a prologue in the kernel only", kernel_prologues[i]);
}

void test_kernel_op_list(void)
{
	unsigned int i, n = sizeof(kernel_ops) / sizeof(kernel_ops[0]);

	CHECK(n == nr_native_ops, "the kernel lists %u ops, the tests %u", n, nr_native_ops);
	for (i = 0; i < n; i++) {
		const struct native_op *want = native_op(kernel_ops[i].name);

		CHECK(kernel_ops[i].writes == want->writes, "%s: kernel says writes %#x, want %#x",
		      kernel_ops[i].name, kernel_ops[i].writes, want->writes);
		CHECK(kernel_ops[i].jump == want->jump, "%s: kernel says jump=%d",
		      kernel_ops[i].name, kernel_ops[i].jump);
	}
	check_kernel_prologues();
}
