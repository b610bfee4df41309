/*
 * spinlock_386.c - the ticket lock's atomic steps on a 386, which has
 * neither xadd nor cmpxchg (asm/spinlock.h says why this is enough).
 *
 * Out of line: a 486 or later never comes here, and each interrupt-flag
 * op is a patch site, which would otherwise be repeated at every lock
 * in the kernel.
 */
#include <asm/privileged.h>
#include <asm/spinlock.h>

/* Fetch-and-add on the lock word: its one CPU, interrupts off, is the
 * atomicity. */
u32 ticket_add_386(arch_spinlock_t *lock, u32 add)
{
	unsigned long flags = raw_local_irq_save();
	u32 old = lock->word;

	lock->word = old + add;
	raw_local_irq_restore(flags);
	return old;
}

/* Compare-and-swap on the lock word the same way: whether the word was
 * still old (and is now new). */
bool ticket_cmpxchg_386(arch_spinlock_t *lock, u32 old, u32 new)
{
	unsigned long flags = raw_local_irq_save();
	bool same = lock->word == old;

	if (same)
		lock->word = new;
	raw_local_irq_restore(flags);
	return same;
}
