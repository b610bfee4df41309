/*
 * spinlock_native.c - the native lock ops that are C (asm/spinlock.h
 * says what each op is, docs/smp.md "Locks" why): the slow path of a
 * ticket lock found held, and its record of who waits for which ticket.
 *
 * The slow path is what every backend's table holds today (native, rom's
 * glue, the guest's): a hypervisor would give its own, or keep this one
 * and give only wait, kick and vcpu_is_preempted, which it calls through
 * the table.  It waits by spinning; every SPIN_CHECK_EVERY spins it asks
 * whether the CPU ahead of it in the line (the one holding or waiting
 * for the ticket before its own) has been put aside by its host, and
 * after SPIN_THRESHOLD spins, or at once if that CPU has, it calls wait:
 * a waiter behind a preempted CPU would spin for nothing (lock-waiter
 * preemption, the ticket lock's own trouble in a guest: every ticket
 * behind a stalled one waits too).
 *
 * The waiters' slots: each CPU in the slow path writes which lock and
 * ticket it waits for, and leaves them there once served (it then holds
 * that ticket).  They are how a waiter finds the CPU ahead, and how an
 * unlock that served a ticket finds the CPU to kick.  An uncontended take
 * writes nothing (the fast path must stay the xadd), so the CPU ahead may
 * be unknown, and a slot may be stale: both are only hints, never
 * needed for a correct lock.  Each CPU writes only its own slot.
 *
 * Not on a machine of one CPU: there no lock is ever found held (no
 * holder is switched away or interrupted by a taker: docs/smp.md), and
 * nothing here runs.
 */
#include <types.h>
#include <asm/cpu.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/spinlock.h>

#define SPIN_CHECK_EVERY	64	/* spins between looks at the CPU ahead */
#define SPIN_THRESHOLD		1024	/* spins before a waiter calls wait */

/* What CPU n waits for, or last took, in the slow path. */
struct lock_waiter {
	arch_spinlock_t *volatile lock;
	volatile u16 ticket;
};

static struct lock_waiter waiters[NR_CPUS];
static u32 contended[NR_CPUS], long_waits[NR_CPUS];	/* by the CPU itself */

u32 spin_contended_count(unsigned int cpu)
{
	return cpu < NR_CPUS ? contended[cpu] : 0;
}

u32 spin_long_wait_count(unsigned int cpu)
{
	return cpu < NR_CPUS ? long_waits[cpu] : 0;
}

/* The CPU whose slot says it waits for (or holds, or held) ticket on
 * lock, or -1. */
static int cpu_with_ticket(arch_spinlock_t *lock, u16 ticket)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct lock_waiter *w = &waiters[cpu];

		if (w->lock == lock && w->ticket == ticket)
			return cpu;
	}
	return -1;
}

/* Say, before looking at the lock again, that this CPU waits for ticket:
 * an unlock that serves it and then reads the slots must find it (a full
 * barrier: x86 may otherwise let this CPU's later loads of owner pass
 * the stores).  One slot a CPU: a waiter with interrupts on (brk_lock's)
 * may take an interrupt that waits for another lock and overwrites it;
 * a kick for the outer ticket then finds no CPU, so a wait must also
 * end on its own (natively it is one pause). */
static void publish_waiting(struct lock_waiter *w, arch_spinlock_t *lock, u16 ticket)
{
	w->lock = lock;
	w->ticket = ticket;
	smp_mb();
}

/* Whether a waiter that has spun `spins` times should give its CPU back
 * now: it has spun long, or the CPU ahead of it is not running. */
static bool should_wait(arch_spinlock_t *lock, u16 ticket, unsigned int spins)
{
	int ahead;

	if (spins >= SPIN_THRESHOLD)
		return true;
	ahead = cpu_with_ticket(lock, ticket - 1);
	return ahead >= 0 && vcpu_is_preempted(ahead);
}

/*
 * spin_lock_slowpath, native: the xadd drew ticket and found the lock
 * held; spin until owner shows it.  Interrupts stay as the caller had
 * them.  Returns holding the lock.
 */
static void spin_until_served(arch_spinlock_t *lock, u32 ticket)
{
	unsigned int me = smp_processor_id();
	struct lock_waiter *w = &waiters[me];
	unsigned int spins = 0;

	contended[me]++;
	publish_waiting(w, lock, ticket);
	while (lock->owner != (u16)ticket) {
		cpu_relax();
		if (++spins % SPIN_CHECK_EVERY == 0 && should_wait(lock, ticket, spins)) {
			long_waits[me]++;
			ticket_wait(lock, ticket);
			spins = 0;
		}
	}
	barrier();	/* served: the slot now says it holds ticket */
}

#ifdef CONFIG_PARAVIRT
/* The op in the native table (and rom's and the guest's). */
void native_spin_lock_slowpath(arch_spinlock_t *lock, u32 ticket)
{
	spin_until_served(lock, ticket);
}
#else
/* PARAVIRT=n: what native_spin_lock_slowpath calls (asm/spinlock.h). */
void spin_lock_slowpath(arch_spinlock_t *lock, u32 ticket)
{
	spin_until_served(lock, ticket);
}
#endif

#ifdef CONFIG_PARAVIRT
/*
 * After a release that left waiters (spinlock_unlock.S): the CPU that
 * waits for the ticket now served is kicked, in case its wait sleeps.
 * It may have seen the release and gone on already: a kick too many
 * costs a wake-up at most (wait may return early anyway).
 */
void spin_unlock_kick_waiter(arch_spinlock_t *lock)
{
	int cpu = cpu_with_ticket(lock, lock->owner);

	if (cpu >= 0)
		ticket_kick(cpu);
}

/* The native wait: the CPU is this kernel's to keep, so nothing is
 * given back; one more pause. */
void native_spin_wait(arch_spinlock_t *lock, u32 ticket)
{
	(void)lock;
	(void)ticket;
	cpu_relax();
}

/* The native kick: no waiter ever sleeps natively, so none is woken
 * (Linux's native kick is a nop too). */
void native_spin_kick(unsigned int cpu)
{
	(void)cpu;
}

/* On bare hardware every CPU runs whenever the kernel does. */
bool native_vcpu_is_preempted(unsigned int cpu)
{
	(void)cpu;
	return false;
}

/*
 * The draws a table holds for this machine, chosen once, when a backend
 * prepares its table, so that the patcher makes each site what the
 * machine needs and no take asks: the locked instruction where the CPU
 * has it, the one-CPU form where it may not, and where then no other
 * CPU can exist (asm/cpu.h, cpu_has_xadd).  Before cpu_detect() has run
 * (the boot table, paravirt_init) it answers the one-CPU form, which is
 * right on every machine while one CPU runs.
 */
void spin_choose_draw_ops(struct paravirt_ops *ops)
{
	ops->spin_draw = cpu_has_xadd() ? native_spin_draw : spin_draw_one_cpu;
}
#endif
