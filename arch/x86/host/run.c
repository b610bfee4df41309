/*
 * run.c - running a guest from exit to exit: each time the Switcher
 * comes back (switcher.c) the host does what the exit asks and runs
 * the guest on.
 *
 * An exit is a hypercall (hypercall.c), a page fault the shadow fills
 * or passes on (page_tables.c), a trap for the guest's own IDT
 * (interrupts.c), or one of the host's own interrupts, already handled.
 * Before each entry the guest's timer ticks and its pending interrupts
 * are injected if its flag allows, else its flag page is armed to trap
 * the store that allows them (irq_window.c); a guest that keeps them off
 * too long is stopped.  guest_run() returns to its caller (kernel/host.c, a host
 * thread) when the guest halts or stops, or the host's scheduler wants
 * the CPU.
 */
#include <kernel.h>
#include <asm/atomic.h>
#include <asm/fpu.h>
#include <asm/host_check.h>
#include <asm/hypercall.h>
#include <asm/irq.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/switcher.h>
#include <asm/timer.h>
#include <asm/traps.h>
#include <arch_door.h>
#include "host.h"

#define IRQS_OFF_LIMIT_S	10	/* interrupts off this long, one waiting: stuck */

/* Its timer: IRQ 0 at each of the host's ticks (missed ones merge). */
static void tick(struct guest *g)
{
	unsigned long now = timer_ticks();

	if (!g->shared || now == g->last_tick)
		return;
	g->last_tick = now;
	if (g->timer_on)
		atomic_or(&g->shared->irq_pending, 1u << IRQ_TIMER);	/* host.h */
}

/* A guest that keeps its interrupts off while one waits, for seconds,
 * is stuck (or hostile): the host stops it. */
static void check_irqs_off(struct guest *g)
{
	volatile struct guest_shared *s = g->shared;

	if (!s || (s->irq_enabled & X86_EFLAGS_IF) || !(s->irq_pending & ~s->irq_masked)) {
		g->irqs_off_since = 0;
		return;
	}
	if (!g->irqs_off_since)
		g->irqs_off_since = timer_ticks();
	else if (timer_ticks() - g->irqs_off_since > IRQS_OFF_LIMIT_S * timer_hz())
		guest_stop(g, "interrupts off for %u s with one waiting, at %08x",
			   IRQS_OFF_LIMIT_S, switcher_guest_regs()->eip);
}

/*
 * A page fault on the fetch of the guest's own page-fault handler, at
 * the address its gate gives: the handler can never run, and each
 * delivery of the fault would push one more frame below the last, until
 * the stack ran out of mapped pages (deliver() writes frames through the
 * guest's tables and stops it there) - thousands of nested faults for
 * one mistake.  A CPU would double-fault at once; the guest is stopped.
 */
static bool page_fault_handler_unmapped(struct guest *g, const struct pt_regs *r, u32 cr2)
{
	u64 gate = g->gates[X86_TRAP_PF];

	return gate_present(gate) && !(r->eflags & X86_EFLAGS_VM) &&
	       r->eip == gate_offset(gate) && (r->cs & 0xffff) == gate_selector(gate) &&
	       cr2 - r->eip < GUEST_INSN_MAX;
}

/* The guest's page fault: its address where its read_cr2 finds it, in
 * the shared page - if it has given one yet; if not, it has no gates
 * either, and the delivery stops it. */
static void reflect_page_fault(struct guest *g, u32 cr2, u32 error_code)
{
	struct pt_regs *r = switcher_guest_regs();

	if (page_fault_handler_unmapped(g, r, cr2)) {
		guest_stop(g, "trap 14: its page-fault handler at %08x is not mapped by its "
			   "page tables (a CPU would double-fault)", r->eip);
		return;
	}
	if (g->shared)
		g->shared->cr2 = cr2;
	guest_reflect_trap(g, X86_TRAP_PF, error_code);
}

static void page_fault(struct guest *g, struct pt_regs *r, u32 cr2)
{
	switch (shadow_fault(g->shadows.active, cr2, &r->error_code)) {
	case SHADOW_FILLED:
		g->stats.shadow_faults++;
		guest_exit_is(g, HOST_COUNT_shadow_fill);
		irq_window_fault(g, r, cr2);
		return;
	case SHADOW_GUEST_FAULT:
		reflect_page_fault(g, cr2, r->error_code);
		return;
	case SHADOW_BAD_TABLE:
		guest_stop(g, "its page tables map %08x outside its memory", cr2);
		return;
	case SHADOW_NO_MEMORY:
		guest_stop_no_frame(g);
		return;
	case SHADOW_LARGE_PAGE:
		guest_stop(g, "its page directory maps %08x with a 4 MiB page (PS=1), "
			   "which its cpuid does not offer", cr2);
		return;
	}
}

