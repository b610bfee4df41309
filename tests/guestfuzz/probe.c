/*
 * probe.c - one probe, run and judged (guestfuzz.h has the design).
 *
 * probe_run() writes the probe's bytes and the `int $0x80` that ends it
 * into the code page of its ring, enters it by an iret from a frame
 * of its registers, and is back when a trap ends it: trap_c() reads the
 * frame the trap left, and the checks here compare it with what any CPU
 * would have left.  The host's injected interrupts, which may come in
 * the middle of a probe, are counted and resumed at once.
 *
 * What a probe's trap frame looks like is not taken on trust, for that
 * is what a host can get wrong (a software int on a vector with an
 * error code, taken as the CPU's, shifts the whole frame): the frame is read
 * with and without an error code, and must make sense one way.
 */
#include "guestfuzz.h"

struct fuzz_report *const report = (struct fuzz_report *)FUZZ_REPORT_GPA;

const char *const family_names[F_NR] = {
	[F_INT] = "int", [F_PRIV] = "insn", [F_IRET] = "far return", [F_SEG] = "segment load",
	[F_HCALL] = "hypercall", [F_QUEUE] = "queued hypercalls", [F_PTE] = "page table",
	[F_DR] = "watchpoint", [F_FPU] = "fpu", [F_EXIT] = "exit",
};

/* The frame probe_enter irets from (start.S): popal's registers, the
 * data segments, then eip, cs, eflags and, to ring 3, esp and ss. */
struct launch {
	struct regs r;
	u32 eip, cs, eflags, esp, ss;
};

/* What trap_common pushed: the registers, the stub's vector, then the
 * frame the CPU or the host left, which may start with an error code. */
struct trap_frame {
	struct regs r;
	u32 vector;
	u32 w[9];
};

u32 probe_saved_esp;			/* start.S: the way back */
void probe_enter(struct launch *l);	/* start.S */
static const struct probe *active;	/* the probe running, or NULL */
static struct outcome *result;
static unsigned int findings_printed;

#define FINDINGS_PRINTED_MAX	20	/* in a life; all are counted */

/* The vectors a CPU pushes an error code for. */
static bool has_error_code(unsigned int v)
{
	return v == 8 || (v >= 10 && v <= 14) || v == 17;
}

void finding(const struct probe *p, const char *fmt, ...)
{
	char text[FUZZ_TEXT_LEN];
	va_list ap;
	int n;

	if (p->int_vector >= 0 && p->family == F_INT)
		n = snprintf(text, sizeof(text), "int $0x%x at ring %u: ", p->int_vector, p->ring);
	else
		n = snprintf(text, sizeof(text), "%s at ring %u: ", p->what, p->ring);
	va_start(ap, fmt);
	vsnprintf(text + n, sizeof(text) - n, fmt, ap);
	va_end(ap);
	if (!report->findings++)
		memcpy(report->first, text, sizeof(text));
	if (findings_printed++ < FINDINGS_PRINTED_MAX)
		print("guestfuzz: FINDING seed %u life %u batch %u probe %u: %s\n", report->seed,
		      report->life, report->batches, report->probes, text);
}

/* EFLAGS as a CPU pushes them: bit 1 set, bits 3, 5, 15 and 22-31 clear. */
static bool eflags_sane(u32 f)
{
	return (f & X86_EFLAGS_FIXED) && !(f & 0xffc08028u);
}

/*
 * The frame at w read with an error code or without: the outcome's
 * fields, or false if no CPU pushes such a frame (a code selector of
 * ring 0 counts as sane here: the caller reports it as the worst).
 */
