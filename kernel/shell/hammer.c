/*
 * hammer.c - the shell's `hammer`: work on every CPU that runs hot patch
 * sites as fast as it can and checks every result, so that a storm of
 * live backend switches (`pv cycle N`, pv.c) meets code running the very
 * sites it rewrites (docs/smp.md, "Patching while other CPUs run";
 * tests/suite/hammer.py is the row).
 *
 *   hammer start N      one kernel thread per online CPU, and one copy
 *                       of user/hammer.c per online CPU making N rounds
 *                       of checked system calls each (they report their
 *                       own end, with their counts per CPU);
 *   hammer stop         stops the kernel threads, waits for them, and
 *                       prints their work per CPU and every wrong result,
 *                       and the TLB shootdowns asked since the start
 *                       (each user hammer's heap thread gives pages
 *                       back: user/hammer.c).
 *
 * A kernel thread's round runs the irq ops (save/restore, disable/
 * enable), read_cr3 and a spinlock's lock and unlock, and checks each:
 * the interrupt flag is what each op must leave, %cr3 holds the page
 * directory the thread runs in, and a count under the lock is exact when
 * all is done.  A site half-written when a CPU runs it, or a CPU running
 * an old backend's bytes, shows as a wrong result or a crash.
 *
 * The threads yield every HAMMER_ROUNDS_PER_YIELD rounds: the kernel is
 * not preemptive, and a switch stops the other CPUs in schedule(), so a
 * thread that never yielded would make every switch time out (-EBUSY).
 * No thread is bound to a CPU: the one run queue spreads them, and the
 * counts say where each round ran.
 */
#include <kernel.h>
#include <shell.h>
#include <spinlock.h>
#include <string.h>
#include <task.h>
#include <asm/paging.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/smp.h>
#include <asm/tlbflush.h>

#define HAMMER_ROUNDS_PER_YIELD	64
#define HAMMER_WRONG_SHOWN	8	/* the first few wrong results printed */

/* A leaf lock: taken with interrupts off (no tick takes the run queue's
 * on top) and no other lock taken inside, so it has no order to keep;
 * the shell's rank, as the shell's own code. */
static DEFINE_SPINLOCK(hammer_lock, LOCK_RANK_SHELL);
static unsigned long hammer_shared;	/* under hammer_lock */

static volatile bool hammer_stopping;
/* Also under hammer_lock (hammer_add: a 386 has no xadd). */
static unsigned long hammer_threads;	/* started and not yet ended */
static unsigned long hammer_mine_total;	/* each thread's own count of its
					   lock rounds, added at its end */
static unsigned long hammer_wrong;
/* Rounds per CPU.  Each CPU writes only its own slot, and a round is
 * never interrupted by another task (no preemption in the kernel). */
static unsigned long hammer_rounds[NR_CPUS];
static unsigned long hammer_migrations_at_start;
static unsigned long hammer_shootdowns_at_start;
static unsigned long hammer_stopped_flushes_at_start;
static bool hammer_started;

/* *counter += n under hammer_lock; the new value. */
static unsigned long hammer_add(unsigned long *counter, long n)
{
	unsigned long flags, now;

	spin_lock_irqsave(&hammer_lock, &flags);
	now = *counter += n;
	spin_unlock_irqrestore(&hammer_lock, flags);
	return now;
}

/* Count a wrong result and print the first few, naming the op. */
static void hammer_wrong_result(const char *what, unsigned long got, unsigned long want)
{
	unsigned long n = hammer_add(&hammer_wrong, 1);

	if (n <= HAMMER_WRONG_SHOWN)
		printk("hammer: WRONG on CPU %u: %s gave %lx, not %lx\n",
		       smp_processor_id(), what, got, want);
}

/* The interrupt flag alone: the arithmetic flags change with every
 * instruction between two reads. */
static unsigned long irq_flag(unsigned long flags)
{
	return flags & X86_EFLAGS_IF;
}

/* The irq ops: save disables and returns the flag as it was, restore
 * gives it back, disable and enable do what they say. */