/* A program's port I/O, done for it if its kernel gave it I/O
 * privilege (port_io.c).  Ring 1 doing itself what only paravirt_ops
 * may: named, then passed on (its exception table may expect it; else
 * it panics, and says so). */
static void general_protection(struct guest *g, struct pt_regs *r)
{
	u32 len = r->eip < g->mem.size ? min(g->mem.size - r->eip, GUEST_INSN_MAX) : 0;
	const u8 *code = len ? guest_memory_ptr(&g->mem, r->eip, len) : NULL;
	const char *insn, *op;

	if (guest_port_io(g, r))
		return;
	if ((r->cs & 3) == GUEST_KERNEL_RPL && code &&
	    (insn = guest_privileged_insn(code, len, &op)))
		guest_report(g, "the guest ran %s itself at %08x: paravirt_ops has it as %s",
			     insn, r->eip, op);
	guest_reflect_trap(g, X86_TRAP_GP, r->error_code);
}

/*
 * A debug trap: the step irq_window.c asked for, or the guest's own (a
 * watchpoint, a single step), which goes to it with the status the CPU
 * left in DR6.  The real DR6 is cleared either way: its bits stick, and
 * the host's own watchpoint handler reads them.
 */
static void debug_trap(struct guest *g, struct pt_regs *r)
{
	u32 dr6 = get_debugreg(6);

	set_debugreg(6, 0);
	if (irq_window_stepped(g, r))
		return;			/* an IF store let through: the loop delivers */
	if (g->shared)
		g->shared->dr6 = dr6;
	guest_reflect_trap(g, X86_TRAP_DB, 0);
}

/* The FPU is the host thread's: the guest's TS is its own to trap on. */
static void device_not_available(struct guest *g, struct pt_regs *r)
{
	if (g->ts || !fpu_handle_nm(r))
		guest_reflect_trap(g, X86_TRAP_NM, 0);
	guest_exit_is(g, HOST_COUNT_nm);	/* taken here or passed on */
}

/*
 * A task of the guest's in virtual-8086 mode, where only a faulty CPU
 * (QEMU's TCG) lets ring 3 go.  The host never resumes that mode (its
 * iret at ring 0 would enter it for real): every exit from there goes
 * to the guest's own kernel, which ends such a task - a page fault with
 * the error code its tables give, and the host's interrupt, which has
 * nothing to pass on, as #GP(0).
 */
static void vm86_exit(struct guest *g, struct pt_regs *r, unsigned int vector, u32 cr2)
{
	if (hardware_vector(vector)) {
		guest_reflect_trap(g, X86_TRAP_GP, 0);
		return;
	}
	if (vector == X86_TRAP_PF) {
		shadow_fault(g->shadows.active, cr2, &r->error_code);	/* its tables' error code */
		reflect_page_fault(g, cr2, r->error_code);
		return;
	}
	guest_reflect_trap(g, vector, r->error_code);
}

/* A machine check, or a debug trap the guest's MOV SS or POP SS held
 * back into the Switcher's first instruction (SDM vol. 3, 6.8.3), taken
 * at ring 0 in the Switcher (world_switch.S): not a trap a guest's own
 * IDT could be given as the CPU would (that #DB would have come at its
 * own handler's first instruction).  The guest is stopped, by name. */
static void trap_in_switcher(struct guest *g)
{
	u32 traps = switcher_traps_in_switcher();

	if (traps & (1u << X86_TRAP_DB))
		set_debugreg(6, 0);	/* its bits stick (debug_trap) */
	guest_stop(g, "%s inside the Switcher, at ring 0",
		   traps & (1u << X86_TRAP_MC) ? "a machine check (the machine's: the host's "
		   "to look at)" : "a debug trap its MOV SS or POP SS held back");
}

/*
 * The fast exits: the hypercalls a guest's context switch makes
 * (write_cr3, and flush), done before the general dispatch below, as
 * Linux's KVM does a few exits (an MSR write, its preemption timer) in
 * its fastpath - vmx_exit_handlers_fastpath, handle_fastpath_set_msr_irqoff
 * - before its general exit handlers.  Only the dispatch is skipped:
 * the call itself is the slow path's, with the same checks
 * (guest_fast_hypercall), and the loop around it is the same for every
 * exit.  Not from virtual-8086 mode, whose every exit is vm86_exit()'s.
 */
static bool fast_exit(struct guest *g, struct pt_regs *r, unsigned int vector)
{
	return vector == HYPERCALL_VECTOR && hypercall_is_fast(r->eax) &&
	       !(r->eflags & X86_EFLAGS_VM) && guest_fast_hypercall(g, r);
}

/* One count per exit, by reason: the host's, and in the shared page the
 * guest's own (for make bench), where the totals are their sums. */
