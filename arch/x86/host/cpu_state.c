/*
 * cpu_state.c - the host's own CPU state that no guest runs with: one
 * list, turned off by guest_run() (run.c) when it starts running a
 * guest and back on when it returns.  Once per run, not once per exit:
 * the Switcher's way in and out and the host code that handles each
 * exit all run with it off.
 *
 * That is sound only because of two facts, each checked or kept here:
 *   - no other host task runs on this CPU meanwhile.  The host kernel
 *     never preempts kernel code (kernel/sched.c: a switch happens on
 *     the way back to user mode, or when a task sleeps or yields), the
 *     guest's thread is a kernel thread, no exit's handling sleeps or
 *     yields, and guest_run() returns - the state back on - before its
 *     caller gives the CPU up when the scheduler asks.  A violation is
 *     loud: the CPU's guest_cpu_state flag (asm/percpu.h) must be set
 *     for switcher_run() to enter a guest, and host_cpu_state_on()
 *     panics if the thread left this CPU, or was switched out and in
 *     again, while the flag was set (its switch count moved).
 *   - the host code that runs between two exits - the exit's handling,
 *     and the host's interrupt handlers, which come there as anywhere
 *     in its kernel - depends on none of the items below.  It runs at
 *     ring 0, where TSD and PCE do not apply; the host never sets VME,
 *     PVI, DE, PSE, PAE or PGE (cpu_setup.c starts from CR4 0; only
 *     pmc.c's PCE and the FPU's bits, kept, are ever set); its only
 *     watchpoints are its user tasks' (hw_breakpoint.c), never a kernel
 *     thread's, which the guest's is; and sysenter is a user program's
 *     instruction, and none runs until guest_run() returns.  An item
 *     added to the list must keep this true.
 *
 * The guest's ring-1 kernel and its ring-3 programs run on the real
 * CPU: whatever the host left in CR4, the debug registers or an MSR
 * applies to them too.  A bit the host set for itself (CR4.PCE lets the
 * host's programs read the counters) would hand the guest the host's
 * counters; one a future host sets (CR4.TSD, a watchpoint) would make a
 * guest instruction fault that a CPU lets it run.  So each item below
 * says what a guest runs with, and why:
 *
 *   CR4      only the bits in cr4_rules marked kept; every other bit,
 *            listed or not, is off while the guest runs.
 *   DR0-DR7  the host thread's watchpoints (none, normally: it is a
 *            kernel thread) disarmed, and its addresses back after;
 *            world_switch.S arms the guest's own, checked ones.
 *   SYSENTER_CS  0 (syscall.c's sysenter_block): a sysenter from the
 *            guest would enter the host's kernel at ring 0 on the
 *            guest's page tables; with 0 it raises #GP, the guest's.
 *
 * Left as they are, on purpose: CR0 (PG and WP are what confine the
 * guest; TS is the guest's own, set by the set_ts hypercall; MP, NE as
 * the host's FPU handling needs them), and the performance counters'
 * event selects: they keep counting, and the host thread that runs the
 * guest is charged for its instructions, which is what it spent; with
 * PCE off the guest can read none of them (rdpmc faults, and MSRs reach
 * the host only through check.c, which allows no counter).
 */
#include <kernel.h>
#include <task.h>
#include <asm/cpu.h>
#include <asm/debug_regs.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/switcher.h>
#include <asm/syscall.h>

/* A CR4 bit and whether the guest keeps it (the host's value). */
struct cr4_rule {
	u32 bit;
	bool guest_keeps;
};

