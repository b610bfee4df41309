/*
 * engine.c - computes the bytes a paravirt patch site should hold.
 *
 * Pure functions on byte buffers: nothing here reads or writes kernel
 * code, calls the kernel or depends on the CPU it runs on, so the same
 * file is compiled into the kernel and into the native tests.
 * arch/x86/paravirt/patch/patch.c decides what each site becomes and does the writing.
 *
 * The rules, for a site of len bytes (see asm/patch.h for its shapes):
 *   - the site's current bytes must be exactly the indirect call or jump
 *     the build emitted for it, with the build's padding, or exactly the
 *     replacement already (a second run then changes nothing); anything
 *     else is left alone;
 *   - the replacement is built in a buffer that starts as a copy of the
 *     current bytes, and must fit in len bytes;
 *   - spare bytes are padding of one instruction: a NOP of the CPU's
 *     table, or past its longest NOP a jmp over int3 filler.
 */
#include <asm/patch.h>

#define X86_PUSH_REG	0x50	/* + register number: eax 0, ecx 1, edx 2 */
#define X86_POP_REG	0x58
#define X86_PUSH_IMM8	0x6a
#define X86_CALL_REL32	0xe8
#define X86_JMP_REL32	0xe9
#define X86_CS_PREFIX	0x2e
#define X86_GROUP5	0xff	/* ff /2 = call r/m32, ff /4 = jmp r/m32 */
#define MODRM_CALL_ABS	0x15	/* mod 00, reg /2, r/m 101: [disp32] */
#define MODRM_JMP_ABS	0x25	/* mod 00, reg /4, r/m 101: [disp32] */
#define X86_MOV_IMM32	0xb8	/* + register number: mov $imm32, %reg */
#define X86_JMP_REL8	0xeb
#define X86_NOP		0x90
#define JMP_REL8_LEN	2

_Static_assert(PATCH_MAX_SITE_LEN - JMP_REL8_LEN <= 127,
	       "a jmp rel8 skips the rest of any site");

#define NR_CLOBBER_REGS	3	/* CLBR_EAX, CLBR_ECX, CLBR_EDX are bits 0..2 */

static void put32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void copy_bytes(u8 *dst, const u8 *src, unsigned int n)
{
	while (n--)
		*dst++ = *src++;
}

static bool same_bytes(const u8 *a, const u8 *b, unsigned int n)
{
	while (n--)
		if (*a++ != *b++)
			return false;
	return true;
}

/* A call site saves, around its call, each register it must not clobber;
 * a callee-save site none, since every function of its op keeps them. */
static u8 saved_regs(const struct paravirt_patch_site *site)
{
	if (site->clobbers & CLBR_CALLEE_SAVE)
		return 0;
	return ~site->clobbers & CLBR_ANY;
}

static unsigned int emit_pushes(u8 *out, u8 regs)
{
	unsigned int r, n = 0;

	for (r = 0; r < NR_CLOBBER_REGS; r++)
		if (regs & (1 << r))
			out[n++] = X86_PUSH_REG + r;
	return n;
}

static unsigned int emit_pops(u8 *out, u8 regs)
{
	unsigned int r, n = 0;

	for (r = NR_CLOBBER_REGS; r-- > 0; )
		if (regs & (1 << r))
			out[n++] = X86_POP_REG + r;
	return n;
}

/* jmp rel8 over the rest of len bytes, which become int3 filler. */
static void emit_jump_over(u8 *out, unsigned int len)
{
	unsigned int i;

	out[0] = X86_JMP_REL8;
	out[1] = len - JMP_REL8_LEN;
	for (i = JMP_REL8_LEN; i < len; i++)
		out[i] = PATCH_FILLER;
}

/* The build's padding of a sized site (PARAVIRT_SIZED_SITE): it knows
 * no CPU, so one byte is a nop and more are jumped over. */
static void emit_build_padding(u8 *out, unsigned int len)
{
	if (len == 1)
		out[0] = X86_NOP;
	else if (len > 1)
		emit_jump_over(out, len);
}

