/*
 * bench_tlb.c - what a TLB shootdown costs: the flush_tlb_others op
 * asked of one other CPU and of every other CPU, as `bench:` lines
 *
 *     bench: shootdown CPUS COUNT
 *
 * (CPUS the CPUs asked, COUNT TSC counts for the whole op: the IPIs sent,
 * the wait, each answer).  Printed by `bench` where more than one CPU
 * runs (bench.c calls bench_tlb first); with `benchtlb` too, nothing
 * else is measured and the kernel exits (tools/bench boots it so, on
 * -smp 4, for these two figures alone).
 *
 * What the count means under `-icount shift=0`: QEMU then runs every
 * vCPU in one thread, round-robin, and the TSC is the one virtual clock
 * they share, driven by the instructions of ALL of them.  So COUNT is
 * not the sender's instructions: it is every instruction any CPU executed
 * between the sender's two reads - the sender's sends and its spinning,
 * each asked CPU's wake from hlt, handler and answer, and any other
 * CPU's idle loop turn - and how long the sender spins depends on how
 * QEMU slices the round robin.  The figure is deterministic and
 * compares one CPU with N, and patched with inline; it is not what one
 * CPU pays on hardware, where the others run at the same time.
 */
#include <kernel.h>
#include <bench.h>
#include <cmdline.h>
#include <asm/machine.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/smp.h>
#include <asm/tlbflush.h>

#define SHOOT_RUNS	64	/* the least of these is printed */

static bool only_tlb;

static int parse_benchtlb(const char *value)
{
	(void)value;
	only_tlb = true;
	return 0;
}
boot_option("benchtlb", parse_benchtlb, "with bench: the TLB shootdown's figures alone");

/* The least TSC counts one shootdown of mask took, less the two reads
 * around it (the least of an empty pair).  A timer tick that falls in
 * one run makes that run longer, never the least. */
static u64 shootdown_counts(cpumask_t mask)
{
	u64 best = ~0ull, empty = ~0ull, t0;
	unsigned int i;

	for (i = 0; i < SHOOT_RUNS; i++) {
		t0 = read_tsc();
		empty = min(empty, read_tsc() - t0);
	}
	for (i = 0; i < SHOOT_RUNS; i++) {
		t0 = read_tsc();
		flush_tlb_others(mask, TLB_FLUSH_ALL);
		best = min(best, read_tsc() - t0);
	}
	return best - empty;
}

/* Interrupts on for the op's rule (asm/tlbflush.h); the caller's
 * state back after. */
void bench_tlb(void)
{
	unsigned int cpu, self = smp_processor_id(), n = 0;
	cpumask_t first = 0, others = 0;
	unsigned long flags;

	if (num_online_cpus() < 2) {
		if (only_tlb)
			printk("bench: shootdown absent (one CPU)\n");
		return;
	}
	for_each_online_cpu(cpu) {
		if (cpu == self)
			continue;
		first = first ? first : cpumask_of(cpu);
		others |= cpumask_of(cpu);
		n++;
	}
	flags = raw_local_irq_save();
	raw_local_irq_enable();
	printk("bench: shootdown 1 %llu\n", shootdown_counts(first));
	if (n > 1)
		printk("bench: shootdown %u %llu\n", n, shootdown_counts(others));
	raw_local_irq_restore(flags);
	if (only_tlb) {
		printk("bench: done (shootdown)\n");
		emulator_exit(EMU_EXIT_PASS);
	}
}
