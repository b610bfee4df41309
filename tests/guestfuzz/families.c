/*
 * families.c - what the guest fuzzer probes: every int n, privileged
 * and rare instructions, far returns and jumps to frames of any ring
 * and flags (virtual-8086 mode, NT, IOPL), segment loads, hypercalls
 * and queued hypercalls with arguments from pools of edge values,
 * page-table edits with and without the notices the host asks for,
 * watchpoints, the FPU's trap, and exits.  Each builds a probe from the
 * random stream and hands it to probe_run(), which judges it; a family
 * adds the checks only it knows of.
 */
#include "guestfuzz.h"

#define PAGE	4096u

/* ---- pools of values a host must take any of ---- */

static u32 address(void)
{
	const u32 pool[] = {
		0, 1, 0xfff, 0x1000, 0x8000, FUZZ_REPORT_GPA + 0x800, 0xfffff, 0x100000,
		(u32)m.kscratch, (u32)m.kscratch + PAGE - 2, (u32)m.uscratch, m.scratch[0],
		m.mem_end - 4, m.mem_end - PAGE, m.mem_end, m.mem_end + PAGE,
		0x7fffffff, 0x80000000, EDIT_VA, SWITCHER_ADDR, SWITCHER_REGS_PAGE,
		SWITCHER_STATE_PAGE, SWITCHER_STATE_PAGE + PAGE - 4, 0xfffff000, 0xfffffffc,
		0xffffffff,
	};

	return chance(8) ? rnd() : PICK(pool);
}

static u32 number(void)
{
	const u32 pool[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 255, 256, 0x7fff, 0x8000, 0xffff,
		0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, m.mem_end, m.mem_end / 8,
	};

	return chance(4) ? rnd() : PICK(pool);
}

static u32 selector(void)
{
	const u32 pool[] = {
		0, 3, __KERNEL_CS, KCS, __KERNEL_DS, KDS, UCS, UDS, __TSS_SEL, __LDT_SEL,
		__SWITCHER_CS, __SWITCHER_DS, GUEST_GDT_ENTRIES * 8, 0xfffc, 0xffff,
	};

	if (chance(3))
		return 4 | below(LDT_ENTRIES) << 3 | below(4);
	if (chance(4))
		return (GDT_ENTRY_TLS_MIN + below(GDT_ENTRY_TLS_ENTRIES)) << 3 | below(4);
	return chance(8) ? rnd() & 0xffff : (PICK(pool) & ~3u) | below(4);
}

static u32 msr(void)
{
	const u32 pool[] = {
		0x10, 0x17, 0x1b, 0x8b, 0xc1, 0x186, 0x174, 0x175, 0x176, 0x1d9, 0x2ff,
		0x38f, 0xc0000080, 0xc0000081, 0xc0000100, 0xffffffff,
	};

	return chance(8) ? rnd() : PICK(pool);
}

static u32 port(void)
{
	const u32 pool[] = {
		0x20, 0x21, 0x40, 0x43, 0x60, 0x61, 0x64, 0x70, 0x71, 0x80, 0xa0, 0xf4,
		0x3f8, 0x3fd, 0x402, 0xcf8, 0xcfc, 0x8900, 0xffff,
	};

	return chance(8) ? rnd() & 0xffff : PICK(pool);
}

static unsigned int ring(void)
{
	return chance(2) ? 1 : 3;
}

/* A data address for a probe of ring r: its scratch page, or anything. */
static u32 data_address(struct probe *p)
{
	u32 a = chance(2) ? (u32)(p->ring == 3 ? m.uscratch : m.kscratch) + below(PAGE - 8)
			  : address();

	p->mem_lo = a - 16;
	p->mem_hi = a + 32;
	p->vectors |= 1u << X86_TRAP_PF | 1u << X86_TRAP_SS | 1u << X86_TRAP_AC;
	return a;
}

/* ---- int n ---- */

static void int_probe(unsigned int r, u32 n)
{
	struct probe p;
	struct outcome o;
	unsigned int repeat = chance(4) ? 1 + below(64) : 1, i;
	u8 code[] = { 0xcd, (u8)n };

	probe_init(&p, F_INT, r, "int $n");
	probe_insn(&p, code, sizeof(code));
	p.int_vector = (int)n;
	if (n == HYPERCALL_VECTOR) {
		p.in.eax = HCALL_flush;		/* a call, as any int $0x1f at ring 1 is */
		p.outputs = OUT(R_EAX);
	}
	/* Again and again: what the host does wrong once it does wrong as
	 * often as asked (its clock, 64 times in a row). */
	for (i = 0; i < repeat && probe_run(&p, &o); i++)
		;
}

/* Every n at both rings, in an order of the life's own: a defect that
 * ends the life ends it at a different vector each time, and the ones
 * after it get their turn in other lives. */