/* The call or jump alone, without padding; its length. */
static unsigned int emit_call_or_jump(u32 slot, u8 regs, const struct op_template *op,
				      u8 *out)
{
	unsigned int n = 0;

	if (op->jump) {
		out[n++] = X86_CS_PREFIX;	/* %ds may be the user's by then */
		out[n++] = X86_GROUP5;
		out[n++] = MODRM_JMP_ABS;
		put32(out + n, slot);
		return n + 4;
	}
	n += emit_pushes(out + n, regs);
	copy_bytes(out + n, op->prologue, op->prologue_len);
	n += op->prologue_len;
	out[n++] = X86_GROUP5;
	out[n++] = MODRM_CALL_ABS;
	put32(out + n, slot);
	n += 4;
	n += emit_pops(out + n, regs);
	return n;
}

/*
 * Bytes the build put at the site: the call (with op's prologue) or the
 * jump, padded to the site's length when the record is longer (a site
 * sized to its op's template).  Returns their number: site->len, unless
 * the record is shorter than the call or longer than PATCH_MAX_SITE_LEN,
 * or 0 (nothing written) for a prologue over PATCH_MAX_PROLOGUE.
 */
int patch_original(const struct patch_env *env,
		   const struct paravirt_patch_site *site, const struct op_template *op,
		   u8 *out)
{
	unsigned int n;

	if (op->prologue_len > PATCH_MAX_PROLOGUE)
		return 0;
	n = emit_call_or_jump(env->table + 4 * site->slot, saved_regs(site), op, out);
	if (site->len > n && site->len <= PATCH_MAX_SITE_LEN) {
		emit_build_padding(out + n, site->len - n);
		n = site->len;
	}
	return n;
}

/* Pad len bytes with one instruction: the NOP of that length from the
 * CPU's table or, longer than its longest, a jmp over the rest. */
void patch_fill_padding(const struct patch_env *env, u8 *out, unsigned int len)
{
	if (len > env->max_nop)
		emit_jump_over(out, len);
	else if (len)
		copy_bytes(out, env->nops[len], len);
}

/*
 * pvdebug: `mov $PATCH_POISON, %reg` for each register in regs, as room
 * allows.  A site that claims it may clobber a register its caller still
 * needs then breaks that caller.  A fixed value, unlike `not %reg`,
 * cannot be undone by a second poisoned site before the register is used.
 */
static unsigned int emit_poison(u8 *out, unsigned int room, u8 regs)
{
	unsigned int r, n = 0;

	for (r = 0; r < NR_CLOBBER_REGS; r++) {
		if (!(regs & (1 << r)) || n + 5 > room)
			continue;
		out[n] = X86_MOV_IMM32 + r;
		put32(out + n + 1, PATCH_POISON);
		n += 5;
	}
	return n;
}

static int build_inline(const struct patch_env *env,
			const struct paravirt_patch_site *site,
			const struct op_template *op, u8 *out)
{
	unsigned int n;

	if (!op->tpl || op->tpl_len > site->len)
		return -1;
	if (op->writes & ~site->clobbers)	/* would spoil a saved register */
		return -1;
	copy_bytes(out, op->tpl, op->tpl_len);
	n = op->tpl_len;
	if (env->poison && !op->jump)
		n += emit_poison(out + n, site->len - n, site->clobbers & ~op->writes);
	return n;
}

static int build_nops(const struct patch_env *env,
		      const struct paravirt_patch_site *site,
		      const struct op_template *op, u8 *out)
{
	if (op->writes || op->jump)	/* a result, or a return, is expected */
		return -1;
	return env->poison ? emit_poison(out, site->len, site->clobbers) : 0;
}

/* The call form's saves and prologue stay, since the function called is
 * C.  rel32 operands count from the end of the instruction. */
static int build_direct(const struct paravirt_patch_site *site,
			const struct op_template *op, u32 target, u8 *out)
{
	u8 regs = saved_regs(site);
	unsigned int n = 0, pushes;

	if (op->jump) {
		if (site->len < 5)
			return -1;
		out[0] = X86_JMP_REL32;
		put32(out + 1, target - (site->instr + 5));
		return 5;
	}
	pushes = emit_pushes(out, regs);
	if (pushes + op->prologue_len + 5 + pushes > site->len)	/* as many pops */
		return -1;
	n = pushes;
	copy_bytes(out + n, op->prologue, op->prologue_len);
	n += op->prologue_len;
	out[n] = X86_CALL_REL32;
	put32(out + n + 1, target - (site->instr + n + 5));
	n += 5;
	return n + emit_pops(out + n, regs);
}

