/*
 * insn.c - naming the privileged instruction a guest kernel executed
 * itself, and the op of paravirt_ops it should have used instead.
 *
 * A guest kernel at ring 1 that runs a privileged instruction directly
 * gets #GP.  The host names the instruction and its op before passing
 * the #GP on: if the table covers every privileged operation, as it
 * must, a working guest never shows one of these lines (docs/guest.md).
 */
#include <kernel.h>
#include "host.h"

struct privileged_insn {
	u8 opcode[2];
	u8 len;			/* 1, or 2 for 0x0f xx */
	int modrm_reg;		/* -1, or the ModRM reg field that tells it */
	const char *insn, *op;
};

static const struct privileged_insn insns[] = {
	{ { 0xfa }, 1, -1, "cli", "irq_disable" },
	{ { 0xfb }, 1, -1, "sti", "irq_enable" },
	{ { 0xf4 }, 1, -1, "hlt", "halt or safe_halt" },
	{ { 0xe4 }, 1, -1, "in", "the platform's devices (asm/platform.h)" },
	{ { 0xe5 }, 1, -1, "in", "the platform's devices (asm/platform.h)" },
	{ { 0xe6 }, 1, -1, "out", "the platform's devices (asm/platform.h)" },
	{ { 0xe7 }, 1, -1, "out", "the platform's devices (asm/platform.h)" },
	{ { 0xec }, 1, -1, "in", "the platform's devices (asm/platform.h)" },
	{ { 0xed }, 1, -1, "in", "the platform's devices (asm/platform.h)" },
	{ { 0xee }, 1, -1, "out", "the platform's devices (asm/platform.h)" },
	{ { 0xef }, 1, -1, "out", "the platform's devices (asm/platform.h)" },
	{ { 0x6c }, 1, -1, "ins", "the platform's devices (asm/platform.h)" },
	{ { 0x6d }, 1, -1, "ins", "the platform's devices (asm/platform.h)" },
	{ { 0x6e }, 1, -1, "outs", "the platform's devices (asm/platform.h)" },
	{ { 0x6f }, 1, -1, "outs", "the platform's devices (asm/platform.h)" },
	{ { 0x0f, 0x06 }, 2, -1, "clts", "clts" },
	{ { 0x0f, 0x09 }, 2, -1, "wbinvd", "wbinvd" },
	{ { 0x0f, 0x20 }, 2, -1, "mov from %cr", "read_cr0/2/3/4" },
	{ { 0x0f, 0x22 }, 2, -1, "mov to %cr", "write_cr0/2/3/4" },
	{ { 0x0f, 0x21 }, 2, -1, "mov from %dr", "get_debugreg" },
	{ { 0x0f, 0x23 }, 2, -1, "mov to %dr", "set_debugreg" },
	{ { 0x0f, 0x30 }, 2, -1, "wrmsr", "write_msr" },
	{ { 0x0f, 0x32 }, 2, -1, "rdmsr", "read_msr" },
	{ { 0x0f, 0x33 }, 2, -1, "rdpmc", "read_pmc" },
	{ { 0x0f, 0x35 }, 2, -1, "sysexit", "irq_enable_sysexit" },
	{ { 0x0f, 0x00 }, 2, 2, "lldt", "load_ldt_desc" },
	{ { 0x0f, 0x00 }, 2, 3, "ltr", "load_tr_desc" },
	{ { 0x0f, 0x01 }, 2, 2, "lgdt", "load_gdt" },
	{ { 0x0f, 0x01 }, 2, 3, "lidt", "load_idt" },
	{ { 0x0f, 0x01 }, 2, 6, "lmsw", "write_cr0" },
};

static bool matches(const struct privileged_insn *p, const u8 *code, unsigned int len)
{
	if (len < p->len + (p->modrm_reg >= 0 ? 1u : 0u) || code[0] != p->opcode[0] ||
	    (p->len == 2 && code[1] != p->opcode[1]))
		return false;
	return p->modrm_reg < 0 || ((code[p->len] >> 3) & 7) == p->modrm_reg;
}

/* The legacy prefixes: operand and address size, rep, lock, segments. */
static bool is_prefix(u8 b)
{
	return b == 0x66 || b == 0x67 || b == 0xf2 || b == 0xf3 || b == 0xf0 ||
	       b == 0x26 || b == 0x2e || b == 0x36 || b == 0x3e || b == 0x64 || b == 0x65;
}

/* The instruction in the len bytes at code, or NULL if it is none of the
 * privileged ones; its op in *op.  Prefixes are passed over (`outw` is
 * 0x66 0xef). */
const char *guest_privileged_insn(const u8 *code, unsigned int len, const char **op)
{
	unsigned int i;

	while (len > 0 && is_prefix(*code)) {
		code++;
		len--;
	}
	for (i = 0; i < ARRAY_SIZE(insns); i++)
		if (matches(&insns[i], code, len)) {
			*op = insns[i].op;
			return insns[i].insn;
		}
	return NULL;
}
