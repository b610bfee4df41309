/*
 * hypercall.c - the host's side of the hypercalls (asm/hypercall.h):
 * the queue the guest fills between them, then the call itself.
 *
 * Every argument is the guest's to make up.  What reaches the CPU - a
 * descriptor, a gate, a stack - goes through check.c first; what names
 * guest memory goes through guest_memory_ptr().  A guest that asks for
 * something the checks refuse is stopped, with the reason: a guest
 * kernel that works never does.
 */
#include <kernel.h>
#include <string.h>
#include <asm/cpu.h>
#include <asm/host_check.h>
#include <asm/msr_index.h>
#include <asm/paging.h>
#include <asm/privileged.h>
#include <asm/switcher.h>
#include <asm/timer.h>
#include <asm/processor-flags.h>
#include <asm/traps.h>
#include <uapi/syscalls.h>
#include "host.h"

#define HCALL_NAME(name)	[HCALL_##name] = #name,
static const char *const names[HCALL_NR] = { HYPERCALLS(HCALL_NAME) };

const char *hypercall_name(unsigned int nr)
{
	return nr < HCALL_NR ? names[nr] : "?";
}

/* A call's second and third words, as the one 64-bit value they carry
 * (a descriptor, a gate, an MSR's value): low word first. */
static u64 word_pair(const struct guest_call *c)
{
	return c->a2 | (u64)c->a3 << 32;
}

/* Each hc_<name>() below is the call HCALL_<name>, with its arguments as
 * the guest put them (asm/hypercall.h says what each word is). */

static u32 hc_flush(struct guest *g, const struct guest_call *c)
{
	(void)g, (void)c;
	return 0;		/* the queue ran before it: that was all */
}

static u32 hc_init(struct guest *g, const struct guest_call *c)
{
	u32 gpa = c->a1;
	volatile struct guest_shared *s = guest_memory_ptr(&g->mem, gpa, sizeof(*s));

	if (!s || gpa % PAGE_SIZE) {
		guest_stop(g, "init: its shared pages at %08x are not whole pages of its memory",
			   gpa);
		return -EINVAL;
	}
	g->shared = s;
	g->flag_page = gpa;
	return 0;
}

/* A bounded piece at a time: a guest cannot hold the host in one call
 * for as long as its memory takes to print. */
static u32 hc_console_write(struct guest *g, const struct guest_call *c)
{
	u32 gpa = c->a1, len = c->a2;
	const char *text;

	len = min(len, (u32)GUEST_CONSOLE_MAX);
	text = guest_memory_ptr(&g->mem, gpa, len);

	if (!text)
		return -EFAULT;
	guest_console_output(g, text, len);
	return len;
}

/* A switch, or pv386's TLB flush: a kept shadow if there is one. */
static u32 load_guest_cr3(struct guest *g, u32 gpa)
{
	struct shadow *sh;

	if (gpa % PAGE_SIZE || !guest_memory_ptr(&g->mem, gpa, PAGE_SIZE)) {
		guest_stop(g, "write_cr3: %08x is not a page of its memory", gpa);
		return -EINVAL;
	}
	sh = shadow_cache_switch(&g->shadows, gpa);
	if (!sh) {
		guest_stop_no_frame(g);
		return -ENOMEM;
	}
	g->cpu->guest_cr3 = (u32)sh->pgd;
	return 0;
}

static u32 hc_write_cr3(struct guest *g, const struct guest_call *c)
{
	return load_guest_cr3(g, c->a1);
}

/* Entry index of a descriptor table the CPU uses (the GDT or LDT in the
 * Switcher's state page), as check() lets it be; a refusal stops the
 * guest. */
static u32 put_segment(struct guest *g, const char *table_name, u64 *table,
		       enum guest_verdict (*check)(unsigned int, u64, u64 *),
		       u32 index, u64 desc)
{
	u64 checked;
	enum guest_verdict v = check(index, desc, &checked);

	if (v != GUEST_OK) {
		guest_stop(g, "%s entry %u (%016llx): %s", table_name, index, desc,
			   guest_verdict_text(v));
		return -EINVAL;
	}
	table[index] = checked;
	switcher_segments_changed(g->cpu);
	return 0;
}

static u32 put_gdt_entry(struct guest *g, u32 index, u64 desc)
{
	return put_segment(g, "GDT", g->cpu->guest_gdt_table, guest_check_gdt_entry,
			   index, desc);
}

static u32 hc_write_gdt_entry(struct guest *g, const struct guest_call *c)
{
	return put_gdt_entry(g, c->a1, word_pair(c));
}