void fuzz_int_sweep(void)
{
	u16 order[512];
	unsigned int i;

	for (i = 0; i < 512; i++)
		order[i] = (u16)i;
	for (i = 511; i > 0; i--) {
		unsigned int j = below(i + 1);
		u16 t = order[i];

		order[i] = order[j], order[j] = t;
	}
	for (i = 0; i < 512 && (families >> F_INT & 1); i++)
		int_probe(order[i] & 256 ? 3 : 1, order[i] & 255);
}

static void random_int_probe(void)
{
	int_probe(ring(), below(256));
}

/* ---- privileged and rare instructions ---- */

enum { MAY, MUST, MUST_AT_1 };		/* must it fault, and where */
#define MEM	0x100			/* [ebx] is its operand */
#define PORT	0x200			/* port I/O: ring 3 may have it done */
#define PLAIN	0x400			/* ... in a form the host does */

static const struct insn {
	const char *name;
	u8 bytes[4];
	u8 len;
	u32 outputs;
	u32 kind;
	u32 vectors;			/* more it may raise */
} insns[] = {
	{ "rdpmc", { 0x0f, 0x33 }, 2, OUT(R_EAX) | OUT(R_EDX), MUST, 0 },
	{ "rdtsc", { 0x0f, 0x31 }, 2, OUT(R_EAX) | OUT(R_EDX), MAY, 0 },
	{ "rdtscp", { 0x0f, 0x01, 0xf9 }, 3, OUT(R_EAX) | OUT(R_EDX) | OUT(R_ECX), MAY, 0 },
	{ "rdmsr", { 0x0f, 0x32 }, 2, OUT(R_EAX) | OUT(R_EDX), MUST, 0 },
	{ "wrmsr", { 0x0f, 0x30 }, 2, 0, MUST, 0 },
	{ "cpuid", { 0x0f, 0xa2 }, 2, OUT(R_EAX) | OUT(R_EBX) | OUT(R_ECX) | OUT(R_EDX), MAY, 0 },
	{ "in al,imm", { 0xe4, 0x70 }, 2, OUT(R_EAX), MUST | PORT | PLAIN, 0 },
	{ "in eax,imm", { 0xe5, 0x71 }, 2, OUT(R_EAX), MUST | PORT | PLAIN, 0 },
	{ "in ax,imm", { 0x66, 0xe5, 0x80 }, 3, OUT(R_EAX), MUST | PORT | PLAIN, 0 },
	{ "out imm,al", { 0xe6, 0x80 }, 2, 0, MUST | PORT | PLAIN, 0 },
	{ "out imm,eax", { 0xe7, 0xf4 }, 2, 0, MUST | PORT | PLAIN, 0 },
	{ "in al,dx", { 0xec }, 1, OUT(R_EAX), MUST | PORT | PLAIN, 0 },
	{ "in eax,dx", { 0xed }, 1, OUT(R_EAX), MUST | PORT | PLAIN, 0 },
	{ "in ax,dx", { 0x66, 0xed }, 2, OUT(R_EAX), MUST | PORT | PLAIN, 0 },
	{ "out dx,al", { 0xee }, 1, 0, MUST | PORT | PLAIN, 0 },
	{ "out dx,eax", { 0xef }, 1, 0, MUST | PORT | PLAIN, 0 },
	{ "out dx,ax", { 0x66, 0xef }, 2, 0, MUST | PORT | PLAIN, 0 },
	{ "insb", { 0x6c }, 1, OUT(R_EDI), MUST | PORT, 0 },
	{ "outsd", { 0x6f }, 1, OUT(R_ESI), MUST | PORT, 0 },
	{ "rep outsb", { 0xf3, 0x6e }, 2, OUT(R_ESI) | OUT(R_ECX), MUST | PORT, 0 },
	{ "lock in", { 0xf0, 0xec }, 2, OUT(R_EAX), MUST | PORT, 0 },
	{ "lmsw", { 0x0f, 0x01, 0xf0 }, 3, 0, MUST, 0 },
	{ "smsw", { 0x0f, 0x01, 0xe0 }, 3, OUT(R_EAX), MAY, 0 },
	{ "clts", { 0x0f, 0x06 }, 2, 0, MUST, 0 },
	{ "hlt", { 0xf4 }, 1, 0, MUST, 0 },
	{ "cli", { 0xfa }, 1, 0, MUST, 0 },
	{ "sti", { 0xfb }, 1, 0, MUST, 0 },
	{ "lar", { 0x0f, 0x02, 0xc3 }, 3, OUT(R_EAX), MAY, 0 },
	{ "lsl", { 0x0f, 0x03, 0xc3 }, 3, OUT(R_EAX), MAY, 0 },
	{ "verr", { 0x0f, 0x00, 0xe3 }, 3, 0, MAY, 0 },
	{ "verw", { 0x0f, 0x00, 0xeb }, 3, 0, MAY, 0 },
	{ "arpl", { 0x63, 0xd8 }, 2, OUT(R_EAX), MAY, 0 },
	{ "sgdt", { 0x0f, 0x01, 0x03 }, 3, 0, MAY | MEM, 0 },
	{ "sidt", { 0x0f, 0x01, 0x0b }, 3, 0, MAY | MEM, 0 },
	{ "sldt", { 0x0f, 0x00, 0xc0 }, 3, OUT(R_EAX), MAY, 0 },
	{ "str", { 0x0f, 0x00, 0xc8 }, 3, OUT(R_EAX), MAY, 0 },
	{ "lgdt", { 0x0f, 0x01, 0x13 }, 3, 0, MUST | MEM, 0 },
	{ "lidt", { 0x0f, 0x01, 0x1b }, 3, 0, MUST | MEM, 0 },
	{ "lldt", { 0x0f, 0x00, 0xd3 }, 3, 0, MUST, 0 },
	{ "ltr", { 0x0f, 0x00, 0xdb }, 3, 0, MUST, 0 },
	{ "mov cr0,eax", { 0x0f, 0x20, 0xc0 }, 3, OUT(R_EAX), MUST, 0 },
	{ "mov cr2,eax", { 0x0f, 0x20, 0xd0 }, 3, OUT(R_EAX), MUST, 0 },
	{ "mov cr3,eax", { 0x0f, 0x20, 0xd8 }, 3, OUT(R_EAX), MUST, 0 },
	{ "mov cr4,eax", { 0x0f, 0x20, 0xe0 }, 3, OUT(R_EAX), MUST, 0 },
	{ "mov eax,cr0", { 0x0f, 0x22, 0xc0 }, 3, 0, MUST, 0 },
	{ "mov eax,cr3", { 0x0f, 0x22, 0xd8 }, 3, 0, MUST, 0 },
	{ "mov eax,cr4", { 0x0f, 0x22, 0xe0 }, 3, 0, MUST, 0 },
	{ "mov dr0,eax", { 0x0f, 0x21, 0xc0 }, 3, OUT(R_EAX), MUST, 1u << X86_TRAP_DB },
	{ "mov dr6,eax", { 0x0f, 0x21, 0xf0 }, 3, OUT(R_EAX), MUST, 1u << X86_TRAP_DB },
	{ "mov dr7,eax", { 0x0f, 0x21, 0xf8 }, 3, OUT(R_EAX), MUST, 1u << X86_TRAP_DB },
	{ "mov eax,dr0", { 0x0f, 0x23, 0xc0 }, 3, 0, MUST, 1u << X86_TRAP_DB },
	{ "mov eax,dr7", { 0x0f, 0x23, 0xf8 }, 3, 0, MUST, 1u << X86_TRAP_DB },
	{ "invd", { 0x0f, 0x08 }, 2, 0, MUST, 0 },
	{ "wbinvd", { 0x0f, 0x09 }, 2, 0, MUST, 0 },
	{ "invlpg", { 0x0f, 0x01, 0x3b }, 3, 0, MUST | MEM, 0 },
	{ "sysenter", { 0x0f, 0x34 }, 2, 0, MUST, 0 },
	{ "sysexit", { 0x0f, 0x35 }, 2, 0, MUST, 0 },
	{ "syscall", { 0x0f, 0x05 }, 2, 0, MUST, 0 },
	{ "sysret", { 0x0f, 0x07 }, 2, 0, MUST, 0 },
	{ "rsm", { 0x0f, 0xaa }, 2, 0, MUST, 0 },
	{ "ud2", { 0x0f, 0x0b }, 2, 0, MUST, 0 },
	{ "vmcall", { 0x0f, 0x01, 0xc1 }, 3, 0, MUST, 0 },
	{ "int1", { 0xf1 }, 1, 0, MUST, 1u << X86_TRAP_DB },
	{ "int3", { 0xcc }, 1, 0, MUST, 1u << X86_TRAP_BP },
	{ "into", { 0xce }, 1, 0, MAY, 1u << X86_TRAP_OF },
	{ "bound", { 0x62, 0x03 }, 2, 0, MAY | MEM, 1u << X86_TRAP_BR },
	{ "div ecx", { 0xf7, 0xf1 }, 2, OUT(R_EAX) | OUT(R_EDX), MAY, 1u << X86_TRAP_DE },
	{ "cmpxchg8b", { 0x0f, 0xc7, 0x0b }, 3, OUT(R_EAX) | OUT(R_EDX), MAY | MEM, 0 },
	{ "fninit", { 0xdb, 0xe3 }, 2, 0, MAY, 1u << X86_TRAP_NM },
	{ "fwait", { 0x9b }, 1, 0, MAY, 1u << X86_TRAP_NM | 1u << X86_TRAP_MF },
};

