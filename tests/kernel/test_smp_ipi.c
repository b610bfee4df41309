/*
 * test_smp_ipi.c - the reschedule IPI reaches another CPU when the
 * scheduler needs it there (arch/x86/kernel/smp/ipi.c, kernel/sched.c): a
 * kill for a task computing on another CPU, a wake-up while another CPU
 * idles; and a storm of them between every CPU.  The count each CPU
 * keeps of the IPIs it received shows the message went, not only that
 * the end came (the target's own timer would bring it too, a tick
 * later).  Skipped on one CPU.
 */
#include <ktest.h>
#include <task.h>
#include <asm/percpu.h>
#include <asm/smp.h>
#include <asm/timer.h>
#include "run_user.h"
#include "ipi_check.h"

#define WAIT_TICKS	200

/* Until t runs on a CPU other than this one, or the wait ends: that CPU,
 * or -1.  Busy, not asleep: an idle CPU here would take t itself. */
static int other_cpu_running(const struct task *t)
{
	unsigned long end = timer_ticks() + WAIT_TICKS;

	while ((long)(timer_ticks() - end) < 0)
		if (t->on_cpu && t->cpu != smp_processor_id())
			return t->cpu;
	return -1;
}

/* A program in a loop that never enters the kernel, killed from here:
 * the kill sends its CPU the IPI, and it dies on its way back. */
KTEST(smp_kill_reaches_a_task_on_another_cpu)
{
	unsigned long before;
	int pid, cpu;

	if (num_online_cpus() < 2)
		KT_SKIP("one CPU");
	pid = start_program("spin", "1000");
	KT_EXPECT(pid > 0);
	if (pid <= 0)
		return;
	cpu = other_cpu_running(task_by_pid(pid));
	KT_EXPECT(cpu >= 0);
	before = cpu >= 0 ? ipi_reschedule_count(cpu) : 0;
	KT_EXPECT_EQ(task_kill_pid(pid), 0);
	KT_EXPECT_EQ(finish_program(pid), EXIT_KILLED_BY_REQUEST);
	if (cpu >= 0)
		KT_EXPECT(ipi_reschedule_count(cpu) > before);
}

static volatile int sleeper_woke_on = -1;
static int sleeper_channel;	/* what it sleeps on: its address */

static void sleeper_thread(void)
{
	unsigned long flags = raw_local_irq_save();

	sched_sleep_on(&sleeper_channel);
	raw_local_irq_restore(flags);
	sleeper_woke_on = smp_processor_id();
}

/* The sum over every CPU but this one. */
static unsigned long others_ipis(void)
{
	unsigned long n = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (cpu != smp_processor_id())
			n += ipi_reschedule_count(cpu);
	return n;
}

/* Whether every other CPU runs its idle task now. */
static bool others_idle(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id() &&
		    per_cpu(cpu)->current_task != per_cpu(cpu)->idle_task)
			return false;
	return true;
}

/* A kernel thread asleep, woken from this CPU, which stays busy (the boot
 * thread runs on CPU 0 only): an idle CPU is sent the IPI and runs it.
 * The others must be idle first: on a loaded host a task of an earlier
 * test may still be ending on one, and a busy CPU is kicked by nobody. */
KTEST(smp_wake_up_kicks_an_idle_cpu)
{
	unsigned long before, end;
	struct task *t;

	if (num_online_cpus() < 2)
		KT_SKIP("one CPU");
	sleeper_woke_on = -1;
	t = task_create_kernel("sleeper", sleeper_thread);
	end = timer_ticks() + WAIT_TICKS;
	while (t->state != TASK_SLEEPING && (long)(timer_ticks() - end) < 0)
		sched_sleep_ticks(1);
	KT_EXPECT_EQ(t->state, TASK_SLEEPING);
	while (!others_idle() && (long)(timer_ticks() - end) < 0)
		sched_sleep_ticks(1);	/* the others back in their idle loops */
	KT_EXPECT(others_idle());
	before = others_ipis();
	sched_wake_up(&sleeper_channel);
	while (sleeper_woke_on < 0 && (long)(timer_ticks() - end) < 0)
		;			/* busy here: not idle, no task taken */
	KT_EXPECT(sleeper_woke_on > 0);
	/* The kicked CPU counts the IPI when it takes the interrupt, which
	 * may come after another idle CPU's own tick ran the sleeper. */
	while (others_ipis() == before && (long)(timer_ticks() - end) < 0)
		cpu_relax();
	KT_EXPECT(others_ipis() > before);
}

#define STORM_IPIS	2000	/* each storm thread sends this many rounds */

static volatile unsigned int storm_started, storm_done;
static volatile cpumask_t storm_cpus_seen;	/* a bit per CPU a storm thread ran on */

static bool storm_seen_on_two_cpus(void)
{
	return storm_cpus_seen & (storm_cpus_seen - 1);
}

/* Reschedule IPIs to every other CPU, as fast as the APIC takes them;
 * each interrupts a storm thread there, which is sending its own.  On a
 * loaded host a CPU's thread may not run for a while, and the others
 * could finish their rounds on one CPU: so a thread sends on (up to
 * WAIT_TICKS) until storm threads have run on two CPUs. */
static void storm_thread(void)
{
	unsigned long end = timer_ticks() + WAIT_TICKS;
	unsigned int i;

	/* All start together, or the first could be done before the last
	 * began: the CPUs would take turns, not storm. */
	__atomic_add_fetch(&storm_started, 1, __ATOMIC_RELAXED);
	while (storm_started < num_online_cpus())
		sched_yield();
	for (i = 0; i < STORM_IPIS || (!storm_seen_on_two_cpus() &&
				       (long)(timer_ticks() - end) < 0); i++) {
		smp_send_reschedule_others();
		cpumask_set_atomic(&storm_cpus_seen, smp_processor_id());
	}
	__atomic_add_fetch(&storm_done, 1, __ATOMIC_RELAXED);
}

/* An IPI storm: a thread per CPU, each sending STORM_IPIS rounds to all
 * the others while they send theirs.  Every thread ends (no CPU wedged
 * waiting on its APIC, no scheduler lock lost under the interrupts),
 * every CPU received some (IPIs to a CPU that has one pending merge, so
 * not all of them), and afterwards each still answers a single one. */
KTEST(smp_ipi_storm_between_every_cpu)
{
	unsigned long before = 0, end;
	unsigned int i, n = num_online_cpus();

	if (n < 2)
		KT_SKIP("one CPU");
	storm_started = storm_done = 0;
	storm_cpus_seen = 0;
	for_each_possible_cpu(i)
		before += ipi_reschedule_count(i);
	for (i = 0; i < n; i++)
		task_create_kernel("ipistorm", storm_thread);
	end = timer_ticks() + 10 * WAIT_TICKS;
	while (storm_done < n && (long)(timer_ticks() - end) < 0)
		sched_sleep_ticks(1);	/* this CPU takes a storm thread too */
	KT_EXPECT_EQ(storm_done, n);
	KT_EXPECT(storm_seen_on_two_cpus());
	for_each_possible_cpu(i)
		before -= ipi_reschedule_count(i);
	KT_EXPECT((long)before < 0);	/* the total grew */
	KT_EXPECT(other_cpus_answer_an_ipi(WAIT_TICKS));
}
