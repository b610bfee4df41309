/*
 * helpers.c - what several native tests need: the two patch environments,
 * the NOPs and padding we expect, site records shaped like the kernel's,
 * a decoder that recognises do-nothing instructions, hex printing and
 * guarded pages.
 *
 * The expected bytes here are written from the instruction set, on
 * purpose independently of paravirt/patch/templates.S and paravirt/patch/engine.c: a test
 * that took its expectations from the code under test would pass with
 * whatever that code does.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "check.h"

const struct patch_env env_generic = {
	.table = TEST_TABLE, .nops = generic_nops, .max_nop = GENERIC_MAX_NOP,
};

const struct patch_env env_p6 = {
	.table = TEST_TABLE, .nops = p6_nops, .max_nop = P6_MAX_NOP,
};

/* 386+: mov/lea of %esi to itself, stretched by a %ds or data16 prefix. */
const u8 want_generic_nop[GENERIC_MAX_NOP + 1][GENERIC_MAX_NOP] = {
	[1] = { 0x90 },
	[2] = { 0x89, 0xf6 },
	[3] = { 0x8d, 0x76, 0x00 },
	[4] = { 0x8d, 0x74, 0x26, 0x00 },
	[5] = { 0x3e, 0x8d, 0x74, 0x26, 0x00 },
	[6] = { 0x8d, 0xb6, 0x00, 0x00, 0x00, 0x00 },
	[7] = { 0x8d, 0xb4, 0x26, 0x00, 0x00, 0x00, 0x00 },
	[8] = { 0x3e, 0x8d, 0xb4, 0x26, 0x00, 0x00, 0x00, 0x00 },
	[9] = { 0x3e, 0x66, 0x8d, 0xb4, 0x26, 0x00, 0x00, 0x00, 0x00 },
};