static bool read_frame(const u32 *w, bool ec, struct outcome *o)
{
	const u32 *f = w + ec;
	u32 cs = f[1] & 0xffff;

	o->has_error_code = ec;
	o->error_code = ec ? w[0] : 0;
	o->eip = f[0];
	o->cs = cs;
	o->eflags = f[2];
	o->esp = o->ss = 0;
	if (!eflags_sane(f[2]))
		return false;
	if (f[2] & X86_EFLAGS_VM) {
		o->esp = f[3];
		o->ss = f[4] & 0xffff;
		return true;
	}
	if ((cs & 3) == 0)		/* check_frame() names it */
		return true;
	if ((cs & 3) != 1) {		/* from an outer ring: its stack too */
		o->esp = f[3];
		o->ss = f[4] & 0xffff;
		/* a null cs is 0-3 (4-7 is the LDT's first entry) */
		if ((o->ss & 3) != (cs & 3) || !(cs & ~3u))
			return false;
	}
	return selector_dpl(cs) != 4;
}

/* An interrupt the host injected: counted, and the guest's flag back on
 * if the interrupted code had it on (an interrupt gate cleared it). */
static void injected_interrupt(const struct trap_frame *f)
{
	report->irqs++;
	if (f->w[2] & X86_EFLAGS_IF)
		m.shared->irq_enabled = X86_EFLAGS_IF;
}

/* A trap the fuzzer did not ask for, outside any probe: its own code
 * hit a watchpoint (resumed past it), or the host sent it a trap it
 * never raised, which is reported, and the life ends. */
static u32 stray_trap(struct trap_frame *f)
{
	static const struct probe none = { .what = "the fuzzer's own code", .ring = 1 };

	if (f->vector == X86_TRAP_DB) {
		f->w[2] |= X86_EFLAGS_RF;
		return 0;
	}
	finding(&none, "trap %u outside any probe (frame %08x %08x %08x %08x)", f->vector,
		f->w[0], f->w[1], f->w[2], f->w[3]);
	hcall(HCALL_exit, GUEST_EXIT_EMULATOR, 0x11, 0);
	for (;;)
		;
}

/* start.S's handler: 0 resumes the trapped code, else the probe ends. */
u32 __attribute__((regparm(3))) trap_c(struct trap_frame *f)
{
	struct outcome *o = result;
	bool ec;

	if (f->vector >= FIRST_EXTERNAL_VECTOR && f->vector < FIRST_EXTERNAL_VECTOR + 16) {
		injected_interrupt(f);
		return 0;
	}
	if (!active)
		return stray_trap(f);
	o->vector = f->vector;
	o->r = f->r;
	o->cr2 = m.shared->cr2;
	o->dr6 = m.shared->dr6;
	/* Read as the CPU's own exception: the host never lets a software
	 * int through an error-code vector's gate (int_admitted()), so the
	 * frame of vector 13 or 14 has its error code even after an int. */
	ec = has_error_code(f->vector);
	o->bad_frame = !read_frame(f->w, ec, o);
	if (o->bad_frame && read_frame(f->w, !ec, o))
		o->bad_frame = false, o->error_code_surprise = true;
	active = NULL;
	return 1;
}

void probe_init(struct probe *p, enum fuzz_family f, unsigned int ring, const char *what)
{
	u32 *reg = &p->in.edi;
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->family = f;
	p->ring = ring;
	p->what = what;
	p->int_vector = -1;
	for (i = 0; i < 8; i++)		/* canaries: any value, each its own */
		reg[i] = rnd();
	p->in.ds = p->in.es = random_segment(ring, false);
	p->in.fs = random_segment(ring, false);
	p->in.gs = random_segment(ring, false);
	p->eflags = X86_EFLAGS_FIXED | X86_EFLAGS_IF | (rnd() & 0x8d5u);	/* the arithmetic flags */
	p->vectors = 1u << X86_TRAP_GP | 1u << X86_TRAP_UD;
}

void probe_bytes(struct probe *p, const void *bytes, unsigned int n)
{
	if (p->len + n <= CODE_MAX - 4) {
		memcpy(p->code + p->len, bytes, n);
		p->len += n;
	}
}

void probe_insn(struct probe *p, const void *bytes, unsigned int n)
{
	p->insn_at = p->len;
	probe_bytes(p, bytes, n);
}