/* push $slot; call target: the stub finds the op's number on the stack. */
static int build_empty(const struct paravirt_patch_site *site, u32 target, u8 *out)
{
	if (site->len < 7 || site->slot > 127)	/* push imm8 sign-extends */
		return -1;
	out[0] = X86_PUSH_IMM8;
	out[1] = site->slot;
	out[2] = X86_CALL_REL32;
	put32(out + 3, target - (site->instr + 7));
	return 7;
}

/* The replacement without its padding in out; its length, or -1 if it
 * cannot be. */
static int build_body(const struct patch_env *env, const struct paravirt_patch_site *site,
		      const struct op_template *op, enum patch_kind kind, u32 target, u8 *out)
{
	switch (kind) {
	case PATCH_INLINE: return build_inline(env, site, op, out);
	case PATCH_NOPS:   return build_nops(env, site, op, out);
	case PATCH_DIRECT: return build_direct(site, op, target, out);
	case PATCH_EMPTY:  return build_empty(site, target, out);
	}
	return -1;
}

/* The whole replacement in out[0..site->len), or false if it cannot be. */
static bool build_replacement(const struct patch_env *env,
			      const struct paravirt_patch_site *site,
			      const struct op_template *op, enum patch_kind kind,
			      u32 target, u8 *out)
{
	int n = build_body(env, site, op, kind, target, out);

	if (n < 0)
		return false;
	patch_fill_padding(env, out + n, site->len - n);
	return true;
}

/*
 * The padding instructions a site runs each time it is passed: 0 or 1,
 * since its spare bytes are one instruction, which runs after the op
 * unless the op is jumped to and never comes back (iret, sysexit).  The
 * site holds what kind makes of it or, if that cannot be or the site is
 * kept as built (fenced), the build's call and padding.  make bench
 * counts these against the sites' calls: what a patched kernel pays
 * over an inline one for the NOPs alone.
 */
unsigned int patch_padding_runs(const struct patch_env *env,
				const struct paravirt_patch_site *site,
				const struct op_template *op, enum patch_kind kind,
				u32 target, bool kept)
{
	u8 out[PATCH_MAX_SITE_LEN];
	int n = -1;

	if (site->len == 0 || site->len > PATCH_MAX_SITE_LEN || op->jump ||
	    op->prologue_len > PATCH_MAX_PROLOGUE)
		return 0;
	if (!kept)
		n = build_body(env, site, op, kind, target, out);
	if (n < 0)
		n = emit_call_or_jump(env->table + 4 * site->slot, saved_regs(site), op, out);
	return n < site->len;
}

/*
 * Work out what `site`, whose bytes are now `cur`, should hold after
 * becoming `kind` (target: the function for DIRECT and NULL).  out
 * (site->len bytes) receives the bytes the site must end up with: the
 * replacement, or cur unchanged when the site is refused.  A record whose
 * length is 0 or over PATCH_MAX_SITE_LEN is refused without touching out
 * at all: no buffer is promised to be that long.
 */
enum patch_result patch_compute_site(const struct patch_env *env,
				     const struct paravirt_patch_site *site,
				     const struct op_template *op, enum patch_kind kind,
				     u32 target, const u8 *cur, u8 *out)
{
	u8 want[PATCH_MAX_SITE_LEN], orig[PATCH_MAX_SITE_LEN];
	bool fits;

	if (site->len == 0 || site->len > PATCH_MAX_SITE_LEN)
		return PATCH_REFUSED_FIT;
	copy_bytes(out, cur, site->len);
	copy_bytes(want, cur, site->len);
	fits = build_replacement(env, site, op, kind, target, want);
	if (fits && same_bytes(cur, want, site->len))
		return PATCH_ALREADY_DONE;
	if (patch_original(env, site, op, orig) != site->len ||
	    !same_bytes(cur, orig, site->len))
		return PATCH_REFUSED_BYTES;
	if (!fits)
		return PATCH_REFUSED_FIT;
	copy_bytes(out, want, site->len);
	return PATCH_NEEDS_WRITE;
}
