/*
 * stop_cpus.c - stops every other CPU at a safe point while the live
 * backend switch (arch/x86/paravirt/switch.c) rewrites the patch sites,
 * and lets them go again only once every site is written.  Tests use it
 * too, to hold the other CPUs still for a few steps.
 *
 * The protocol (docs/smp.md, "Patching while other CPUs run"):
 *   1. the switching CPU opens a stop (an odd `phase`) and sends every
 *      other online CPU a reschedule IPI;
 *   2. each of them, at its next safe point - schedule(), with
 *      interrupts off - records the phase it saw and spins in code that
 *      holds no patch site (this file's fenced loop);
 *   3. once every other CPU has recorded the phase, the switching CPU
 *      rewrites the sites and installs the table (switch.c);
 *   4. it closes the stop (the next, even phase); each stopped CPU leaves
 *      its loop, executes a serializing instruction, then flushes its TLB
 *      (the text pages were writable meanwhile) and goes on.
 * This is Intel's rule for cross-modifying code (SDM vol. 3, 8.1.3): the
 * writer changes the code, then sets a flag; every other CPU waits for
 * the flag, serializes, and only then runs the new code.
 *
 * Why schedule() is safe: no op calls it and an interrupt from kernel
 * mode never reaches it (the kernel is not preemptive), so when a CPU is
 * in it, neither its EIP nor any return address on its stack lies inside
 * a site - the same fact that makes the one-CPU switch safe for the
 * tasks that sleep.  A CPU interrupted anywhere else (by the IPI itself)
 * may be in the middle of a site: between a site's push and its call, or
 * inside the op the site called, whose return address would then point
 * at bytes that are about to change.  Breakpoint-first patching (Linux's
 * text_poke_bp) does not help there: it makes one instruction change
 * atomically, and a pv386 site is several (push, call, pop).
 *
 * Locks and interrupts: a CPU stops at the top of schedule(), before it
 * takes the run queue's lock, so a stopped CPU holds no lock.  The
 * switching CPU waits for the others with interrupts on - it answers
 * their IPIs meanwhile (a TLB shootdown waits for every CPU's answer)
 * and its clock runs - and turns them off only to write: between the
 * first write and the last, no interrupt may run a site on it either.
 * A stopped CPU takes no IPI, so it answers TLB shootdowns from its loop
 * (arch/x86/mm/tlb.c): a CPU still on its way to a safe point may be a sender,
 * spinning for every answer (a thread giving heap pages back), and
 * without that it would wait for the stopped CPUs while they wait for
 * it, until the stop gave up.
 * A CPU that does not reach a safe point within STOP_TIMEOUT_TICKS (a
 * kernel thread in a long loop) makes the switch fail with -EBUSY and
 * changes nothing: the kernel never waits for ever.
 */
#include <kernel.h>
#include <asm/paging.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/smp.h>
#include <asm/spinlock.h>
#include <asm/stop_cpus.h>
#include <asm/timer.h>
#include <asm/tlbflush.h>

#define STOP_TIMEOUT_TICKS	(HZ / 2)

/* Odd while a stop is open.  Only the stopping CPU writes it, and there
 * is one at a time: switch.c lets one switch run at once, and the tests
 * that hold the other CPUs still run alone, in the suite. */
static volatile unsigned int stop_phase;
/* The phase each CPU last stopped for: a CPU that saw an old phase and
 * comes late can never be taken for one that stopped for this one. */
static volatile unsigned int stopped_for[NR_CPUS];
static unsigned int stopper;		/* the CPU that opened the stop */

struct stop_cpus_stats stop_cpus_stats;

/*
 * The loop a stopped CPU spins in, in the patcher's fence
 * (.text.patch_text, which the patcher checks holds no site and never
 * rewrites).  sync_core is an indirect call through the table, not a
 * site (inline cpuid in the PARAVIRT=n kernel): by the time the phase
 * moves on, the table is the new backend's and whole.  A shootdown
 * that asks this CPU meanwhile is answered from here, in the fence too.
 */
static void __section(".text.patch_text") __attribute__((noinline))
stopped_loop(unsigned int cpu, unsigned int phase)
{
	stopped_for[cpu] = phase;
	while (stop_phase == phase) {
		tlb_answer_while_stopped(cpu);
		cpu_relax();
	}
	sync_core();
}

/* One load and a test on every schedule(): the price of the protocol
 * for a CPU that is never asked. */
void stop_cpus_safe_point(void)
{
	unsigned int phase = stop_phase;
	unsigned long flags;

	if (!(phase & 1) || smp_processor_id() == stopper)
		return;
	flags = raw_local_irq_save();	/* a site, but before the stop */
	/* Counted by the CPU that stops, not by the stopper: the sum shows
	 * each stop really held every other CPU.  Before it says "stopped",
	 * so that the count is whole once the stopper has seen them all;
	 * atomic (one `lock add`), since they come together. */
	__atomic_add_fetch(&stop_cpus_stats.cpus_stopped, 1, __ATOMIC_RELAXED);
	stopped_loop(smp_processor_id(), phase);
	flush_tlb();	/* the text pages were writable while it waited */
	raw_local_irq_restore(flags);
}

/* The first other online CPU not stopped for phase, or -1: all are. */
static int first_running(unsigned int phase)
{
	unsigned int cpu, me = smp_processor_id();

	for_each_online_cpu(cpu)
		if (cpu != me && stopped_for[cpu] != phase)
			return cpu;
	return -1;
}

/* Interrupts on (see the top of the file).  Once this returns 0 the
 * others stay stopped until resume_other_cpus(), whatever this CPU does
 * meanwhile; switch.c turns its own interrupts off only to write. */
int stop_other_cpus(unsigned int *late_cpu)
{
	unsigned long start = timer_ticks();
	unsigned int phase;
	int late;

	if (num_online_cpus() == 1)
		return 0;
	phase = stop_phase + 1;
	stopper = smp_processor_id();
	barrier();
	stop_phase = phase;
	barrier();
	smp_send_reschedule_others();
	while ((late = first_running(phase)) >= 0) {
		if (timer_ticks() - start > STOP_TIMEOUT_TICKS) {
			*late_cpu = late;
			stop_cpus_stats.timeouts++;
			resume_other_cpus();
			return -EBUSY;
		}
		cpu_relax();
	}
	stop_cpus_stats.stops++;
	return 0;
}

void resume_other_cpus(void)
{
	if (stop_phase & 1)
		stop_phase = stop_phase + 1;
}