/*
 * A data segment register's value: at ring 1 any selector that loads
 * there, at ring 3 only those that also survive the iret to ring 3
 * (a CPU clears one of a lower DPL), so that the probe starts with what
 * it was given; with any, also selectors that do not load at all.
 */
u32 random_segment(unsigned int ring, bool any)
{
	for (;;) {
		u32 sel = below(4);

		switch (below(5)) {
		case 0: break;					/* null */
		case 1: sel |= __KERNEL_DS; break;
		case 2: sel |= __USER_DS & ~3u; break;
		case 3: sel |= 4 | below(LDT_ENTRIES) << 3; break;
		case 4: sel |= (GDT_ENTRY_TLS_MIN + below(GDT_ENTRY_TLS_ENTRIES)) << 3; break;
		}
		if (any && chance(3))
			return chance(2) ? rnd() & 0xffff : sel;
		if (sel < 4)
			return sel;
		if (selector_is_data(sel, false) &&
		    selector_dpl(sel) >= (ring > (sel & 3) ? ring : (sel & 3)))
			return sel;
	}
}

/* Where the probe's bytes go and its launch frame lies. */
static u32 code_address(const struct probe *p)
{
	return (u32)(p->ring == 3 ? m.ucode : m.kcode);
}

static void note_probe(const struct probe *p)
{
	struct fuzz_probe_note *n = &report->last;

	n->family = p->family;
	n->ring = p->ring;
	n->len = p->len;
	memcpy(n->code, p->code, sizeof(n->code));
	n->eax = p->in.eax, n->ebx = p->in.ebx, n->ecx = p->in.ecx, n->edx = p->in.edx;
	n->ds = p->in.ds, n->es = p->in.es, n->fs = p->in.fs, n->gs = p->in.gs;
	n->eflags = p->eflags;
	report->probes++;
}

/* Into the probe, and back with its outcome. */
static void launch(const struct probe *p, struct outcome *o)
{
	static const u8 end[] = { 0xcd, SYSCALL_GATE, 0x0f, 0x0b };	/* int $0x80; ud2 */
	struct launch *l = (struct launch *)(m.probe_stack_top - sizeof(struct launch));
	u8 *code = (u8 *)code_address(p);

	memcpy(code, p->code, p->len);
	memcpy(code + p->len, end, sizeof(end));
	l->r = p->in;
	l->eip = (u32)code;
	l->cs = p->ring == 3 ? UCS : KCS;
	l->eflags = p->eflags;
	l->esp = p->ring == 3 ? m.user_stack_top - 64 : 0;
	l->ss = p->ring == 3 ? UDS : 0;
	note_probe(p);
	memset(o, 0, sizeof(*o));
	result = o;
	active = p;
	probe_enter(l);
	active = NULL;
	o->finished = o->vector == SYSCALL_GATE && o->eip == (u32)code + p->len + 2;
}

/* The registers a probe may not change: the same after it, or after
 * its fault (a fault changes none). */
static void check_registers(const struct probe *p, const struct outcome *o, bool faulted)
{
	static const char *const names[] = {
		"edi", "esi", "ebp", "esp", "ebx", "edx", "ecx", "eax", "gs", "fs", "es", "ds",
	};
	const u32 *in = &p->in.edi, *out = &o->r.edi;
	unsigned int i;

	for (i = 0; i < 12; i++) {
		u32 mask = i >= R_GS ? 0xffff : 0xffffffff;

		if (i == R_ESP || (!faulted && (p->outputs & OUT(i))))
			continue;
		/* A null selector's RPL is the one bit of state a world
		 * switch may lose: the Switcher's iret from ring 0 makes a
		 * null data segment 0, as a CPU's return to an outer ring
		 * does.  It names no segment either way. */
		if (i >= R_GS && (in[i] & 0xfffc) == 0 && (out[i] & 0xfffc) == 0)
			continue;
		/* A hypercall may rewrite the descriptor a data register
		 * holds; a CPU would keep what it loaded, but the host
		 * reloads every register at each entry, and enters one that
		 * would no longer load as null (arch/x86/host/switcher.c,
		 * guest_segments_load). */
		if (i >= R_GS && (out[i] & 0xfffc) == 0 &&
		    (p->family == F_HCALL || p->family == F_QUEUE))
			continue;
		if ((in[i] & mask) != (out[i] & mask)) {
			finding(p, "%s was %08x, is %08x after vector %u at %08x", names[i],
				in[i] & mask, out[i] & mask, o->vector, o->eip);
			return;
		}
	}
}

