/*
 * test_smp_ipi.c - the reschedule IPI reaches another CPU when the
 * scheduler needs it there (arch/x86/kernel/ipi.c, kernel/sched.c): a
 * kill for a task computing on another CPU, a wake-up while another CPU
 * idles.  The count each CPU keeps of the IPIs it received shows the
 * message went, not only that the end came (the target's own timer
 * would bring it too, a tick later).  Skipped on one CPU.
 */
#include <ktest.h>
#include <task.h>
#include <asm/smp.h>
#include <asm/timer.h>
#include "run_user.h"

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

	for (cpu = 0; cpu < CPU_TABLES_MAX_CPUS; cpu++)
		if (cpu != smp_processor_id())
			n += ipi_reschedule_count(cpu);
	return n;
}

/* A kernel thread asleep, woken from this CPU, which stays busy (the boot
 * thread runs on CPU 0 only): an idle CPU is sent the IPI and runs it. */
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
	sched_sleep_ticks(2);		/* the others back in their idle loops */
	before = others_ipis();
	sched_wake_up(&sleeper_channel);
	while (sleeper_woke_on < 0 && (long)(timer_ticks() - end) < 0)
		;			/* busy here: not idle, no task taken */
	KT_EXPECT(sleeper_woke_on > 0);
	KT_EXPECT(others_ipis() > before);
}