static void count_exit(struct guest *g)
{
	g->stats.exits_by[g->exit_reason]++;
	if (g->shared)
		g->shared->counts[g->exit_reason]++;
}

static void handle_exit(struct guest *g, unsigned int vector, u32 cr2)
{
	struct pt_regs *r = switcher_guest_regs();

	g->stats.exits++;
	g->exit_reason = HOST_COUNT_other;	/* unless a handler says more */
	if (fast_exit(g, r, vector)) {
		count_exit(g);
		return;
	}
	if (vector == GUEST_TRAP_NONE)
		guest_stop(g, "a frame that is not a guest's, at %08x", r->eip);
	else if (vector == GUEST_TRAP_BAD_SEGMENT)
		guest_stop(g, "its code or stack segment (cs %04x, ss %04x) cannot be loaded",
			   r->cs, r->ss);
	else if (vector == GUEST_TRAP_BAD_FRAME)
		guest_stop(g, "a trap whose frame the CPU did not push whole: "
			   "a software int through an error-code vector's gate?");
	else if (vector == GUEST_TRAP_IN_SWITCHER)
		trap_in_switcher(g);
	else if (r->eflags & X86_EFLAGS_VM)
		vm86_exit(g, r, vector, cr2);
	else if (hardware_vector(vector))
		guest_exit_is(g, HOST_COUNT_host_irq);	/* the host's, handled */
	else if (vector == HYPERCALL_VECTOR)
		guest_hypercall(g, r);
	else if (vector == X86_TRAP_PF)
		page_fault(g, r, cr2);
	else if (vector == X86_TRAP_GP)
		general_protection(g, r);
	else if (vector == X86_TRAP_NM)
		device_not_available(g, r);
	else if (vector == X86_TRAP_DB)
		debug_trap(g, r);
	else if (vector == X86_TRAP_DF)
		guest_stop(g, "double fault at %08x", r->eip);
	else if (vector == X86_TRAP_MC)
		guest_stop(g, "a machine check while it ran (the machine's: the host's to look at)");
	else
		guest_reflect_trap(g, vector, r->error_code);
	count_exit(g);
}

/*
 * ---- the Switcher's fast context switch (world_switch.S) ----
 *
 * What it may do on this entry: load a kept shadow of one of the
 * guest's page directories, listed here again whenever the cache made,
 * rebuilt or freed one (a freed shadow's frames are the host's again, or
 * spares another shadow's tables are made of: the list must never
 * outlive them, so it is remade before every entry that follows such a
 * change), and set a ring-1 stack the host would
 * take.  Not while the host watches the interrupt window: the flag page
 * is read-only in the active shadow (and in those that share its table)
 * only, and a switch could leave it.
 */
_Static_assert(SHADOWS_KEPT <= SWITCHER_FAST_SHADOWS, "every kept shadow can be listed");

static void list_fast_shadows(struct guest *g)
{
	struct switcher_state *s = g->cpu;
	unsigned int i;

	for (i = 0; i < SWITCHER_FAST_SHADOWS; i++) {
		const struct shadow *sh = i < SHADOWS_KEPT ? &g->shadows.shadow[i] : NULL;
		bool real = sh && sh->pgd && sh->guest_cr3 % PAGE_SIZE == 0;	/* not the identity */

		s->fast_shadows[i].guest_cr3 = real ? sh->guest_cr3 : 0;
		s->fast_shadows[i].pgd = real ? (u32)sh->pgd : 0;
	}
	g->fast_listed = g->shadows.changes;
}

static void fast_switch_prepare(struct guest *g)
{
	struct switcher_state *s = g->cpu;

	if (g->fast_listed != g->shadows.changes)
		list_fast_shadows(g);
	s->fast_stack_min = GUEST_KERNEL_MIN;
	s->fast_stack_max = g->mem.size;
	s->fast_switch_on = s->guest_tss.ss1 && !g->window_armed && !g->window_step;
}

/* After an exit: the shadow the CPU ran the guest on last (the
 * Switcher saved the real cr3), which a fast switch may have changed.
 * False if it is none of the host's: then nothing of the exit is
 * handled, and the guest is stopped (only a host bug could do it). */
static bool follow_fast_switches(struct guest *g)
{
	u32 pgd = g->cpu->guest_cr3;

	if (g->shadows.active && (u32)g->shadows.active->pgd == pgd)
		return true;
	if (shadow_cache_follow(&g->shadows, pgd))
		return true;
	guest_stop(g, "it ran on page directory %08x, which no kept shadow is", pgd);
	return false;
}

/* Exit after exit, until the guest stops or halts, or the host's
 * scheduler wants the CPU. */
