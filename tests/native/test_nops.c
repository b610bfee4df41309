/*
 * test_nops.c - the NOPs and jumps that pad a patched site, per CPU family.
 *
 * Why: spare bytes are executed, so they must be instructions that do
 * nothing, one of them at most (each is decoded and retired): the NOP of
 * their length, or past the longest NOP a jmp over the rest; and on a
 * pre-P6 CPU never the 0f 1f "long NOP", which raises #UD there.  The
 * expected bytes come from helpers.c, written from the manuals; a small
 * decoder (nop_insn_len) checks independently that each NOP is a single
 * do-nothing instruction of the claimed length.
 */
#include <string.h>
#include "check.h"

#define GUARD	0xcc	/* int3: never produced as padding */

static const char *env_name(const struct patch_env *env)
{
	return env == &env_p6 ? "P6" : "generic";
}

static bool is_prefix(u8 b)
{
	return b == 0x66 || b == 0x2e || b == 0x3e;	/* data16, %cs, %ds */
}

/* The opcode after any prefixes: 0f 1f must not appear on a generic CPU. */
static bool starts_long_nop(const u8 *p, unsigned int len)
{
	unsigned int i = 0;

	while (i < len && is_prefix(p[i]))
		i++;
	return i + 1 < len && p[i] == 0x0f && p[i + 1] == 0x1f;
}

/* "No more than one prefix of each kind" (paravirt/patch/templates.S): old CPUs
 * are not promised to accept repeats. */
static bool repeats_a_prefix(const u8 *p, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len && is_prefix(p[i]); i++)
		if (memchr(p, p[i], i))
			return true;
	return false;
}

static void check_table(const struct patch_env *env)
{
	unsigned int n;

	for (n = 1; n <= env->max_nop; n++) {
		const u8 *nop = env->nops[n];
		char what[32];

		snprintf(what, sizeof(what), "%s nop %u", env_name(env), n);
		CHECK_BYTES(nop, want_nop(env, n), n, what);
		CHECK(nop_insn_len(nop, n) == n, "%s [%s] is not one NOP instruction",
		      what, hex(nop, n));
		if (env == &env_generic) {
			CHECK(!starts_long_nop(nop, n), "%s is a long NOP", what);
			CHECK(!repeats_a_prefix(nop, n), "%s repeats a prefix", what);
		}
	}
}

void test_nop_tables(void)
{
	CHECK(env_generic.max_nop == 9 && env_p6.max_nop == 11,
	      "max NOP lengths %u and %u", env_generic.max_nop, env_p6.max_nop);
	check_table(&env_generic);
	check_table(&env_p6);
}

/* Walk the padding as the CPU would: one instruction, a table NOP that
 * ends the site, or a jmp rel8 to its end over int3 filler. */
static void check_padding(const struct patch_env *env, unsigned int len)
{
	u8 buf[8 + PATCH_MAX_SITE_LEN + 8];
	u8 *out = buf + 8;
	unsigned int n, k;

	memset(buf, GUARD, sizeof(buf));
	patch_fill_padding(env, out, len);
	for (k = 0; k < 8; k++)
		CHECK(buf[k] == GUARD && out[len + k] == GUARD,
		      "%s %u: wrote outside the %u bytes", env_name(env), len, len);
	if (len > env->max_nop) {
		CHECK(out[0] == 0xeb && out[1] == len - 2, "%s %u: [%s] is no jmp to the end",
		      env_name(env), len, hex(out, len));
		for (k = 2; k < len; k++)
			CHECK(out[k] == 0xcc, "%s %u: filler %02x at %u", env_name(env), len,
			      out[k], k);
		return;
	}
	n = nop_insn_len(out, len);
	CHECK(n == len && !memcmp(out, want_nop(env, n), n),
	      "%s %u: [%s] is not the table's NOP of that length", env_name(env), len,
	      hex(out, len));
	CHECK(env != &env_generic || !starts_long_nop(out, len), "generic %u: long NOP", len);
}

struct padding_case {
	const struct patch_env *env;
	unsigned int len;
	u8 bytes[24];
};

static const struct padding_case exact[] = {
	{ &env_generic, 5, { 0x3e, 0x8d, 0x74, 0x26, 0x00 } },
	{ &env_p6, 5, { 0x0f, 0x1f, 0x44, 0x00, 0x00 } },
	{ &env_generic, 9, { 0x3e, 0x66, 0x8d, 0xb4, 0x26, 0, 0, 0, 0 } },
	{ &env_generic, 10, { 0xeb, 0x08, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc } },
	{ &env_p6, 11, { 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0 } },
	{ &env_p6, 12, { 0xeb, 0x0a, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
			 0xcc, 0xcc } },
};

void test_nop_padding(void)
{
	unsigned int len, i;
	u8 out[24];

	for (len = 1; len <= PATCH_MAX_SITE_LEN; len++) {
		check_padding(&env_generic, len);
		check_padding(&env_p6, len);
	}
	for (i = 0; i < sizeof(exact) / sizeof(exact[0]); i++) {
		char what[32];

		snprintf(what, sizeof(what), "%s %u", env_name(exact[i].env), exact[i].len);
		patch_fill_padding(exact[i].env, out, exact[i].len);
		CHECK_BYTES(out, exact[i].bytes, exact[i].len, what);
	}
	out[0] = GUARD;
	patch_fill_padding(&env_p6, out, 0);
	CHECK(out[0] == GUARD, "length 0 wrote a byte");
}