/* Whether a program's port I/O is the host's to do (port_io.c): its
 * kernel gave it I/O privilege, and the form is a plain one. */
static bool port_io_done(const struct insn *in, unsigned int r)
{
	return r == 3 && m.iopl == 3 && (in->kind & PLAIN);
}

static void privileged_probe(void)
{
	const struct insn *in = &PICK(insns);
	struct probe p;
	struct outcome o;

	probe_init(&p, F_PRIV, ring(), in->name);
	probe_insn(&p, in->bytes, in->len);
	p.outputs = in->outputs;
	p.vectors |= in->vectors;
	p.must_fault = (in->kind & 3) == MUST || ((in->kind & 3) == MUST_AT_1 && p.ring == 1);
	if (in->kind & MEM)
		p.in.ebx = data_address(&p);
	else
		p.in.ebx = selector();			/* lar, lsl, verr, verw, lldt, ltr */
	if (in->kind & PORT) {
		p.in.edx = port();
		p.in.esi = p.in.edi = data_address(&p);
		p.in.ecx = below(4);
		if (port_io_done(in, p.ring))
			p.must_fault = false;
	}
	if (in->bytes[0] == 0x0f && (in->bytes[1] == 0x32 || in->bytes[1] == 0x30))
		p.in.ecx = msr();
	if (in->bytes[0] == 0x0f && in->bytes[1] == 0x33)
		p.in.ecx = below(4) | (chance(4) ? 0x40000000 : 0);
	if (in->bytes[0] == 0xf7)
		p.in.ecx = chance(2) ? 0 : p.in.ecx;
	probe_run(&p, &o);
}

