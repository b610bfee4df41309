/*
 * bench_smp.c - `make bench`'s figures of more than one CPU, booted with
 * `bench benchsmp` under QEMU -icount shift=0 and -smp 1, 2 or 4
 * (tools/bench, smp_figures): instead of the per-op figures of bench.c,
 *
 *   what a TSC delta counts   a loop on this CPU, the others halted; then
 *                             the TSC here while another CPU runs it:
 *                             under -icount QEMU runs the CPUs in turn in
 *                             one thread and the TSC follows the machine's
 *                             instruction count, so the other CPU's
 *                             instructions land in this CPU's delta
 *                             (docs/cost.md, "More than one CPU");
 *   an IPI's round trip       this CPU sends CPU 1 a reschedule IPI while
 *                             CPU 1 halts, and spins until CPU 1's count
 *                             of those it received moves (its handler's
 *                             answer): the machine's instructions from the
 *                             send to the answer seen, median of a series;
 *   a parallel workload       one copy of user/bench_par.c per CPU at
 *                             once (system calls, yields on the one run
 *                             queue's lock, faults on the page allocator's):
 *                             the machine's instructions from the first
 *                             spawn to the last exit, that per CPU, and
 *                             the kernel's lock takes that found the
 *                             lock held meanwhile;
 *   one lock, every CPU       each CPU takes one spinlock 2000 times: the
 *                             instructions, the takes and how many of
 *                             them found the lock held (contended).
 *
 * The lines are "bench: smp NAME COUNT", one name per figure; the boot
 * thread stays on CPU 0, as for every other figure (it is bound).
 */
#include <kernel.h>
#include <bench_smp.h>
#include <cmdline.h>
#include <math64.h>
#include <sort.h>
#include <spinlock.h>
#include <task.h>
#include <asm/machine.h>
#include <asm/privileged.h>
#include <asm/smp.h>
#include <asm/spinlock.h>

#define TSC_LOOP_ROUNDS		1000000	/* 2 million instructions */
#define IPI_SAMPLES		63	/* odd: the median is one of them */
#define IPI_SETTLE_ROUNDS	20000	/* between samples: CPU 1 halts again */
#define PAR_ROUNDS		"2048"	/* each copy's rounds (bench_par's argument) */
#define PAR_MAX_COPIES		8

static bool smp_requested;

static int parse_benchsmp(const char *value)
{
	(void)value;
	smp_requested = true;
	return 0;
}
boot_option("benchsmp", parse_benchsmp,
	    "with bench: the figures of more than one CPU instead (make bench)");

bool bench_smp_requested(void)
{
	return smp_requested;
}

/* ---- what a TSC delta counts ---- */

/* rounds of an empty loop, with interrupts off: the TSC's delta. */
static __attribute__((noinline)) u64 tsc_loop(unsigned long rounds)
{
	unsigned long flags = raw_local_irq_save();
	u64 start = read_tsc(), end;

	while (rounds--)
		barrier();
	end = read_tsc();
	raw_local_irq_restore(flags);
	return end - start;
}

static volatile bool busy_done;

/* Another CPU computing: the same loop as tsc_loop's, then done.  Its
 * loop never leaves the CPU (no pause, which would end its turn under
 * QEMU at once); bounded, since under -icount QEMU may let a CPU that
 * never leaves run a long turn. */
static void busy_thread(void)
{
	unsigned long rounds = TSC_LOOP_ROUNDS;

	while (rounds--)
		barrier();
	busy_done = true;
}

/*
 * This CPU's loop with the others halted, then the TSC on this CPU
 * while another CPU runs the same loop (its start included: a thread
 * made, an idle CPU woken by IPI) and this one only waits, each `pause`
 * ending its turn.  A TSC of this CPU's own instructions would give the
 * second a few thousand; the machine's, about the first.
 */
static void bench_smp_tsc(void)
{
	u64 start;

	printk("bench: smp tsc_own_loop %llu\n", tsc_loop(TSC_LOOP_ROUNDS));
	if (num_online_cpus() < 2)
		return;
	/* Waited for without yielding: this thread is bound to CPU 0, and
	 * the busy one, never yielding either, must not take CPU 0 from it.
	 * A wake-up kicks an idle CPU, never this busy one. */
	busy_done = false;
	start = read_tsc();
	task_create_kernel("busy", busy_thread);
	while (!busy_done)
		cpu_relax();
	printk("bench: smp tsc_while_another_loops %llu\n", read_tsc() - start);
}

/* ---- an IPI's round trip ---- */

/* One trip: the TSC from the send until CPU 1's handler has counted it. */
static u64 ipi_round_trip(void)
{
	unsigned long flags = raw_local_irq_save();
	unsigned long before = ipi_reschedule_count(1);
	u64 start = read_tsc(), end;

	smp_send_reschedule(1);
	while (ipi_reschedule_count(1) == before)
		cpu_relax();
	end = read_tsc();
	raw_local_irq_restore(flags);
	return end - start;
}

static void bench_smp_ipi(void)
{
	u64 samples[IPI_SAMPLES], median;
	unsigned int i;

	if (num_online_cpus() < 2)
		return;
	for (i = 0; i < IPI_SAMPLES; i++) {
		tsc_loop(IPI_SETTLE_ROUNDS);
		samples[i] = ipi_round_trip();
	}
	median = median_u64(samples, IPI_SAMPLES);	/* sorts them */
	printk("bench: smp ipi_round_trip %llu (median of %u; min %llu, max %llu)\n",
	       median, IPI_SAMPLES, samples[0], samples[IPI_SAMPLES - 1]);
}