static const struct cr4_rule cr4_rules[] = {
	/* Virtual-8086 and protected-mode virtual interrupts: with PVI a
	 * guest program's cli and sti would flip VIF instead of raising
	 * the #GP its kernel expects; the guest never runs in vm86 as the
	 * host's (run.c ends a vm86 task that a faulty CPU lets in). */
	{ X86_CR4_VME, false },
	{ X86_CR4_PVI, false },
	/* Time stamp disable: rdtsc at ring 1 and 3 would fault, and the
	 * guest's cpuid shows a TSC, which its clock and its programs read;
	 * its own CR4.TSD is only noted (backends/guest.c). */
	{ X86_CR4_TSD, false },
	/* Debugging extensions: a guest's DR7 is checked as without them
	 * (an RW of 10 is no I/O breakpoint on the host's ports). */
	{ X86_CR4_DE, false },
	/* Page sizes and global pages: the shadow tables use neither, and a
	 * global host mapping would outlive the switch to the guest's cr3.
	 * Nor does the host's own paging (cpu_setup.c starts from CR4 0):
	 * this write happens on its tables, which it would change under it. */
	{ X86_CR4_PSE, false },
	{ X86_CR4_PAE, false },
	{ X86_CR4_PGE, false },
	/* rdpmc at ring 1 and 3 would read the host's counters. */
	{ X86_CR4_PCE, false },
	/* fxsave and SSE: the guest's FPU registers are the host thread's
	 * (fpu.c switches them), and its cpuid shows SSE, whose
	 * instructions raise #UD without OSFXSR. */
	{ X86_CR4_OSFXSR, true },
	{ X86_CR4_OSXMMEXCPT, true },
};

/* The host's CR4 as a guest runs with it. */
static unsigned long guest_cr4(unsigned long host_cr4)
{
	unsigned long kept = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cr4_rules); i++)
		if (cr4_rules[i].guest_keeps)
			kept |= cr4_rules[i].bit;
	return host_cr4 & kept;
}

/* Written only when it differs: a CR4 write that changes nothing still
 * costs, on every world switch. */
static void cr4_off(struct host_cpu_state *s)
{
	if (!boot_cpu.has_cr4)
		return;
	s->cr4 = read_cr4();
	s->guest_cr4 = guest_cr4(s->cr4);
	if (s->guest_cr4 != s->cr4)
		write_cr4(s->guest_cr4);
}

static void cr4_on(const struct host_cpu_state *s)
{
	if (boot_cpu.has_cr4 && s->guest_cr4 != s->cr4)
		write_cr4(s->cr4);
}

/* The host's watchpoints, if it has any: disarmed, their addresses kept
 * (world_switch.S loads the guest's into DR0-DR3). */
static void debugregs_off(struct host_cpu_state *s)
{
	unsigned int i;

	s->dr7 = get_debugreg(7);
	if (!(s->dr7 & DR7_ENABLES)) {
		s->dr7 = 0;		/* none armed (bit 10 reads as 1) */
		return;
	}
	for (i = 0; i < 4; i++)
		s->dr[i] = get_debugreg(i);
	set_debugreg(7, 0);
}

static void debugregs_on(const struct host_cpu_state *s)
{
	unsigned int i;

	if (!s->dr7)
		return;
	for (i = 0; i < 4; i++)
		set_debugreg(i, s->dr[i]);
	set_debugreg(7, s->dr7);
}

/*
 * Before running a guest (guest_run): the host's state saved in *s, the
 * guest's in force on this CPU until host_cpu_state_on.  Interrupts off
 * meanwhile, so that no handler sees half of each.
 */
void host_cpu_state_off(struct host_cpu_state *s)
{
	unsigned long flags = raw_local_irq_save();

	if (this_cpu_read(guest_cpu_state))
		panic("host: a guest's CPU state put in force twice on CPU %u",
		      smp_processor_id());
	cr4_off(s);
	debugregs_off(s);
	sysenter_block();
	s->switches = current->switches;
	this_cpu_write(guest_cpu_state, true);
	raw_local_irq_restore(flags);
}

/* When guest_run returns, before its caller can give the CPU up: on the
 * CPU, and in the task, that turned it off, never switched out since. */
void host_cpu_state_on(const struct host_cpu_state *s)
{
	unsigned long flags = raw_local_irq_save();

	if (!this_cpu_read(guest_cpu_state) || current->switches != s->switches)
		panic("host: the guest's thread left CPU %u (a task switch, or a move to "
		      "another CPU) while a guest's CPU state was in force there",
		      smp_processor_id());
	sysenter_unblock();
	debugregs_on(s);
	cr4_on(s);
	this_cpu_write(guest_cpu_state, false);
	raw_local_irq_restore(flags);
}