/* Bytes at random, at ring 3, where nothing the fuzzer keeps can be
 * reached: what holds for every trap must hold for theirs too. */
static void random_bytes_probe(void)
{
	struct probe p;
	struct outcome o;
	u8 bytes[12];
	unsigned int i;

	for (i = 0; i < sizeof(bytes); i++)
		bytes[i] = (u8)rnd();
	probe_init(&p, F_PRIV, 3, "random bytes");
	probe_insn(&p, bytes, sizeof(bytes));
	p.loose = true;
	p.in.ebx = p.in.esi = p.in.edi = (u32)m.uscratch + 64;
	probe_run(&p, &o);
}

/* ---- iret, lret, ljmp, lcall to frames of any kind ---- */

static void push_imm(struct probe *p, u32 v)
{
	u8 b[5] = { 0x68, (u8)v, (u8)(v >> 8), (u8)(v >> 16), (u8)(v >> 24) };

	probe_bytes(p, b, sizeof(b));
}

/* Where a frame may lead: a landing pad (int $0x80) in either ring's
 * code page, the virtual-8086 page, or anywhere. */
static u32 target_eip(u32 *vm86_cs)
{
	switch (below(6)) {
	case 0: return (u32)m.kcode + PAD_OFFSET;
	case 1: case 2: return (u32)m.ucode + PAD_OFFSET;
	case 3: *vm86_cs = VM86_PAGE >> 4; return 0;
	case 4: *vm86_cs = 0; return VM86_PAGE;
	}
	return address();
}

static u32 frame_eflags(void)
{
	u32 f = X86_EFLAGS_FIXED | X86_EFLAGS_IF | (rnd() & 0x8d5u);

	if (chance(8))
		f |= X86_EFLAGS_TF;
	if (chance(3))
		f |= below(4) << X86_EFLAGS_IOPL_BIT;
	if (chance(8))
		f |= X86_EFLAGS_NT;
	if (chance(8))
		f |= X86_EFLAGS_VM;
	if (chance(8))
		f |= X86_EFLAGS_RF | X86_EFLAGS_AC;
	if (chance(16))
		f &= ~X86_EFLAGS_IF;
	return f;
}

/* What virtual-8086 code would do first, where a CPU would never let
 * it run: the `jmp $` after it is ended by the host's next tick, unless
 * the code turned the machine's interrupts off. */
static void write_vm86_code(void)
{
	static const u8 snippets[][3] = {
		{ 0xfa }, { 0xfb }, { 0xf4 }, { 0xcd, 0x21 }, { 0xe4, 0x70 }, { 0xee },
		{ 0x9c, 0x9d }, { 0xcf }, { 0x0f, 0x0b }, { 0xcc }, { 0x90 },
	};
	const u8 *s = PICK(snippets);

	memcpy(m.vm86, s, 3);
	memcpy(m.vm86 + 3, "\xeb\xfe", 2);
	if (s[0] == 0x90 || s[0] == 0xfa || s[0] == 0xfb || s[0] == 0xee || s[0] == 0xf4)
		memcpy(m.vm86 + 1, "\xeb\xfe", 2);
}

static void write_pads(void)
{
	static const u8 pad[] = { 0xcd, SYSCALL_GATE, 0x0f, 0x0b };

	memcpy(m.kcode + PAD_OFFSET, pad, sizeof(pad));
	memcpy(m.ucode + PAD_OFFSET, pad, sizeof(pad));
}