static void run_exits(struct guest *g)
{
	unsigned int vector;
	u32 cr2;

	for (;;) {
		tick(g);
		guest_inject_interrupt(g);
		check_irqs_off(g);
		irq_window_arm(g);
		if (g->state != GUEST_RUNNING)
			guest_report_end(g);
		if (g->state != GUEST_RUNNING || g->halted)
			return;
		guest_report_resume(g);
		if (g->ts)
			fpu_trap_next_use();
		fast_switch_prepare(g);
		vector = switcher_run(&cr2);
		if (follow_fast_switches(g))
			handle_exit(g, vector, cr2);
		if (sched_need_resched())
			return;
	}
}

/*
 * Run the guest until it stops, halts (waiting for an interrupt: the
 * caller sleeps a tick), or the host's scheduler wants the CPU back.
 * The host's own CPU state (cpu_state.c) is off for the whole run, not
 * around each exit: nothing in it lets another task have this CPU (the
 * host's kernel code is never preempted, no exit's handling sleeps,
 * and the loop returns when the scheduler asks), and cpu_state.c says
 * why the host code that runs between exits needs none of it.  It is
 * back on before this returns, on every way out: the caller may then
 * give the CPU up.  For the same reason what this thread has on entry -
 * the FPU's registers, which an eager switch to it left alone - stays
 * its own from exit to exit.
 */
void guest_run(struct guest *g)
{
	struct host_cpu_state host;

	fpu_load_for_guest();	/* eagerly: no #NM will ask for it */
	host_cpu_state_off(&host);
	run_exits(g);
	host_cpu_state_on(&host);
}

/* The guest's state line for `guest stats`, copied under guest_lock: its
 * thread may stop it on another CPU (a new state and stop reason) while
 * the shell prints, and a reason half rewritten could lose its NUL. */
static void guest_state_line(const struct guest *g, char *line, unsigned int size)
{
	unsigned long flags;

	spin_lock_irqsave_call(&guest_lock, &flags);
	snprintf(line, size, "%s%s%s", g->state == GUEST_RUNNING ? "running" : "stopped: ",
		 g->state != GUEST_RUNNING ? g->stop_reason : "", g->halted ? " (halted)" : "");
	spin_unlock_irqrestore_call(&guest_lock, flags);
}

/* Each exit counted once, by why it came (asm/hypercall.h): the same
 * breakdown make bench reads from the shared page; the reasons it never
 * met left out. */
static void print_exits_by_reason(const struct guest_stats *st)
{
	char name[40];
	unsigned int i;

	printk("  exits by reason:\n");
	for (i = 0; i < HOST_EXIT_REASONS; i++) {
		if (!st->exits_by[i])
			continue;
		snprintf(name, sizeof(name), "%s%s", i < HCALL_NR ? "hypercall " : "",
			 host_count_name(i));
		printk("    %-30s %lu\n", name, st->exits_by[i]);
	}
}

/* `guest stats`.  The counts are the guest thread's alone and read
 * without a lock: each may be a moment old, none is torn (one word). */
void guest_print_stats(void)
{
	const struct guest *g = guest_current();
	const struct guest_stats *st;
	char state[sizeof(g->stop_reason) + 24];
	unsigned long nmis, noted;
	unsigned int i;

	if (!g) {
		printk("guest: none\n");
		return;
	}
	st = &g->stats;
	guest_state_line(g, state, sizeof(state));
	printk("guest: %s\n", state);
	printk("  exits %lu, traps reflected %lu, interrupts injected %lu, "
	       "shadow faults %lu\n", st->exits, st->traps, st->interrupts, st->shadow_faults);
	print_exits_by_reason(st);
	printk("  shadows: %lu built, %lu reused at a cr3 load; interrupt windows %lu\n",
	       g->shadows.built, g->shadows.reused, st->irq_windows);
	printk("  context switches done in the Switcher alone %u\n", g->cpu->fast_switches);
	printk("  shadow frames: %lu now, %lu at most, quota %lu; of them %u kernel tables "
	       "shared, %u spares\n", g->mem.shadow_frames, g->mem.shadow_peak,
	       g->mem.shadow_quota, shared_tables_held(&g->shadows.shares), g->mem.spares);
	/* Every NMI is the host's (switcher.c): how many there were in all,
	 * how many came while a guest ran or the Switcher switched, and how
	 * many of those inside the Switcher itself. */
	nmis = switcher_nmi_count(&noted);
	printk("  NMIs %lu, %lu of them while it ran or switched, %lu inside the Switcher\n",
	       trap_count(X86_TRAP_NMI), nmis, noted);
	for (i = 0; i < HCALL_NR; i++)
		if (st->hypercalls[i])
			printk("  hypercall %-16s %lu\n", hypercall_name(i), st->hypercalls[i]);
}