/* A page fault names an address the probe touched: its data, its code,
 * its stack; any other is someone else's (the host's last CR2). */
static void check_page_fault(const struct probe *p, const struct outcome *o)
{
	u32 a = o->cr2, sp = p->ring == 3 ? m.user_stack_top : m.probe_stack_top;

	if (a - p->mem_lo < p->mem_hi - p->mem_lo)	/* the range may wrap at 4 GiB */
		return;
	if (a - o->eip < 16 || a - code_address(p) < 4096 || sp - a <= 4096 || a - sp < 64)
		return;
	finding(p, "a page fault at %08x names %08x, which it never touched", o->eip, a);
}

/*
 * Whether the host lets an int n at this ring through to the guest's
 * gate n.  A CPU decides by the gate's DPL alone; the host's real IDT
 * (arch/x86/host/interrupts.c, guest_set_gate) adds its own rule on
 * top, which the fuzzer holds it to:
 *   - vectors whose exit the host reads as the CPU's own exception -
 *     those with an error code (8, 10-14, 17), #DB (1), #NM (7), and
 *     the machine's NMI (2) and machine check (18) -
 *     and the hardware interrupts' (0x20-0x2f) admit ring 0 only,
 *     whatever the guest's gate says: an int there is #GP(n << 3 | 2),
 *     what a CPU gives for a gate its ring may not use;
 *   - the hypercall vector admits ring 1 only, and is the host's;
 *   - any other gate admits the rings the guest's does (a DPL of 0
 *     counts as 1: the host raises it to its kernel's ring).
 */
static bool int_admitted(unsigned int n, unsigned int ring)
{
	if (has_error_code(n) || n == X86_TRAP_DB || n == X86_TRAP_NM ||
	    n == X86_TRAP_NMI || n == X86_TRAP_MC ||
	    (n >= FIRST_EXTERNAL_VECTOR && n < FIRST_EXTERNAL_VECTOR + 16))
		return false;
	if (n == HYPERCALL_VECTOR)
		return ring == 1;
	return ring == 1 || gate_dpl3(n);
}

/* An int n ends as the host's rule says: through gate n (no error code,
 * at the next instruction; the hypercall returns), or refused as #GP
 * naming gate n, at the int itself. */
static void check_int(const struct probe *p, const struct outcome *o, u32 at)
{
	u32 n = (u32)p->int_vector;
	bool admitted = int_admitted(n, p->ring);
	bool through = o->vector == n && !o->has_error_code && o->eip == at + 2;
	bool refused = o->vector == X86_TRAP_GP && o->has_error_code &&
		       o->error_code == (n << 3 | 2) && o->eip == at;

	if (n == HYPERCALL_VECTOR && p->ring == 1)
		through = o->finished;			/* the host's: it returns */
	if (o->vector == X86_TRAP_DB && ((p->eflags & X86_EFLAGS_TF) || m.dr_armed))
		return;					/* a step or a watchpoint first */
	if (admitted && through)
		return;
	if (!admitted && refused)
		return;
	if (o->finished && !through)
		finding(p, "ran on past it, as if no gate had been taken");
	else if (through)
		finding(p, "passed gate %u, which the host's rule closes to ring %u", n, p->ring);
	else if (refused)
		finding(p, "refused with #GP, though its gate admits ring %u", p->ring);
	else
		finding(p, "vector %u%s (error code %x) at %08x", o->vector,
			o->has_error_code ? "" : " without error code", o->error_code, o->eip);
}