static void far_transfer_probe(void)
{
	static const u8 iret = 0xcf, lret = 0xcb;
	struct probe p;
	struct outcome o;
	u32 vm86_cs = (u32)-1, eip = target_eip(&vm86_cs);
	u32 cs = vm86_cs != (u32)-1 ? vm86_cs : selector();
	unsigned int kind = below(4);
	const char *what[] = { "iret", "lret", "ljmp", "lcall" };

	probe_init(&p, F_IRET, ring(), what[kind]);
	p.loose = true;
	write_pads();
	write_vm86_code();
	if (chance(8)) {			/* NT in the flags the iret finds */
		push_imm(&p, X86_EFLAGS_FIXED | X86_EFLAGS_IF | X86_EFLAGS_NT);
		probe_bytes(&p, "\x9d", 1);
	}
	if (kind <= 1) {
		/* ... gs, fs, ds, es, ss, esp (virtual-8086 and outward), then
		 * eflags for an iret, cs and eip. */
		unsigned int i;

		for (i = 0; i < 4; i++)
			push_imm(&p, chance(2) ? rnd() & 0xffff : selector());
		push_imm(&p, chance(4) ? selector() : UDS);
		push_imm(&p, chance(4) ? address() : m.user_stack_top - 16);
		if (kind == 0)
			push_imm(&p, frame_eflags());
		push_imm(&p, cs);
		push_imm(&p, eip);
		probe_insn(&p, kind == 0 ? &iret : &lret, 1);
	} else {
		u8 b[7] = { kind == 2 ? 0xea : 0x9a, (u8)eip, (u8)(eip >> 8), (u8)(eip >> 16),
			    (u8)(eip >> 24), (u8)cs, (u8)(cs >> 8) };

		probe_insn(&p, b, sizeof(b));
	}
	probe_run(&p, &o);
}

/* ---- segment loads ---- */

/* A conforming code segment, which any ring may read through. */
static bool conforming(u32 sel)
{
	const u64 *d = sel & 4 ? &m.ldt[(sel >> 3) % LDT_ENTRIES] :
		       &m.gdt[(sel >> 3) % GDT_ENTRIES];

	return ((*d >> 40) & 0xc) == 0xc;
}

static void segment_probe(void)
{
	static const struct { const char *name; u8 bytes[2]; u8 len; u8 reg; bool pop; } loads[] = {
		{ "mov to ds", { 0x8e, 0xd8 }, 2, R_DS, false },
		{ "mov to es", { 0x8e, 0xc0 }, 2, R_ES, false },
		{ "mov to fs", { 0x8e, 0xe0 }, 2, R_FS, false },
		{ "mov to gs", { 0x8e, 0xe8 }, 2, R_GS, false },
		{ "mov to ss", { 0x8e, 0xd0 }, 2, R_ESP, false },
		{ "pop ds", { 0x1f }, 1, R_DS, true },
		{ "pop fs", { 0x0f, 0xa1 }, 2, R_FS, true },
		{ "lds", { 0xc5, 0x0b }, 2, R_DS, false },
	};
	unsigned int i = below(ARRAY_SIZE(loads));
	u32 sel = random_segment(1, true);
	struct probe p;
	struct outcome o;
	u32 *loaded;

	probe_init(&p, F_SEG, ring(), loads[i].name);
	p.in.eax = (rnd() & 0xffff0000) | sel;
	p.vectors |= 1u << X86_TRAP_NP | 1u << X86_TRAP_SS;
	if (loads[i].pop)
		push_imm(&p, p.in.eax);
	if (loads[i].bytes[0] == 0xc5) {	/* lds ecx, [ebx]: a far pointer there */
		u32 *far = (u32 *)(p.ring == 3 ? m.uscratch : m.kscratch);

		far[0] = rnd();
		far[1] = sel;
		p.in.ebx = (u32)far;
		p.outputs |= OUT(R_ECX);
	}
	probe_insn(&p, loads[i].bytes, loads[i].len);
	if (loads[i].reg != R_ESP)
		p.outputs |= OUT(loads[i].reg);
	if (!probe_run(&p, &o) || !o.finished || loads[i].reg == R_ESP)
		return;
	loaded = &o.r.edi + loads[i].reg;
	if ((*loaded & 0xffff) != sel && ((*loaded | sel) & 0xfffc))	/* null: see probe.c */
		finding(&p, "loaded %04x, not the %04x it was given", *loaded & 0xffff, sel);
	else if (sel > 3 && p.ring == 3 && selector_dpl(sel) < 3 && !conforming(sel))
		finding(&p, "ring 3 loaded %04x, whose DPL is %u", sel, selector_dpl(sel));
}

/* ---- hypercalls ---- */

