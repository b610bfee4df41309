/*
 * test_tlb.c - threads and the TLB shootdown (user/tlbshoot.c,
 * arch/x86/kernel/tlb.c, docs/smp.md "TLB shootdown").
 *
 * tlb_page_given_back_faults_on_every_cpu runs tlbshoot: threads share
 * memory and are collected by wait(); a reader thread loops over a heap
 * page while its creator gives the page back with brk, and the reader's
 * next read faults (at most one read that began before brk returned is
 * counted after it; the reader ends killed by #PF).  Where more than one
 * CPU runs, the reader ran on another CPU, so its TLB held the page: a
 * shootdown was asked for and another CPU flushed on request.  Without
 * the shootdown the reader reads the freed frame millions of times and
 * the program fails.  Every page comes back.
 *
 * tlb_thread_outlives_its_creator: a program's first task exits while
 * its thread runs on; the space stays until the thread ends, then its
 * pages, tables and directory come back.
 *
 * tlb_flush_others_returns_after_every_answer: the op's contract itself,
 * which the first test cannot see broken (a reader flushed a moment
 * late still faults): when flush_tlb_others returns, every CPU asked has
 * flushed - its count of flushes done on request is already one more -
 * asked one at a time and all at once.
 */
#include <ktest.h>
#include <page_alloc.h>
#include <task.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/smp.h>
#include <asm/timer.h>
#include <asm/tlbflush.h>
#include "console_capture.h"
#include "run_program.h"

#define ORPHAN_WAIT_TICKS	(2 * timer_hz())	/* the thread sleeps 10 ticks */

static unsigned long flushes_received(void)
{
	unsigned long n = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < CPU_TABLES_MAX_CPUS; cpu++)
		n += tlb_flushes_received(cpu);
	return n;
}

KTEST(tlb_page_given_back_faults_on_every_cpu)
{
	unsigned long pages = pages_free_count();
	unsigned long shots = tlb_shootdowns(), flushes = flushes_received();
	char line[96];

	capture_start();
	KT_EXPECT_EQ(run_program("tlbshoot", ""), 0);
	capture_stop();
	KT_EXPECT(captured_line("tlbshoot: threads: 3 ok", line, sizeof(line)));
	KT_EXPECT(captured_line("tlbshoot: reads after brk: ", line, sizeof(line)));
	KT_EXPECT(captured_anywhere(", reader status -1014"));
	KT_EXPECT_EQ(pages_free_count(), pages);
	printk("ktest:   %s; %lu shootdowns asked, %lu flushes done on request\n", line,
	       tlb_shootdowns() - shots, flushes_received() - flushes);
	if (num_online_cpus() > 1) {
		KT_EXPECT(tlb_shootdowns() > shots);
		KT_EXPECT(flushes_received() > flushes);
	} else {
		KT_EXPECT_EQ(tlb_shootdowns(), shots);	/* one CPU: never asked */
	}
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
	unsigned long before[CPU_TABLES_MAX_CPUS];
	unsigned int cpu, self = smp_processor_id();
	u32 others = 0;

	if (num_online_cpus() < 2)
		KT_SKIP("one CPU: there is no other to ask");
	for (cpu = 0; cpu < CPU_TABLES_MAX_CPUS; cpu++) {
		if (!cpu_online(cpu) || cpu == self)
			continue;
		others |= 1u << cpu;
		before[cpu] = tlb_flushes_received(cpu);
		flush_tlb_others(1u << cpu, TLB_FLUSH_ALL);
		KT_EXPECT_EQ(tlb_flushes_received(cpu), before[cpu] + 1);
	}
	for (cpu = 0; cpu < CPU_TABLES_MAX_CPUS; cpu++)
		before[cpu] = tlb_flushes_received(cpu);
	flush_tlb_others(others, TLB_FLUSH_ALL);
	for (cpu = 0; cpu < CPU_TABLES_MAX_CPUS; cpu++)
		KT_EXPECT_EQ(tlb_flushes_received(cpu), before[cpu] + !!(others & (1u << cpu)));
}