static void hammer_irq_ops(void)
{
	unsigned long flags = raw_local_irq_save();

	if (irq_flag(flags) != X86_EFLAGS_IF)
		hammer_wrong_result("save_fl_irq_disable's old IF", irq_flag(flags),
				    X86_EFLAGS_IF);
	if (irq_flag(raw_local_save_flags()))
		hammer_wrong_result("IF after save_fl_irq_disable",
				    irq_flag(raw_local_save_flags()), 0);
	raw_local_irq_restore(flags);
	if (irq_flag(raw_local_save_flags()) != X86_EFLAGS_IF)
		hammer_wrong_result("IF after restore_fl", irq_flag(raw_local_save_flags()),
				    X86_EFLAGS_IF);
	raw_local_irq_disable();
	if (irq_flag(raw_local_save_flags()))
		hammer_wrong_result("IF after irq_disable", irq_flag(raw_local_save_flags()), 0);
	raw_local_irq_enable();
	if (irq_flag(raw_local_save_flags()) != X86_EFLAGS_IF)
		hammer_wrong_result("IF after irq_enable", irq_flag(raw_local_save_flags()),
				    X86_EFLAGS_IF);
}

/* One round of every hot op; mine counts this thread's lock rounds. */
static void hammer_round(unsigned long *mine)
{
	unsigned long flags;

	hammer_irq_ops();
	if ((read_cr3() & PAGE_MASK) != (u32)current->pgd)
		hammer_wrong_result("read_cr3", read_cr3(), (u32)current->pgd);
	spin_lock_irqsave(&hammer_lock, &flags);
	hammer_shared++;
	spin_unlock_irqrestore(&hammer_lock, flags);
	(*mine)++;
	hammer_rounds[smp_processor_id()]++;
}

/* A kernel thread: rounds until `hammer stop`, yielding between runs.
 * It runs with interrupts on (the tick, the stop's IPI come in): every
 * round checks that each op leaves them as it must. */
static void hammer_thread(void)
{
	unsigned long mine = 0;
	unsigned int i;

	if (!irq_flag(raw_local_save_flags()))
		hammer_wrong_result("a thread's first IF", 0, X86_EFLAGS_IF);
	while (!hammer_stopping) {
		for (i = 0; i < HAMMER_ROUNDS_PER_YIELD; i++)
			hammer_round(&mine);
		sched_yield();
	}
	hammer_add(&hammer_mine_total, mine);
	hammer_add(&hammer_threads, -1);
}

/* Counters to zero, then a thread and a user hammer per online CPU. */
static int hammer_start(const char *calls)
{
	unsigned int cpu, n = num_online_cpus();
	int pid;

	if (hammer_started) {
		printk("hammer: already started (hammer stop first)\n");
		return -EBUSY;
	}
	hammer_stopping = false;
	hammer_shared = hammer_mine_total = hammer_wrong = 0;
	memset(hammer_rounds, 0, sizeof(hammer_rounds));
	hammer_migrations_at_start = sched_migrations();
	hammer_shootdowns_at_start = tlb_shootdowns();
	hammer_stopped_flushes_at_start = tlb_flushes_received_stopped();
	for (cpu = 0; cpu < n; cpu++) {
		hammer_add(&hammer_threads, 1);
		task_create_kernel("hammer", hammer_thread);
		pid = task_spawn("hammer", calls);
		if (pid < 0)
			printk("hammer: cannot start the user hammer: error %d\n", pid);
	}
	hammer_started = true;
	printk("hammer: %u kernel threads and %u user programs of %s calls started\n",
	       n, n, calls);
	return 0;
}

/* Stop the threads, wait for them (the shell sleeps meanwhile, so they
 * run on this CPU too), and say what they did. */
static int hammer_stop(void)
{
	unsigned int cpu;

	if (!hammer_started) {
		printk("hammer: not started\n");
		return -EINVAL;
	}
	hammer_stopping = true;
	while (hammer_add(&hammer_threads, 0))
		sched_sleep_ticks(1);
	hammer_started = false;
	printk("hammer: rounds per CPU:");
	for_each_online_cpu(cpu)
		printk(" %u:%lu", cpu, hammer_rounds[cpu]);
	printk("\n");
	printk("hammer: locked count %lu of %lu, %lu migrations, %lu wrong\n",
	       hammer_shared, hammer_mine_total,
	       sched_migrations() - hammer_migrations_at_start, hammer_wrong);
	printk("hammer: %lu TLB shootdowns asked since the start, %lu flushes done by "
	       "stopped CPUs\n", tlb_shootdowns() - hammer_shootdowns_at_start,
	       tlb_flushes_received_stopped() - hammer_stopped_flushes_at_start);
	return hammer_wrong || hammer_shared != hammer_mine_total ? -EINVAL : 0;
}

static int cmd_hammer(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "start"))
		return hammer_start(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "stop"))
		return hammer_stop();
	printk("usage: hammer start N | hammer stop\n");
	return -EINVAL;
}
shell_command("hammer", cmd_hammer, "start N|stop", "hot sites on every CPU, checked");
