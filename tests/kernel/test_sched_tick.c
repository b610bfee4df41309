/*
 * test_sched_tick.c - a CPU's own tick takes no lock that every CPU
 * shares (kernel/sched.c, sched_tick).
 *
 * Where each CPU has its own tick (the local APIC timer), a tick that
 * took runqueue_lock on every CPU makes that lock's demand grow with the
 * CPUs times HZ.  On a host with fewer cores than vCPUs a ticket lock
 * passes from one waiter to the next only when the host runs that
 * waiter's thread; once a round of the waiters takes longer than a tick,
 * every CPU that gets the lock finds its next tick already pending, and
 * no CPU runs anything but its tick again: the kernel livelocks.  Seen on
 * -smp 4 with a thread per CPU beside busy host loops: all four CPUs in
 * spin_until_served for runqueue_lock (sched_tick, sched_wake_due,
 * schedule), the owner moving some twenty tickets a second, and not a
 * line printed for minutes.  So a busy CPU's tick, like an idle one's,
 * only counts down its own task's slice, and the clock's tick takes the
 * lock only when a sleeper is due.
 *
 * The test: a program that computes without system calls on every CPU,
 * while this CPU watches the clock for a while (busy: a sleep would wake
 * through the lock, rightly); each other CPU's timer must tick, and no
 * tick may take the lock.  Skipped on one CPU (the PIT's tick does it
 * all there, under the lock).
 */
#include <ktest.h>
#include <task.h>
#include <spinlock.h>
#include <asm/apic.h>
#include <asm/smp.h>
#include <asm/timer.h>
#include "run_user.h"

#define WATCH_TICKS	50	/* half a second at HZ 100 */
#define SPIN_ROUNDS	"1000"	/* millions: it outlives the watch, then is killed */

KTEST(sched_tick_on_a_busy_cpu_takes_no_shared_lock)
{
	int pids[NR_CPUS], i, n = num_online_cpus() - 1;
	unsigned long locked, local, start;

	if (n < 1 || !timer_sched_tick_local())
		KT_SKIP("one CPU, or no local tick: the PIT's tick runs under the lock");
	for (i = 0; i < n; i++)
		pids[i] = start_program("spin", SPIN_ROUNDS);
	locked = sched_ticks_locked();
	local = apic_timer_ticks();
	start = timer_ticks();
	while (timer_ticks() - start < WATCH_TICKS)
		cpu_relax();
	locked = sched_ticks_locked() - locked;
	local = apic_timer_ticks() - local;
	printk("ktest:   %lu local ticks, %lu of them took runqueue_lock\n", local, locked);
	KT_EXPECT(local > 0);
	KT_EXPECT_EQ(locked, 0);
	for (i = 0; i < n; i++) {
		if (pids[i] <= 0)
			continue;
		task_kill_pid(pids[i]);
		finish_program(pids[i]);
	}
}
