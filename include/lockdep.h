/*
 * lockdep.h - the lock debugger: what it reports and how to read its
 * counts.
 *
 * Booted with `lockdebug`, every spin_lock, spin_trylock and spin_unlock
 * (spinlock.h) goes through kernel/lockdep.c, which keeps a stack of the
 * locks each CPU holds and reports, on one printk line that starts
 * "lockdep: ", with the lock's name, the CPU and the caller:
 *
 *   out of order      a lock taken whose rank is not above every held one
 *                     (lock_order.h): the half of a deadlock this CPU
 *                     can see;
 *   recursive take    a lock taken again by the CPU that holds it: it
 *                     would spin forever, so it is not taken (its unlock
 *                     is then matched silently);
 *   unheld unlock     a lock released that this CPU does not hold: it is
 *                     left alone;
 *   held across sleep schedule() called with a lock held (a sleep, a
 *                     yield, an exit);
 *   held too long     a lock held longer than LOCKDEP_HELD_LIMIT;
 *   never released    a task ended holding a lock.
 *
 * A report never panics and each misuse is reported once; the counts
 * below let a test see exactly which reports its code caused.
 */
#ifndef PV386_LOCKDEP_H
#define PV386_LOCKDEP_H

#include <spinlock.h>

enum lockdep_report {
	LOCKDEP_OUT_OF_ORDER,
	LOCKDEP_RECURSIVE_TAKE,
	LOCKDEP_UNHELD_UNLOCK,
	LOCKDEP_HELD_ACROSS_SLEEP,
	LOCKDEP_HELD_TOO_LONG,
	LOCKDEP_NEVER_RELEASED,
	LOCKDEP_NR_REPORTS
};

/* Held longer than this many timer ticks: half a second, whatever hz=. */
#define LOCKDEP_HELD_LIMIT	(timer_hz() / 2)

/* Reports of one kind since boot, and of every kind. */
unsigned long lockdep_reports(enum lockdep_report kind);
unsigned long lockdep_reports_total(void);

/* Turn the debugger on or off; whether it was on.  Only while this CPU
 * holds no lock: a lock taken unchecked and released checked would be
 * reported as unheld. */
bool lockdep_set(bool on);

/* Locks this CPU holds, as far as the debugger knows. */
unsigned int lockdep_held_count(void);

/* kernel/sched.c: schedule() is about to give up the CPU (or to end the
 * current task, if it is a zombie), holding switch_lock, the run queue's
 * lock, which the switch hands over to the next task (sched.c): the one
 * lock that may be held across a switch.  Inline, so that a kernel
 * without `lockdebug` pays a flag test per switch, not a call. */
void lockdep_check_schedule(spinlock_t *switch_lock);

static inline void lockdep_schedule(spinlock_t *switch_lock)
{
	if (__builtin_expect(lockdep_enabled, 0))
		lockdep_check_schedule(switch_lock);
}

/* kernel/task.c: the current task ends (its locks are never released). */
void lockdep_check_exit(void);

static inline void lockdep_task_exit(void)
{
	if (__builtin_expect(lockdep_enabled, 0))
		lockdep_check_exit();
}

#endif