/* Family 6+: the multi-byte NOPs the Intel SDM recommends (0f 1f /0). */
const u8 want_p6_nop[P6_MAX_NOP + 1][P6_MAX_NOP] = {
	[1]  = { 0x90 },
	[2]  = { 0x66, 0x90 },
	[3]  = { 0x0f, 0x1f, 0x00 },
	[4]  = { 0x0f, 0x1f, 0x40, 0x00 },
	[5]  = { 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	[6]  = { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	[7]  = { 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 },
	[8]  = { 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
	[9]  = { 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
	[10] = { 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
	[11] = { 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
};

const u8 *want_nop(const struct patch_env *env, unsigned int len)
{
	return env->nops == p6_nops ? want_p6_nop[len] : want_generic_nop[len];
}

/* Spare bytes are one instruction: past the longest NOP, eb rel8 jumps
 * to the site's end over int3 (cc) bytes. */
void want_padding(const struct patch_env *env, u8 *out, unsigned int len)
{
	if (len > env->max_nop) {
		out[0] = 0xeb;
		out[1] = len - 2;
		memset(out + 2, 0xcc, len - 2);
	} else if (len) {
		memcpy(out, want_nop(env, len), len);
	}
}

bool is_padding(const struct patch_env *env, const u8 *p, unsigned int len)
{
	u8 want[PATCH_MAX_SITE_LEN];

	want_padding(env, want, len);
	return !memcmp(p, want, len);
}

/* ---- sites ---- */

/* A call site pushes and pops each of EAX, ECX, EDX it must preserve
 * around the 6-byte `call *abs32`; a callee-save site none. */
struct paravirt_patch_site call_site(u32 instr, u8 slot, u16 clobbers)
{
	unsigned int saved = 0, r;

	for (r = 0; r < 3; r++)
		if (!(clobbers & (1 << r)) && !(clobbers & CLBR_CALLEE_SAVE))
			saved++;
	return (struct paravirt_patch_site){
		.instr = instr, .slot = slot, .len = 6 + 2 * saved,
		.clobbers = clobbers,
	};
}

/* The same with a prologue of pro_len bytes before the call. */
struct paravirt_patch_site prologue_site(u32 instr, u8 slot, u16 clobbers,
					 unsigned int pro_len)
{
	struct paravirt_patch_site site = call_site(instr, slot, clobbers);

	site.len += pro_len;
	return site;
}

/* A jump site is `jmp *%cs:abs32`, 7 bytes; it may clobber anything. */
struct paravirt_patch_site jump_site(u32 instr, u8 slot)
{
	return (struct paravirt_patch_site){
		.instr = instr, .slot = slot, .len = 7, .clobbers = CLBR_ANY,
	};
}

u32 get32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

/* ---- recognising NOPs ---- */

/*
 * A ModRM memory operand with 32-bit addressing: returns its length
 * (ModRM, SIB, displacement) or 0, and what it addresses.  base/index are
 * register numbers, -1 for none; disp is the displacement.
 */
struct mem_operand {
	int mod, reg, base, index;
	u32 disp;
};

static unsigned int decode_modrm(const u8 *p, unsigned int avail,
				 struct mem_operand *m)
{
	unsigned int n = 1, rm, disp_len;

	if (avail < 1)
		return 0;
	m->mod = p[0] >> 6;
	m->reg = (p[0] >> 3) & 7;
	rm = p[0] & 7;
	m->base = rm;
	m->index = -1;
	if (m->mod != 3 && rm == 4) {		/* a SIB byte follows */
		if (avail < 2)
			return 0;
		m->base = p[1] & 7;
		m->index = ((p[1] >> 3) & 7) == 4 ? -1 : (p[1] >> 3) & 7;
		n = 2;
	}
	disp_len = m->mod == 1 ? 1 : m->mod == 2 ? 4 : 0;
	if (m->mod == 0 && m->base == 5) {	/* no base: disp32 alone */
		m->base = -1;
		disp_len = 4;
	}
	if (avail < n + disp_len)
		return 0;
	m->disp = disp_len == 1 ? p[n] : disp_len == 4 ? get32(p + n) : 0;
	if (disp_len == 1 && (p[n] & 0x80))
		m->disp |= 0xffffff00;		/* disp8 sign-extends */
	return n + disp_len;
}

static bool is_harmless_prefix(u8 b)
{
	return b == 0x66 || b == 0x2e || b == 0x3e;	/* data16, %cs, %ds */
}

/*
 * The NOP forms the tables use: nop (90, also with data16: xchg %ax,%ax),
 * mov %reg,%reg to itself (89), lea 0(%reg),%reg (8d), and nopl r/m
 * (0f 1f /0), each after any data16/%cs/%ds prefixes.
 */
unsigned int nop_insn_len(const u8 *p, unsigned int avail)
{
	struct mem_operand m;
	unsigned int i = 0, n;

	while (i < avail && is_harmless_prefix(p[i]))
		i++;
	if (i >= avail)
		return 0;
	if (p[i] == 0x90)
		return i + 1;
	if (p[i] == 0x89) {
		n = decode_modrm(p + i + 1, avail - i - 1, &m);
		return n && m.mod == 3 && m.reg == m.base ? i + 1 + n : 0;
	}
	if (p[i] == 0x8d) {
		n = decode_modrm(p + i + 1, avail - i - 1, &m);
		return n && m.mod != 3 && m.reg == m.base && m.index < 0 &&
		       m.disp == 0 ? i + 1 + n : 0;
	}
	if (p[i] == 0x0f && i + 1 < avail && p[i + 1] == 0x1f) {
		n = decode_modrm(p + i + 2, avail - i - 2, &m);
		return n && m.reg == 0 ? i + 2 + n : 0;
	}
	return 0;
}

/* ---- printing ---- */

const char *hex(const u8 *p, unsigned int n)
{
	static char bufs[8][3 * 64 + 8];	/* several per message */
	static unsigned int next;
	char *buf = bufs[next++ % 8], *s = buf;
	unsigned int i;

	*buf = '\0';
	for (i = 0; i < n && i < 64; i++)
		s += sprintf(s, i ? " %02x" : "%02x", p[i]);
	if (i < n)
		sprintf(s, " ...");
	return buf;
}

/* ---- guarded memory ---- */

const unsigned long guarded_size = 4096;

u8 *guarded_page(unsigned int i)
{
	static u8 *pages[GUARDED_PAGES];
	long size = sysconf(_SC_PAGESIZE);
	u8 *p;

	if (i >= GUARDED_PAGES)
		abort();
	if (pages[i])
		return pages[i];
	if (size != (long)guarded_size) {
		fprintf(stderr, "page size %ld, tests assume %lu\n", size, guarded_size);
		exit(2);
	}
	p = mmap(NULL, 3 * guarded_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED ||
	    mprotect(p + guarded_size, guarded_size, PROT_READ | PROT_WRITE)) {
		perror("guarded_page: mmap");
		exit(2);
	}
	pages[i] = p + guarded_size;
	return pages[i];
}