static u32 hypercall_number(void)
{
	if (chance(16))
		return chance(2) ? HCALL_NR + below(4) : rnd();
	for (;;) {
		u32 nr = below(HCALL_NR);

		/* exit ends the life: seldom; init has its own probe */
		if (nr == HCALL_init || (nr == HCALL_exit && !chance(64)))
			continue;
		return nr;
	}
}

/* Arguments for a call of this number: most often what the host would
 * take (its refusals end the life), else edge values of any kind. */
static void hypercall_args(u32 nr, u32 a[3])
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		a[i] = chance(3) ? number() : address();
	if (chance(4))
		return;
	switch (nr) {
	case HCALL_console_write:
		a[0] = (u32)m.kscratch, a[1] = below(64);
		break;
	case HCALL_halt: case HCALL_set_ts: case HCALL_set_timer:
		a[0] = nr == HCALL_halt ? 1 : below(2);
		break;
	case HCALL_write_cr3:
		a[0] = (u32)(chance(2) ? m.pgd : m.alt_pgd);
		break;
	case HCALL_load_gdt: case HCALL_load_idt: case HCALL_load_ldt:
		a[0] = (u32)(nr == HCALL_load_gdt ? m.gdt : nr == HCALL_load_idt ? m.idt : m.ldt);
		a[1] = nr == HCALL_load_ldt ? below(LDT_ENTRIES + 1) :
		       8 * below(nr == HCALL_load_gdt ? GDT_ENTRIES + 1 : 257) - 1;
		break;
	case HCALL_write_gdt_entry: case HCALL_write_ldt_entry: case HCALL_write_idt_entry: {
		u64 d = nr == HCALL_write_idt_entry ? m.idt[below(256)] : m.ldt[below(LDT_ENTRIES)];

		a[0] = nr == HCALL_write_idt_entry ? below(256) : nr == HCALL_write_ldt_entry ?
		       below(LDT_ENTRIES) : GDT_ENTRY_TLS_MIN + below(GDT_ENTRY_TLS_ENTRIES);
		a[1] = (u32)d;
		a[2] = (u32)(d >> 32) ^ (chance(4) ? 3u << 13 : 0);	/* another DPL */
		break;
	}
	case HCALL_set_stack:
		a[0] = chance(2) ? KDS : __KERNEL_DS, a[1] = m.ring1_stack_top - 4 * below(16);
		break;
	case HCALL_context_switch:	/* the Switcher's fast path when a[2] is 0 */
		a[0] = chance(4) ? 0 : (u32)(chance(2) ? m.pgd : m.alt_pgd);
		a[1] = chance(4) ? 0 : m.ring1_stack_top - 4 * below(16);
		a[2] = chance(4) ? number() : 0;
		break;
	case HCALL_set_pte: case HCALL_set_pde: case HCALL_release_pgd:
		a[0] = nr == HCALL_release_pgd ? (u32)(chance(2) ? m.pgd : m.alt_pgd) :
		       nr == HCALL_set_pde ? (u32)&m.pgd[below(1024)] : (u32)&m.pt_edit[below(1024)];
		a[1] = EDIT_VA + PAGE * below(EDIT_PAGES);
		break;
	case HCALL_set_debugreg:
		a[0] = chance(2) ? below(4) : 7;
		a[1] = a[0] == 7 ? below(0x100) : (u32)m.kscratch + 4 * below(8);
		break;
	case HCALL_read_msr: case HCALL_write_msr:
		a[0] = msr(), a[1] = a[2] = 0;
		break;
	case HCALL_set_iopl:
		a[0] = below(2) * 3;
		break;
	}
}

/* After a call the host answered: what the fuzzer must know of it. */
static void hypercall_done(u32 nr, const u32 a[3], u32 ret)
{
	if (nr == HCALL_set_iopl && ret == 0)
		m.iopl = a[0];
	machine_reload();
}

/*
 * One call, and at once the call that gives the fuzzer its gates back
 * (the call may have taken them: a trap through no gate stops a guest,
 * and the probe's own end is a trap), with its interrupts held off
 * until then.  The first call's answer is kept in esi.
 */
static void hypercall_probe(void)
{
	struct probe p;
	struct outcome o;
	u32 nr = hypercall_number(), a[3], idt = (u32)m.idt, limit = sizeof(m.idt) - 1;
	u8 call[] = { 0xcd, HYPERCALL_VECTOR }, keep[] = { 0x89, 0xc6 };	/* mov %eax,%esi */
	u8 gates[] = { 0xb8, HCALL_load_idt, 0, 0, 0, 0xbb, (u8)idt, (u8)(idt >> 8),
		       (u8)(idt >> 16), (u8)(idt >> 24), 0xb9, (u8)limit, (u8)(limit >> 8), 0, 0,
		       0xcd, HYPERCALL_VECTOR };

	hypercall_args(nr, a);
	probe_init(&p, F_HCALL, chance(8) ? 3 : 1, "hypercall");
	p.in.eax = nr;
	p.in.ebx = a[0], p.in.ecx = a[1], p.in.edx = a[2];
	p.outputs = OUT(R_EAX) | OUT(R_EBX) | OUT(R_ECX) | OUT(R_ESI);
	probe_insn(&p, call, sizeof(call));
	if (p.ring == 3) {
		p.int_vector = HYPERCALL_VECTOR;
	} else {
		probe_bytes(&p, keep, sizeof(keep));
		probe_bytes(&p, gates, sizeof(gates));
	}
	m.shared->irq_enabled = 0;
	probe_run(&p, &o);
	if (p.ring == 1 && o.finished)
		hypercall_done(nr, a, o.r.esi);
	else
		machine_reload();
}