/*
 * A frame from virtual-8086 mode, where only an emulator's leniency
 * (QEMU's TCG) lets an iret at ring 1 or 3 go: the host lets no code run
 * there (no user page below VM86_REACH_END: arch/x86/host/page_tables.c;
 * every exit from there goes to the guest: run.c, vm86_exit), so the
 * frame must be the page fault of its first fetch, or the #GP(0) it
 * gives for its own interrupt that came first (or a fetch past the
 * 64 KiB limit), or a watchpoint on that fetch.  Its I/O privilege is
 * then the fuzzer's own iret's, which QEMU took as it was: harmless
 * while no instruction runs, and not a finding.
 */
static void check_vm86_frame(const struct probe *p, const struct outcome *o)
{
	u32 first_fetch = (o->cs << 4) + o->eip;

	if (o->vector == X86_TRAP_PF && o->cr2 == first_fetch)
		return;
	if (o->vector == X86_TRAP_GP && o->has_error_code && o->error_code == 0)
		return;
	if (o->vector == X86_TRAP_DB && m.dr_armed)
		return;
	finding(p, "virtual-8086 code ran: vector %u (error code %x) at %04x:%04x, cr2 %08x",
		o->vector, o->error_code, o->cs, o->eip, o->cr2);
}

/* What holds for every probe, whatever it did. */
static bool check_frame(const struct probe *p, const struct outcome *o)
{
	if (o->bad_frame) {
		finding(p, "vector %u left a frame no CPU pushes", o->vector);
		return false;
	}
	if (o->error_code_surprise)
		finding(p, "vector %u came %s an error code, at %08x", o->vector,
			o->has_error_code ? "with" : "without", o->eip);
	if (!(o->eflags & X86_EFLAGS_VM) && (o->cs & 3) == 0) {
		finding(p, "vector %u came from ring 0, cs %04x eip %08x", o->vector, o->cs,
			o->eip);
		return false;
	}
	if (o->eflags & X86_EFLAGS_VM) {
		check_vm86_frame(p, o);
		return true;
	}
	if (o->eflags & X86_EFLAGS_IOPL)
		finding(p, "vector %u came with I/O privilege %u (eflags %08x)", o->vector,
			(o->eflags & X86_EFLAGS_IOPL) >> X86_EFLAGS_IOPL_BIT, o->eflags);
	return true;
}

/* The checks of one outcome. */
static void judge(const struct probe *p, const struct outcome *o)
{
	u32 at = code_address(p) + p->insn_at;
	bool faulted = !o->finished && o->eip == at && o->vector != X86_TRAP_DB;

	if (!check_frame(p, o) || p->loose)
		return;
	if (o->vector == X86_TRAP_PF)
		check_page_fault(p, o);
	if (p->int_vector >= 0) {
		check_int(p, o, at);
	} else if (!o->finished && o->vector < 32 && !(p->vectors >> o->vector & 1) &&
		   !(o->vector == X86_TRAP_DB && ((p->eflags & X86_EFLAGS_TF) || m.dr_armed))) {
		finding(p, "vector %u (error code %x) at %08x", o->vector, o->error_code, o->eip);
	} else if (!o->finished && o->vector >= 32 && o->vector != SYSCALL_GATE) {
		finding(p, "vector %u, which it never raised, at %08x", o->vector, o->eip);
	} else if (o->finished && p->must_fault) {
		finding(p, "ran to its end without a fault");
	}
	check_registers(p, o, faulted);
}

/* Run p, judge it; false if it was a finding. */
bool probe_run(struct probe *p, struct outcome *o)
{
	u32 before = report->findings;

	launch(p, o);
	judge(p, o);
	return report->findings == before;
}