/* Its whole table, but the host's own entries (null, TSS, LDT, and the
 * Switcher's past pv386's layout, which its GDT holds as every GDT). */
static u32 hc_load_gdt(struct guest *g, const struct guest_call *c)
{
	u32 gpa = c->a1, limit = c->a2;
	unsigned int n = (limit + 1) / 8, i;
	const u64 *table = guest_memory_ptr(&g->mem, gpa, n * 8);

	if (!table || n > GDT_TABLE_ENTRIES) {
		guest_stop(g, "load_gdt: a table of %u entries at %08x", n, gpa);
		return -EINVAL;
	}
	for (i = 1; i < min(n, GDT_ENTRIES); i++)
		if (i != GDT_ENTRY_TSS && i != GDT_ENTRY_LDT && put_gdt_entry(g, i, table[i]))
			return -EINVAL;
	return 0;
}

/* A gate the checks refuse is kept absent, and said so: a kernel may
 * write a gate it never uses (a test does), and a trap through an
 * absent gate stops the guest then. */
static u32 put_idt_gate(struct guest *g, u32 vector, u64 gate)
{
	u64 checked;
	enum guest_verdict v = guest_check_idt_gate(vector, gate, g->mem.size, &checked);

	if (v == GUEST_BAD_VECTOR) {
		guest_stop(g, "IDT gate %u: %s", vector, guest_verdict_text(v));
		return -EINVAL;
	}
	if (v != GUEST_OK)
		guest_report(g, "the guest's IDT gate %u (%016llx) refused: %s", vector, gate,
			     guest_verdict_text(v));
	guest_set_gate(g, vector, checked);
	return v == GUEST_OK ? 0 : -EINVAL;
}

static u32 hc_write_idt_entry(struct guest *g, const struct guest_call *c)
{
	return put_idt_gate(g, c->a1, word_pair(c));
}

static u32 hc_load_idt(struct guest *g, const struct guest_call *c)
{
	u32 gpa = c->a1, limit = c->a2;
	unsigned int n = (limit + 1) / 8, v;
	const u64 *table = guest_memory_ptr(&g->mem, gpa, n * 8);

	if (!table || n > 256) {
		guest_stop(g, "load_idt: a table of %u gates at %08x", n, gpa);
		return -EINVAL;
	}
	for (v = 0; v < 256; v++)
		put_idt_gate(g, v, v < n ? table[v] : 0);
	return 0;
}

/* An entry of the loaded LDT: the host's copy follows the guest's. */
static u32 put_ldt_entry(struct guest *g, u32 index, u64 desc)
{
	return put_segment(g, "LDT", g->cpu->guest_ldt_table, guest_check_ldt_entry,
			   index, desc);
}

static u32 hc_write_ldt_entry(struct guest *g, const struct guest_call *c)
{
	return put_ldt_entry(g, c->a1, word_pair(c));
}

/* Its LDT, copied entry by entry through the checks; lldt at the next
 * entry into the guest (world_switch.S). */
static u32 hc_load_ldt(struct guest *g, const struct guest_call *c)
{
	u32 gpa = c->a1, entries = c->a2;
	const u64 *table = NULL;
	unsigned int i;

	if (entries <= GUEST_LDT_ENTRIES)
		table = guest_memory_ptr(&g->mem, gpa, entries * sizeof(u64));
	if (entries > GUEST_LDT_ENTRIES || (entries && !table)) {
		guest_stop(g, "load_ldt: a table of %u entries at %08x", entries, gpa);
		return -EINVAL;
	}
	for (i = 0; i < entries; i++)
		if (put_ldt_entry(g, i, table[i]))
			return -EINVAL;
	switcher_set_ldt(g->cpu, entries);
	return 0;
}

/*
 * The ring-1 stack: in the guest's state, and in the real TSS for the
 * direct system-call gate, which the CPU takes without the host.  That
 * gate needs a stack known (interrupts.c), so the first stack rebuilds
 * it; the checked ss is the same one ever after (never 0 again), so a
 * later stack - one per guest context switch - changes nothing in it
 * (a new gate is put by its own hypercall).
 */
static u32 hc_set_stack(struct guest *g, const struct guest_call *c)
{
	u32 ss = c->a1, esp = c->a2, checked_ss;
	enum guest_verdict v = guest_check_stack(ss, esp, g->mem.size, &checked_ss);
	bool first = !g->cpu->guest_tss.ss1;

	if (v != GUEST_OK) {
		guest_stop(g, "set_stack %04x:%08x: %s", ss, esp, guest_verdict_text(v));
		return -EINVAL;
	}
	g->cpu->guest_tss.ss1 = checked_ss;
	g->cpu->guest_tss.esp1 = esp;
	if (first)
		guest_set_gate(g, SYSCALL_VECTOR, g->gates[SYSCALL_VECTOR]);
	return 0;
}

