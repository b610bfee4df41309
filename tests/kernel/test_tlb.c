/*
 * test_tlb.c - threads and the TLB shootdown (user/tlbshoot.c,
 * arch/x86/mm/tlb.c, docs/smp.md "TLB shootdown").
 *
 * tlb_page_given_back_faults_on_every_cpu runs tlbshoot: threads share
 * memory and are collected by wait(); a reader thread loops over a heap
 * page while its creator gives the page back with brk, and the reader's
 * next read faults (at most one read that began before brk returned is
 * counted after it; the reader ends killed by #PF).  Where more than one
 * CPU runs, the page goes back only once the reader has been seen
 * reading on another CPU (tlbshoot's "apart": waited for by the reader's
 * progress, since a loaded host may run the other CPU late, and the
 * reader would take turns with its creator on one CPU meanwhile), so
 * that CPU's TLB held the page: a shootdown was asked for and another
 * CPU flushed on request.  Without
 * the shootdown the reader reads the freed frame millions of times and
 * the program fails.  Every page comes back.
 *
 * tlb_page_given_back_when_the_other_cpus_come_late: the same, with the
 * other CPUs held at the start (interrupts off, as a loaded host holds
 * a vCPU it does not run): the reader runs by turns with its creator on
 * this CPU until they come, and the page must still go back only once
 * the reader reads on another CPU - a shootdown asked, a flush done.
 *
 * tlb_thread_outlives_its_creator: a program's first task exits while
 * its thread runs on; the space stays until the thread ends, then its
 * pages, tables and directory come back.
 *
 * tlb_flush_others_returns_after_every_answer: the op's contract itself,
 * which the first test cannot see broken (a reader flushed a moment
 * late still faults): when flush_tlb_others returns, every CPU asked has
 * flushed - its count of flushes done on request is already one more -
 * asked one at a time and all at once.  On a machine with a CPU left out
 * (the row tlb-sparse-4-y: CPU 2 of 4) the CPUs asked are not numbered
 * 0..n-1, and each must still be asked and answer.
 *
 * tlb_flush_others_waits_for_the_slowest_cpu: the other CPUs held by
 * kernel threads with interrupts off, so that none can answer; all but
 * one let go at once, the last after HOLD_TICKS.  flush_tlb_others to
 * them all must come back only after the last one answered: each CPU's
 * count one more, the wait at least as long as the hold.  A sender that
 * returned on the first answer would find the slow CPU's count unchanged.
 *
 * tlb_freed_frames_never_reach_a_stale_reader runs `tlbshoot reuse`:
 * readers on every CPU, the frames under them given back by brk and
 * taken at once by another program (user/tlbshoot.c says how).  A brk
 * that freed the frames before the shootdown lets a reader on another
 * CPU read the other program's data; it matters with CPUs that run at
 * once (QEMU's multi-threaded TCG: the rows tlb-smp-4-y/n).
 */
#include <ktest.h>
#include <page_alloc.h>
#include <task.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/smp.h>
#include <asm/spinlock.h>
#include <asm/timer.h>
#include <asm/tlbflush.h>
#include "console_capture.h"
#include "run_program.h"

#define ORPHAN_WAIT_TICKS	(2 * timer_hz())	/* the thread sleeps 10 ticks */

static unsigned long flushes_received(void)
{
	unsigned long n = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		n += tlb_flushes_received(cpu);
	return n;
}

/* tlbshoot's first parts ("apart" where another CPU runs), and what
 * they made the shootdown do. */
static void page_given_back(struct ktest_ctx *kt_ctx)
{
	unsigned long shots = tlb_shootdowns(), flushes = flushes_received();
	char line[96];

	capture_start();
	KT_EXPECT_EQ(run_program("tlbshoot", num_online_cpus() > 1 ? "apart" : ""), 0);
	capture_stop();
	KT_EXPECT(captured_line("tlbshoot: threads: 3 ok", line, sizeof(line)));
	KT_EXPECT(captured_line("tlbshoot: reads after brk: ", line, sizeof(line)));
	KT_EXPECT(captured_anywhere(", reader status -1014"));
	printk("ktest:   %s; %lu shootdowns asked, %lu flushes done on request\n", line,
	       tlb_shootdowns() - shots, flushes_received() - flushes);
	if (num_online_cpus() > 1) {
		KT_EXPECT(tlb_shootdowns() > shots);
		KT_EXPECT(flushes_received() > flushes);
	} else {
		KT_EXPECT_EQ(tlb_shootdowns(), shots);	/* one CPU: never asked */
	}
}