/* ---- the parallel workload ---- */

/* Takes of any kernel lock that found it held, on every CPU so far:
 * each one a call of the lock's slow path (spinlock_native.c). */
static u32 kernel_lock_contended(void)
{
	unsigned int cpu;
	u32 n = 0;

	for_each_possible_cpu(cpu)
		n += spin_contended_count(cpu);
	return n;
}

/* One copy per CPU, all at once; the TSC from before the first spawn to
 * after the last is collected, and the kernel's contended lock takes
 * meanwhile (the run queue's, the page allocator's ...).  false if a
 * copy failed. */
static bool bench_smp_workload(void)
{
	unsigned int n = min(num_online_cpus(), (unsigned int)PAR_MAX_COPIES), i;
	int pids[PAR_MAX_COPIES], status;
	u32 contended = kernel_lock_contended();
	u64 start = read_tsc(), total, per_cpu;
	bool ok = true;

	for (i = 0; i < n; i++)
		if ((pids[i] = task_spawn("bench_par", PAR_ROUNDS)) < 0) {
			printk("bench: cannot start bench_par: error %d\n", pids[i]);
			return false;
		}
	for (i = 0; i < n; i++)
		if (task_wait(pids[i], &status) != pids[i] || status != 0) {
			printk("bench: bench_par pid %d ended with status %d\n", pids[i], status);
			ok = false;
		}
	total = per_cpu = read_tsc() - start;
	div64_u32_rem(&per_cpu, n);	/* no 64-bit division in a 32-bit kernel */
	printk("bench: smp workload_copies %u\n", n);
	printk("bench: smp workload_total %llu\n", total);
	printk("bench: smp workload_per_cpu %llu\n", per_cpu);
	printk("bench: smp workload_contended %u\n", kernel_lock_contended() - contended);
	return ok;
}

/* ---- one lock, every CPU ---- */

/*
 * Every CPU takes one lock LOCK_ROUNDS times, with a little work inside
 * and outside: the boot thread on CPU 0 and a kernel thread on each
 * other CPU (never yielding, so each keeps the idle CPU its wake-up
 * kicked).  A take whose trylock fails is a contended one, counted by
 * the taker; the machine's instructions from the start to the last
 * finish are the cost.  Under -icount a CPU's turn can end inside the
 * lock, and every other CPU then finds it taken until that CPU's next
 * turn: the lock-holder preemption of docs/smp.md, in miniature.
 */
#define LOCK_ROUNDS		50000
#define LOCK_WORK		20	/* empty rounds inside and outside */

static DEFINE_SPINLOCK(bench_lock, LOCK_RANK_SHELL);	/* a leaf: nothing inside */
static unsigned long lock_shared;	/* under bench_lock */
static unsigned long lock_contended;	/* under bench_lock: added at each end */
static volatile unsigned int lock_workers_done;	/* under bench_lock */
static volatile bool lock_go;

static void some_work(void)
{
	unsigned int i;

	for (i = 0; i < LOCK_WORK; i++)
		barrier();
}

static void lock_rounds(void)
{
	unsigned long flags, contended = 0;
	unsigned int i;

	for (i = 0; i < LOCK_ROUNDS; i++) {
		flags = raw_local_irq_save();
		if (!spin_trylock(&bench_lock)) {
			contended++;
			spin_lock(&bench_lock);
		}
		lock_shared++;
		some_work();
		spin_unlock(&bench_lock);
		raw_local_irq_restore(flags);
		some_work();
	}
	spin_lock_irqsave(&bench_lock, &flags);
	lock_contended += contended;
	lock_workers_done++;
	spin_unlock_irqrestore(&bench_lock, flags);
}

static void lock_worker(void)
{
	while (!lock_go)
		cpu_relax();
	lock_rounds();
}

static bool bench_smp_lock(void)
{
	unsigned int n = num_online_cpus(), i;
	u64 start;

	lock_go = false;
	for (i = 1; i < n; i++)
		task_create_kernel("lockbench", lock_worker);
	start = read_tsc();
	lock_go = true;
	lock_rounds();
	while (lock_workers_done < n)
		cpu_relax();
	printk("bench: smp lock_total %llu\n", read_tsc() - start);
	printk("bench: smp lock_takes %lu\n", lock_shared);
	printk("bench: smp lock_contended %lu\n", lock_contended);
	if (lock_shared == (unsigned long)n * LOCK_ROUNDS)
		return true;
	printk("bench: the lock's count is %lu, not %u\n", lock_shared, n * LOCK_ROUNDS);
	return false;
}

/* With interrupts on and the timer running: the APs need their IPIs,
 * and the workload's tasks sleep and wake. */
void bench_smp_run(void)
{
	bool ok;

	printk("bench: smp cpus %u\n", num_online_cpus());
	bench_smp_tsc();
	bench_smp_ipi();
	ok = bench_smp_workload();
	ok = bench_smp_lock() && ok;
	if (ok)
		printk("bench: smp done\n");
	emulator_exit(ok ? EMU_EXIT_PASS : EMU_EXIT_FAIL);
	for (;;)
		halt();
}
