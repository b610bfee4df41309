/*
 * tlb.c - TLB shootdown by IPI: the native flush_tlb_others op, its
 * interrupt handler, and the helper the kernel calls after it cleared
 * entries of an address space (asm/tlbflush.h has the why).
 *
 * The protocol (Linux i386 2.6's, with one request in flight):
 *
 *   sender (interrupts on)                 each CPU in the mask
 *   take tlb_shootdown_lock
 *   request.va = va; request.pending = mask
 *   IPI_TLB_FLUSH_VECTOR to each ------->  handler (interrupts off):
 *                                            EOI; reload %cr3;
 *   spin until pending == 0  <-----------    clear own bit in pending
 *   release the lock
 *
 * The answer is the bit cleared after the flush: once pending is 0,
 * every CPU asked has dropped its entries, and the caller may free the
 * pages.  The lock is taken and the wait done with interrupts on: a
 * second sender spinning for the lock, or a CPU the first is waiting
 * for that is itself waiting for something, still takes the IPI.  No
 * CPU is asked twice at once, and a sender never asks itself.
 *
 * One kind of CPU cannot take the IPI: one stopped for a live backend
 * switch (arch/x86/kernel/smp/stop_cpus.c), spinning with interrupts off until every other
 * CPU has come to a safe point - the sender among them, which would
 * wait for it for ever.  So a stopped CPU looks at pending in its loop
 * and answers there (tlb_answer_while_stopped); the IPI stays pending in
 * its APIC and is taken when the stop ends.  An answer is therefore
 * given by whichever comes first, and each looks at its bit before it
 * flushes: an IPI taken late, after the request it was sent for was
 * answered, answers only a newer request that asks this CPU, with a
 * flush made after that request's entries changed.
 */
#include <kernel.h>
#include <spinlock.h>
#include <asm/apic.h>
#include <asm/paging.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/smp.h>
#include <asm/timer.h>
#include <asm/tlbflush.h>

/* Seconds a sender waits for its answers before it calls the machine
 * broken: far longer than a stopped CPU keeps interrupts off (half a
 * second at most, stop_cpus.c), so it fires only on a real hang. */
#define TLB_ACK_TIMEOUT_S	10

static DEFINE_SPINLOCK(tlb_shootdown_lock, LOCK_RANK_TLB_SHOOTDOWN);

static struct {
	volatile cpumask_t pending;	/* CPUs still to flush: each clears its bit */
	volatile u32 va;	/* the page, or TLB_FLUSH_ALL */
} request;

static unsigned long shootdowns;	/* under tlb_shootdown_lock */
static unsigned long received[NR_CPUS];	/* each CPU its own */
static unsigned long received_stopped[NR_CPUS];	/* of those, while stopped */

/* Wait, with interrupts on, until every CPU asked has answered. */
static void wait_for_answers(cpumask_t asked)
{
	unsigned long start = timer_ticks();

	while (request.pending) {
		if (timer_ticks() - start > TLB_ACK_TIMEOUT_S * timer_hz())
			panic("tlb: CPUs %08x of %08x never answered the shootdown",
			      request.pending, asked);
		cpu_relax();
	}
}

/* The native flush_tlb_others: every CPU in cpumask (never this one)
 * has flushed va, or everything, when it returns. */
void smp_flush_tlb_others(cpumask_t cpumask, u32 va)
{
	unsigned int cpu;

	if (!(raw_local_save_flags() & X86_EFLAGS_IF))
		panic("tlb: flush_tlb_others with interrupts off (CPUs %08x): "
		      "two CPUs shooting each other could wait for ever", cpumask);
	if (cpumask_test_cpu(smp_processor_id(), cpumask))
		panic("tlb: flush_tlb_others asked this CPU too (%08x)", cpumask);
	spin_lock(&tlb_shootdown_lock);
	shootdowns++;
	request.va = va;
	request.pending = cpumask;
	for_each_cpu(cpu, cpumask)
		apic_send_ipi(smp.cpu[cpu].apic_id, IPI_TLB_FLUSH_VECTOR);
	wait_for_answers(cpumask);
	spin_unlock(&tlb_shootdown_lock);
}

/* Whether the request in flight asks this CPU (read before the flush:
 * see the top of the file). */
static inline bool asked(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, request.pending);
}

/* On a CPU asked to flush (interrupts off): flush, then answer, unless
 * the request was answered already (while this CPU was stopped).  The
 * flush is whole whatever request.va says: the table has no one-page
 * flush (asm/tlbflush.h). */
void tlb_flush_interrupt(struct pt_regs *regs)
{
	unsigned int cpu = smp_processor_id();

	(void)regs;
	apic_eoi();
	if (!asked(cpu))
		return;
	flush_tlb();
	received[cpu]++;
	cpumask_clear_atomic(&request.pending, cpu);
}

/*
 * A stopped CPU's answer (stop_cpus.c calls it from its loop): the same
 * flush and answer, in the code writer's fence (.text.patch_text), whose
 * sites are never rewritten - this runs while the other sites change.
 * Its %cr3 reload is an indirect call through the table, which the
 * switch may be filling meanwhile: each slot is one aligned word, and
 * every backend's read_cr3 and write_cr3 do the same native work (the
 * ROM's code is written once, before the table ever points at it).
 */
void __section(".text.patch_text") __attribute__((noinline))
tlb_answer_while_stopped(unsigned int cpu)
{
	if (!asked(cpu))
		return;
	write_cr3(read_cr3());
	received[cpu]++;
	received_stopped[cpu]++;
	cpumask_clear_atomic(&request.pending, cpu);
}

/*
 * The kernel's way in.  The caller changed the entries (plain stores,
 * or through set_pte_at) and then calls this: smp_mb() below orders
 * those stores before the read of the mask (x86 may otherwise
 * let a load pass an earlier store).  A CPU that sets its bit after
 * this read loads %cr3 after the entries changed (the context switch
 * sets the bit first, with a locked op), so it cannot hold the old ones.
 */
void tlb_flush_space_others(volatile cpumask_t *cpu_mask, u32 va)
{
	cpumask_t others;

	smp_mb();
	others = *cpu_mask & ~cpumask_of(smp_processor_id());
	if (others)
		flush_tlb_others(others, va);
}

unsigned long tlb_shootdowns(void)
{
	return shootdowns;
}

unsigned long tlb_flushes_received(unsigned int cpu)
{
	return cpu < NR_CPUS ? received[cpu] : 0;
}

unsigned long tlb_flushes_received_stopped(void)
{
	unsigned long n = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		n += received_stopped[cpu];
	return n;
}