KTEST(tlb_page_given_back_faults_on_every_cpu)
{
	unsigned long pages = pages_free_count();

	page_given_back(kt_ctx);
	KT_EXPECT_EQ(pages_free_count(), pages);
}

KTEST(tlb_thread_outlives_its_creator)
{
	unsigned long pages = pages_free_count(), start;
	unsigned int slots = task_slots_free();

	KT_EXPECT_EQ(run_program("tlbshoot", "orphan"), 0);
	start = timer_ticks();
	while (task_slots_free() != slots && timer_ticks() - start < ORPHAN_WAIT_TICKS)
		sched_sleep_ticks(1);
	KT_EXPECT_EQ(task_slots_free(), slots);
	KT_EXPECT_EQ(pages_free_count(), pages);
}

/* Each other online CPU once, then all of them in one request. */
KTEST(tlb_flush_others_returns_after_every_answer)
{
	unsigned long before[NR_CPUS];
	unsigned int cpu, self = smp_processor_id();
	cpumask_t others = 0;

	if (num_online_cpus() < 2)
		KT_SKIP("one CPU: there is no other to ask");
	for_each_online_cpu(cpu) {
		if (cpu == self)
			continue;
		others |= cpumask_of(cpu);
		before[cpu] = tlb_flushes_received(cpu);
		flush_tlb_others(cpumask_of(cpu), TLB_FLUSH_ALL);
		KT_EXPECT_EQ(tlb_flushes_received(cpu), before[cpu] + 1);
	}
	for_each_possible_cpu(cpu)
		before[cpu] = tlb_flushes_received(cpu);
	flush_tlb_others(others, TLB_FLUSH_ALL);
	for_each_possible_cpu(cpu)
		KT_EXPECT_EQ(tlb_flushes_received(cpu), before[cpu] + cpumask_test_cpu(cpu, others));
}

/* ---- other CPUs held with interrupts off ---- */

#define HOLD_TICKS		(timer_hz() / 4)	/* the slow CPU's */
#define HOLD_MAX_TICKS		(2 * timer_hz())	/* never longer */
#define HOLDERS_WAIT_TICKS	(2 * timer_hz())
#define LATE_TICKS		(timer_hz() / 2)	/* the CPUs that come late */

static volatile cpumask_t held;		/* a bit per CPU a holder holds */
static volatile unsigned int holders_ended;
static volatile bool hold_release;	/* each holder then goes at its tick */
static volatile unsigned long hold_until[NR_CPUS];
static unsigned int holder_home;	/* the test's CPU: never held */

/* A kernel thread: holds the CPU it finds itself on, interrupts off,
 * until released and its tick has come (or HOLD_MAX_TICKS, whatever
 * happens).  Not on the test's CPU, which the test keeps busy anyway,
 * and one per CPU: a held CPU runs no other thread. */
static void holder_thread(void)
{
	unsigned long flags, start = timer_ticks();
	unsigned int cpu;

	for (;;) {
		flags = raw_local_irq_save();
		cpu = smp_processor_id();
		if (cpu != holder_home)
			break;
		raw_local_irq_restore(flags);
		sched_yield();
	}
	cpumask_set_atomic(&held, cpu);
	while (timer_ticks() - start < HOLD_MAX_TICKS &&
	       (!hold_release || (long)(timer_ticks() - hold_until[cpu]) < 0))
		cpu_relax();
	raw_local_irq_restore(flags);	/* the shootdown's IPI comes in here */
	__atomic_add_fetch(&holders_ended, 1, __ATOMIC_SEQ_CST);
}