/* A burst of calls in the queue, some more than it holds. */
static void queue_probe(void)
{
	volatile struct guest_shared *s = m.shared;
	u32 n = chance(16) ? number() : below(GUEST_QUEUE_LEN + 1), i;

	for (i = 0; i < GUEST_QUEUE_LEN; i++) {
		u32 a[3], nr = hypercall_number();

		if (nr == HCALL_exit || nr == HCALL_halt)
			nr = HCALL_flush;
		hypercall_args(nr, a);
		s->queue[i] = (struct guest_call){ nr, a[0], a[1], a[2] };
	}
	/* Its interrupts held off until its gates are back: the queue may
	 * take them (a load_idt of a short table, a write_idt_entry of an
	 * absent gate), and a trap through no gate stops a guest. */
	m.shared->irq_enabled = 0;
	s->queued = n;
	hcall(HCALL_flush, 0, 0, 0);
	machine_reload();
}

/* The shared page moved to another of its pages, or to one that is not
 * whole pages of its memory (the host stops it). */
static void init_probe(void)
{
	static struct guest_shared alt __attribute__((aligned(PAGE)));
	const u32 pool[] = { (u32)m.shared, (u32)&alt, (u32)&alt + 4, m.mem_end - PAGE,
			     SWITCHER_REGS_PAGE, m.mem_end };
	u32 gpa = PICK(pool);

	if (hcall(HCALL_init, gpa, 0, 0) == 0)
		m.shared = (volatile struct guest_shared *)gpa;
	machine_reload();
}

/* ---- page-table edits, with and without notices ---- */

#define PTE_P	0x001u
#define PTE_W	0x002u
#define PTE_U	0x004u

static u32 pte_value(bool *writable)
{
	u32 frame, flags = PTE_P | (chance(2) ? PTE_U : 0) | (rnd() & 0x178u);
	const u32 pool[] = {
		(u32)m.pt_edit, (u32)m.pgd, (u32)m.kcode, FUZZ_REPORT_GPA, m.mem_end - PAGE,
		0, m.mem_end, 0x40000000, SWITCHER_ADDR,
	};

	*writable = chance(2);
	frame = *writable ? m.scratch[below(NR_SCRATCH)] : PICK(pool);
	if (*writable)
		flags |= PTE_W;
	if (chance(8))
		flags &= ~PTE_P;
	return frame | flags;
}

/* The notice the host asks for after a change, or none, or another;
 * the last two switch away and back as a guest's context switch does,
 * which the Switcher's fast path takes (nothing queued). */
static void notice(u32 entry_gpa, u32 va, bool directory)
{
	switch (below(7)) {
	case 0: break;
	case 1: hcall(directory ? HCALL_set_pde : HCALL_set_pte, entry_gpa, va, 0); break;
	case 2: hcall(HCALL_flush, 0, 0, 0); break;
	case 3: hcall(HCALL_write_cr3, (u32)m.pgd, 0, 0); break;
	case 4: hcall(HCALL_write_cr3, (u32)m.alt_pgd, 0, 0);
		hcall(HCALL_write_cr3, (u32)m.pgd, 0, 0); break;
	case 5: hcall(HCALL_context_switch, (u32)m.alt_pgd, 0, 0);
		hcall(HCALL_context_switch, (u32)m.pgd, 0, 0); break;
	case 6: hcall(HCALL_context_switch, 0, m.ring1_stack_top, 0); break;
	}
}

/* A read or write through the edited slot, at ring 1 or 3. */
static void access_probe(u32 va, bool write)
{
	static const u8 load[] = { 0x8b, 0x03 }, store[] = { 0x89, 0x0b };
	struct probe p;
	struct outcome o;

	probe_init(&p, F_PTE, ring(), write ? "a store through an edited entry" :
		   "a load through an edited entry");
	p.in.ebx = va;
	p.mem_lo = va & ~(PAGE - 1);
	p.mem_hi = p.mem_lo + PAGE + 4;
	p.vectors |= 1u << X86_TRAP_PF;
	probe_insn(&p, write ? store : load, 2);
	p.outputs = write ? 0 : OUT(R_EAX);
	probe_run(&p, &o);
}

