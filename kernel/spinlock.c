/*
 * spinlock.c - the irq-save lock forms out of line (spinlock.h says when
 * to use them): the same work as spin_lock_irqsave and
 * spin_unlock_irqrestore, with the lock debugger told the caller's
 * address rather than this file's.
 */
#include <spinlock.h>

/* Interrupts off (the previous state in *flags), then the lock. */
void spin_lock_irqsave_call(spinlock_t *lock, unsigned long *flags)
{
	*flags = raw_local_irq_save();
	if (__builtin_expect(lockdep_enabled, 0))
		lockdep_spin_lock_at(lock, (u32)__builtin_return_address(0));
	else
		arch_spin_lock(&lock->raw);
}

/* The lock released, then interrupts as they were. */
void spin_unlock_irqrestore_call(spinlock_t *lock, unsigned long flags)
{
	if (__builtin_expect(lockdep_enabled, 0))
		lockdep_spin_unlock_at(lock, (u32)__builtin_return_address(0));
	else
		arch_spin_unlock(&lock->raw);
	raw_local_irq_restore(flags);
}