/* A holder on every other online CPU; whether they all hold one. */
static bool hold_other_cpus(cpumask_t others, unsigned int n)
{
	unsigned long start = timer_ticks();
	unsigned int i;

	held = 0;
	holders_ended = 0;
	hold_release = false;
	holder_home = smp_processor_id();
	for (i = 0; i < n; i++)
		task_create_kernel("tlbhold", holder_thread);
	while (held != others && timer_ticks() - start < HOLDERS_WAIT_TICKS)
		cpu_relax();		/* busy: this CPU takes no holder */
	return held == others;
}

static void wait_for_holders(unsigned int n)
{
	while (holders_ended < n)
		sched_sleep_ticks(1);
}

KTEST(tlb_flush_others_waits_for_the_slowest_cpu)
{
	unsigned long before[NR_CPUS], start, waited;
	unsigned int cpu, self = smp_processor_id(), n = 0, slow = 0, answered = 0;
	cpumask_t others = 0;

	if (num_online_cpus() < 3)
		KT_SKIP("fewer than three CPUs: no second CPU to answer first");
	for_each_online_cpu(cpu)
		if (cpu != self) {
			others |= cpumask_of(cpu);
			slow = cpu;	/* the last: the slow one */
			n++;
		}
	KT_EXPECT(hold_other_cpus(others, n));
	for_each_possible_cpu(cpu) {
		before[cpu] = tlb_flushes_received(cpu);
		hold_until[cpu] = timer_ticks();
	}
	start = timer_ticks();
	hold_until[slow] = start + HOLD_TICKS;
	hold_release = true;
	flush_tlb_others(others, TLB_FLUSH_ALL);
	waited = timer_ticks() - start;
	for_each_possible_cpu(cpu)
		answered += tlb_flushes_received(cpu) == before[cpu] + 1;
	printk("ktest:   %u of %u CPUs had answered when flush_tlb_others returned, "
	       "after %lu ticks (CPU %u held %u)\n", answered, n, waited, slow, HOLD_TICKS);
	for_each_possible_cpu(cpu)
		KT_EXPECT_EQ(tlb_flushes_received(cpu), before[cpu] + cpumask_test_cpu(cpu, others));
	KT_EXPECT(waited >= HOLD_TICKS);
	wait_for_holders(n);
}

/*
 * The same with the other CPUs late: held at the start for LATE_TICKS
 * (interrupts off), as a loaded host holds a vCPU whose thread it does
 * not run.  The reader meanwhile runs by turns with its creator on this
 * CPU, where the page would fault with no shootdown at all; the page
 * must go back only once the reader reads on another CPU.
 */
KTEST(tlb_page_given_back_when_the_other_cpus_come_late)
{
	unsigned int cpu, self = smp_processor_id(), n = 0, slots = task_slots_free();
	unsigned long pages = pages_free_count(), start;
	cpumask_t others = 0;

	if (num_online_cpus() < 2)
		KT_SKIP("one CPU: no other to come late");
	for_each_online_cpu(cpu)
		if (cpu != self) {
			others |= cpumask_of(cpu);
			n++;
		}
	KT_EXPECT(hold_other_cpus(others, n));
	for_each_possible_cpu(cpu)
		hold_until[cpu] = timer_ticks() + LATE_TICKS;
	hold_release = true;
	page_given_back(kt_ctx);
	wait_for_holders(n);
	start = timer_ticks();		/* the holders' slots and stacks too */
	while (task_slots_free() != slots && timer_ticks() - start < ORPHAN_WAIT_TICKS)
		sched_sleep_ticks(1);
	KT_EXPECT_EQ(pages_free_count(), pages);
}

KTEST(tlb_freed_frames_never_reach_a_stale_reader)
{
	unsigned long pages = pages_free_count(), start;
	unsigned int slots = task_slots_free();

	if (num_online_cpus() < 2)
		KT_SKIP("one CPU: no other TLB to hold a stale entry");
	/* Its line says what it saw (not captured: the readers' kills,
	 * a line each, come first and fill the capture). */
	KT_EXPECT_EQ(run_program("tlbshoot", "reuse"), 0);
	start = timer_ticks();
	while (task_slots_free() != slots && timer_ticks() - start < ORPHAN_WAIT_TICKS)
		sched_sleep_ticks(1);
	KT_EXPECT_EQ(pages_free_count(), pages);
}