static void page_table_probe(void)
{
	/* Store only where every entry a slot ever had was a scratch
	 * frame's: an old shadow entry (no notice) may still be used. */
	static u32 unsafe;
	unsigned int slot = below(EDIT_PAGES);
	u32 offset = chance(4) ? PAGE - 2 : below(PAGE / 4) * 4;
	u32 va = EDIT_VA + slot * PAGE + offset;
	u32 *pte = &m.pt_edit[slot];
	bool writable, store;

	*pte = pte_value(&writable);
	if (!writable)
		unsafe |= 1u << slot;
	notice((u32)pte, va & ~(PAGE - 1), false);
	store = !(unsafe >> slot & 1) && chance(2);
	if (offset > PAGE - 4)			/* it crosses into the next slot */
		store = store && slot + 1 < EDIT_PAGES && !(unsafe >> (slot + 1) & 1);
	access_probe(va, store);
	if (chance(16)) {			/* forget them all, and start clean */
		memset(m.pt_edit, 0, EDIT_PAGES * 4);
		hcall(HCALL_release_pgd, (u32)m.pgd, 0, 0);
		hcall(HCALL_release_pgd, (u32)m.alt_pgd, 0, 0);
		hcall(HCALL_write_cr3, (u32)m.pgd, 0, 0);
		unsafe = 0;
	}
}

/* ---- watchpoints ---- */

static void watchpoint_probe(void)
{
	const u32 pool[] = {
		(u32)m.kscratch, (u32)m.uscratch, (u32)m.kcode, (u32)m.ucode + 2,
		FUZZ_REPORT_GPA, SWITCHER_ADDR - 8, SWITCHER_ADDR, 0, EDIT_VA,
	};
	u32 dr7 = 0, i;

	for (i = 0; i < 4; i++) {
		u32 a = chance(4) ? address() : PICK(pool);
		u32 rw = below(4), len = rw ? below(4) : 0;	/* execute: length 1 */

		if (rw == 2 && !chance(8))		/* I/O: the host refuses it */
			rw = 1;
		hcall(HCALL_set_debugreg, i, a & ~3u, 0);
		if (chance(2))
			dr7 |= 1u << (2 * i) | rw << (16 + 4 * i) | len << (18 + 4 * i);
	}
	if (chance(16))
		dr7 |= chance(2) ? 0x2000 : rnd();
	m.dr_armed = true;
	hcall(HCALL_set_debugreg, 7, dr7, 0);
	for (i = 0; i < 3; i++)
		chance(2) ? privileged_probe() : int_probe(ring(), below(256));
	m.dr_armed = false;
	hcall(HCALL_set_debugreg, 7, 0, 0);
}

/* ---- the FPU: its CR0.TS is the guest's own to trap on ---- */

static void fpu_probe(void)
{
	static const u8 fninit[] = { 0xdb, 0xe3 };
	bool ts = chance(2);
	struct probe p;
	struct outcome o;

	hcall(HCALL_set_ts, ts, 0, 0);
	probe_init(&p, F_FPU, ring(), ts ? "fninit with CR0.TS set" : "fninit");
	probe_insn(&p, fninit, sizeof(fninit));
	p.vectors |= 1u << X86_TRAP_NM;
	if (probe_run(&p, &o) && ts && o.finished)
		finding(&p, "ran without the #NM its CR0.TS asks for");
	hcall(HCALL_set_ts, 0, 0, 0);
}

/* ---- the end of a life, as a guest asks for one ---- */

static void exit_probe(void)
{
	if (chance(2)) {
		m.shared->irq_enabled = 0;
		hcall(HCALL_halt, 0, 0, 0);	/* the host stops it */
	}
	hcall(HCALL_exit, below(6), rnd(), 0);
}

/* The families a run probes (families= on its command line: a mask of
 * 1 << enum family), all by default; fewer only to look past a defect
 * already known, by hand. */
u32 families = ~0u;

/* One probe of a random family, most often the cheap ones. */
void fuzz_one(void)
{
	static const struct { u32 per_mille; enum fuzz_family f; void (*probe)(void); } mix[] = {
		{ 150, F_INT, random_int_probe }, { 300, F_PRIV, privileged_probe },
		{ 70, F_PRIV, random_bytes_probe }, { 120, F_IRET, far_transfer_probe },
		{ 100, F_SEG, segment_probe }, { 90, F_HCALL, hypercall_probe },
		{ 20, F_QUEUE, queue_probe }, { 3, F_HCALL, init_probe },
		{ 97, F_PTE, page_table_probe }, { 25, F_DR, watchpoint_probe },
		{ 24, F_FPU, fpu_probe }, { 1, F_EXIT, exit_probe },
	};
	u32 r = below(1000);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mix); r -= mix[i].per_mille, i++)
		if (r < mix[i].per_mille) {
			if (families >> mix[i].f & 1)
				mix[i].probe();
			return;
		}
}
