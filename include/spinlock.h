/*
 * spinlock.h - the kernel's spinlocks: spin_lock, spin_unlock,
 * spin_trylock, and the irq-save forms.
 *
 * A spinlock_t is a ticket lock (asm/spinlock.h: the machine half, fair,
 * 386 to now) with a name and a rank in the lock order (lock_order.h),
 * both given where the lock is declared:
 *
 *     static DEFINE_SPINLOCK(task_table_lock, LOCK_RANK_TASKS);
 *
 *     spin_lock_irqsave(&task_table_lock, &flags);
 *     ...
 *     spin_unlock_irqrestore(&task_table_lock, flags);
 *
 * A spinlock is held only briefly and never across a sleep: a CPU that
 * waits for it spins.  Data that an interrupt handler also touches is
 * locked with the irq-save forms, or the handler could spin forever on a
 * lock the code it interrupted holds.
 *
 * The lock debugger (kernel/lockdep.c, boot option `lockdebug`) takes
 * the out-of-line path of each operation, which checks the order, the
 * holder and the caller before doing the same work; off, a lock is the
 * inline ticket code alone, behind one test of a flag.
 */
#ifndef PV386_SPINLOCK_H
#define PV386_SPINLOCK_H

#include <types.h>
#include <lock_order.h>
#include <asm/privileged.h>
#include <asm/spinlock.h>

typedef struct spinlock {
	arch_spinlock_t raw;
	const char *name;	/* as reports name it */
	u8 rank;		/* enum lock_rank: its place in the order */
	/* Kept by the lock debugger only, from its last take it saw; true
	 * only while the lock still serves owner_ticket (it may have been
	 * released and taken again while the debugger was off): */
	s8 owner_cpu;		/* the CPU that took it, -1 if none */
	u16 owner_ticket;	/* the ticket that take was served */
	u32 owner_ip;		/* where that CPU took it */
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(lname, lrank) \
	{ ARCH_SPIN_LOCK_UNLOCKED, (lname), (lrank), -1, 0, 0 }
/* A lock named after its variable, at its rank in lock_order.h. */
#define DEFINE_SPINLOCK(var, lrank) \
	spinlock_t var = __SPIN_LOCK_UNLOCKED(#var, lrank)

/* A lock made at run time (inside a structure): free, named, ranked. */
static inline void spin_lock_init(spinlock_t *lock, const char *name,
				  enum lock_rank rank)
{
	*lock = (spinlock_t)__SPIN_LOCK_UNLOCKED(name, rank);
}

/* ---- the lock debugger's way in (kernel/lockdep.c) ---- */

/* Whether `lockdebug` (or a test, lockdep.h) turned the debugger on. */
extern bool lockdep_enabled;

/* The checked forms: the same work, reported and counted on misuse;
 * the caller they report is their return address. */
void lockdep_spin_lock(spinlock_t *lock);
bool lockdep_spin_trylock(spinlock_t *lock);
void lockdep_spin_unlock(spinlock_t *lock);
/* ... the same with the caller given (kernel/spinlock.c's forms). */
void lockdep_spin_lock_at(spinlock_t *lock, u32 ip);
void lockdep_spin_unlock_at(spinlock_t *lock, u32 ip);

/* ---- the operations ---- */

/* Wait until the lock is free and take it. */
static inline __attribute__((always_inline)) void spin_lock(spinlock_t *lock)
{
	if (__builtin_expect(lockdep_enabled, 0))
		lockdep_spin_lock(lock);
	else
		arch_spin_lock(&lock->raw);
}

/* Take the lock if it is free now; whether it was taken. */
static inline __attribute__((always_inline)) bool spin_trylock(spinlock_t *lock)
{
	if (__builtin_expect(lockdep_enabled, 0))
		return lockdep_spin_trylock(lock);
	return arch_spin_trylock(&lock->raw);
}

/* Release it: one store (asm/spinlock.h, arch_spin_unlock). */
static inline __attribute__((always_inline)) void spin_unlock(spinlock_t *lock)
{
	if (__builtin_expect(lockdep_enabled, 0))
		lockdep_spin_unlock(lock);
	else
		arch_spin_unlock(&lock->raw);
}

/* Interrupts off (the previous state in *flags), then the lock: for data
 * an interrupt handler shares.  Off first, so that no handler can run on
 * this CPU while it holds the lock. */
static inline __attribute__((always_inline))
void spin_lock_irqsave(spinlock_t *lock, unsigned long *flags)
{
	*flags = raw_local_irq_save();
	spin_lock(lock);
}

/* The lock released, then interrupts as they were before the save. */
static inline __attribute__((always_inline))
void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	spin_unlock(lock);
	raw_local_irq_restore(flags);
}

/*
 * The irq-save forms out of line (kernel/spinlock.c): one call, and one
 * pair of irq patch sites for the whole kernel instead of a pair at each
 * use - for paths where a call costs nothing that matters (a sleep, a
 * wake-up, a task's creation; not the context switch or a page fault).
 * The `sites` listing must fit the tests' capture, and every inline use
 * adds two lines to it.  The debugger names the caller, as inline.
 */
void spin_lock_irqsave_call(spinlock_t *lock, unsigned long *flags);
void spin_unlock_irqrestore_call(spinlock_t *lock, unsigned long flags);

/* Whether anyone holds it (for assertions: by the time the caller looks,
 * it may have changed). */
static inline bool spin_is_locked(spinlock_t *lock)
{
	return arch_spin_is_locked(&lock->raw);
}

#endif