/* A watchpoint's address (0-3) or the control (7): the four and DR7
 * checked together, as the CPU will hold them (world_switch.S). */
static u32 hc_set_debugreg(struct guest *g, const struct guest_call *c)
{
	u32 regno = c->a1, value = c->a2;
	struct switcher_state *s = g->cpu;
	u32 addr[4] = { s->guest_dr[0], s->guest_dr[1], s->guest_dr[2], s->guest_dr[3] };
	u32 dr7 = regno == 7 ? value : s->guest_dr7;
	enum guest_verdict v;

	if (regno < 4)
		addr[regno] = value;
	else if (regno != 7) {
		guest_stop(g, "set_debugreg: no debug register %u", regno);
		return -EINVAL;
	}
	v = guest_check_debugregs(addr, dr7);
	if (v != GUEST_OK) {
		guest_stop(g, "set_debugreg %u to %08x: %s", regno, value, guest_verdict_text(v));
		return -EINVAL;
	}
	memcpy(s->guest_dr, addr, sizeof(addr));
	s->guest_dr7 = dr7;
	return 0;
}

/*
 * Only the MSRs check.c lets a guest have; for the rest, -EFAULT, as the
 * guest's read_msr would answer natively on a CPU without them (its
 * exception table's answer).  Asking is no offence: it goes on.  The
 * TSC's MSR is the counter rdtsc reads, so that is the answer, as Xen
 * and KVM give theirs (QEMU's TCG reads the MSR itself as 0).
 */
static u32 hc_read_msr(struct guest *g, const struct guest_call *c)
{
	u32 msr = c->a1;
	u64 value;

	if (guest_check_msr_read(msr) != GUEST_OK)
		return -EFAULT;
	if (msr == MSR_IA32_TSC) {
		if (!cpu_has(X86_FEATURE_TSC))
			return -EFAULT;
		value = read_tsc();
	} else if (rdmsr_safe(msr, &value)) {
		return -EFAULT;
	}
	g->shared->msr_value = value;
	return 0;
}

static u32 hc_write_msr(struct guest *g, const struct guest_call *c)
{
	u32 msr = c->a1;
	u64 value = word_pair(c);

	(void)g;
	if (guest_check_msr_write(msr, value) != GUEST_OK || wrmsr_safe(msr, value))
		return -EFAULT;
	return 0;
}

/* The program it runs now may use ports (3) or not (0): port_io.c does
 * its in and out; the CPU's IOPL stays 0. */
static u32 hc_set_iopl(struct guest *g, const struct guest_call *c)
{
	u32 level = c->a1;

	if (level != 0 && level != 3) {
		guest_stop(g, "set_iopl: no I/O privilege level %u for its programs", level);
		return -EINVAL;
	}
	g->user_iopl = level;
	return 0;
}

static u32 hc_halt(struct guest *g, const struct guest_call *c)
{
	if (c->a1)		/* sti; hlt as one call: nothing slips in between */
		g->shared->irq_enabled = X86_EFLAGS_IF;
	if (!(g->shared->irq_enabled & X86_EFLAGS_IF))
		guest_stop(g, "halted with interrupts off");
	else
		g->halted = true;
	return 0;
}

static const char *const exit_kinds[] = {
	[GUEST_EXIT_EMULATOR] = "emulator exit", [GUEST_EXIT_POWER_OFF] = "power off",
	[GUEST_EXIT_RESTART] = "restart", [GUEST_EXIT_HALTED] = "halted",
};

static u32 hc_exit(struct guest *g, const struct guest_call *c)
{
	u32 kind = c->a1, value = c->a2;

	if (kind == GUEST_EXIT_EMULATOR)
		g->exit_value = value & 0xff;
	guest_stop(g, "it asked to stop: %s (value 0x%x)",
		   kind < ARRAY_SIZE(exit_kinds) ? exit_kinds[kind] : "?", value);
	return 0;
}

/* Its CR0.TS: the host's #NM then is the guest's to take (run.c). */
static u32 hc_set_ts(struct guest *g, const struct guest_call *c)
{
	g->ts = c->a1 != 0;
	return 0;
}

/* Its timer on (at the host's rate, which is the answer) or off. */
static u32 hc_set_timer(struct guest *g, const struct guest_call *c)
{
	g->timer_on = c->a1 != 0;
	return timer_hz();
}

/* Its page-table changes: the shadows forget what they made from the
 * old entries (page_tables.c, shadow_cache.c). */
static u32 hc_set_pte(struct guest *g, const struct guest_call *c)
{
	shadow_cache_pte_changed(&g->shadows, c->a1, c->a2);
	return 0;
}

static u32 hc_set_pde(struct guest *g, const struct guest_call *c)
{
	shadow_cache_pde_changed(&g->shadows, c->a1);
	return 0;
}

static u32 hc_release_pgd(struct guest *g, const struct guest_call *c)
{
	shadow_cache_release(&g->shadows, c->a1);
	return 0;
}

/*
 * The end of the guest's context switch (its lazy CPU mode), when the
 * Switcher's fast path did not take it: what was queued has run; then
 * the ring-1 stack and the page directory, each if given, through the
 * same calls as alone.
 */
static u32 hc_context_switch(struct guest *g, const struct guest_call *c)
{
	struct guest_call stack = { HCALL_set_stack, __KERNEL_DS | GUEST_KERNEL_RPL, c->a2, 0 };
	struct guest_call cr3 = { HCALL_write_cr3, c->a1, 0, 0 };

	if (c->a2 && hc_set_stack(g, &stack))
		return -EINVAL;
	return c->a1 ? hc_write_cr3(g, &cr3) : 0;
}

/*
 * The dispatch table, made from the one list (asm/hypercall.h): a call
 * listed there without its hc_ function here does not compile, and an
 * hc_ function the list lacks is an unused one, which does not either.
 */
typedef u32 (*hypercall_handler)(struct guest *g, const struct guest_call *c);
#define HCALL_HANDLER(name)	[HCALL_##name] = hc_##name,
static const hypercall_handler handlers[HCALL_NR] = { HYPERCALLS(HCALL_HANDLER) };

/* One call; calls that need the shared page wait for init. */
static u32 run_call(struct guest *g, const struct guest_call *c)
{
	if (c->nr >= HCALL_NR) {
		guest_report(g, "the guest made hypercall %u, which there is not", c->nr);
		return -ENOSYS;
	}
	g->stats.hypercalls[c->nr]++;
	if (!g->shared && c->nr != HCALL_init && c->nr != HCALL_console_write &&
	    c->nr != HCALL_exit) {
		guest_stop(g, "hypercall %s before init", hypercall_name(c->nr));
		return -EINVAL;
	}
	return handlers[c->nr](g, c);
}

/* The queue, as the guest left it; each entry read once.  Inlined in
 * both of its callers: made a call of its own, it cost the guest's
 * hypercalls more than the fast exit saved them (make bench). */
static inline __attribute__((always_inline)) void run_queue(struct guest *g)
{
	volatile struct guest_shared *s = g->shared;
	u32 n = s ? s->queued : 0, i;

	if (n > GUEST_QUEUE_LEN) {
		guest_stop(g, "%u calls in a queue of %u", n, GUEST_QUEUE_LEN);
		return;
	}
	for (i = 0; i < n && g->state == GUEST_RUNNING; i++) {
		struct guest_call c = { s->queue[i].nr, s->queue[i].a1, s->queue[i].a2,
					s->queue[i].a3 };

		run_call(g, &c);
	}
	if (s)
		s->queued = 0;
}

void guest_hypercall(struct guest *g, struct pt_regs *regs)
{
	guest_exit_is(g, regs->eax < HCALL_NR ? regs->eax : HOST_COUNT_other);
	run_queue(g);
	if (g->state == GUEST_RUNNING) {
		struct guest_call c = { regs->eax, regs->ebx, regs->ecx, regs->edx };

		regs->eax = run_call(g, &c);
	}
}

/*
 * The calls a guest's context switch makes - write_cr3, with its ring-1
 * stack queued before it, and flush, after its TLS writes - for run.c's
 * fast exit.  The same as guest_hypercall() does for them, in the same
 * order: the counts, the queue (each entry through run_call and its
 * checks), then the call, whose write_cr3 is hc_write_cr3's own, with
 * its checks; only the dispatch is left out - the general one's tests
 * and the table's indirect call.  False, with nothing done, for any
 * other call, or before init: guest_hypercall's.
 */
bool guest_fast_hypercall(struct guest *g, struct pt_regs *regs)
{
	volatile struct guest_shared *s = g->shared;
	u32 nr = regs->eax;

	if (!s || !hypercall_is_fast(nr))
		return false;
	guest_exit_is(g, nr);
	if (s->queued)
		run_queue(g);
	if (g->state != GUEST_RUNNING)
		return true;
	g->stats.hypercalls[nr]++;
	regs->eax = nr == HCALL_flush ? 0 : load_guest_cr3(g, regs->ebx);
	return true;
}
