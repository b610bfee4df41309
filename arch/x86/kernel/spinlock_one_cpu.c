/*
 * spinlock_one_cpu.c - the ticket lock's atomic steps on a machine that
 * has one CPU for certain (no local APIC: a 386, a 486, DOSBox, v86),
 * without xadd or cmpxchg, which a 386 lacks (asm/spinlock.h says why
 * interrupts off are enough).
 *
 * Out of line: a machine that can have more CPUs never comes here, and
 * each interrupt-flag op is a patch site, which would otherwise be
 * repeated at every lock in the kernel.
 */
#include <asm/privileged.h>
#include <asm/spinlock.h>

/* Fetch-and-add on the lock word: its one CPU, interrupts off, is the
 * atomicity. */
u32 ticket_add_one_cpu(arch_spinlock_t *lock, u32 add)
{
	unsigned long flags = raw_local_irq_save();
	u32 old = lock->word;

	lock->word = old + add;
	raw_local_irq_restore(flags);
	return old;
}

/* Compare-and-swap on the lock word the same way: whether the word was
 * still old (and is now new). */
bool ticket_cmpxchg_one_cpu(arch_spinlock_t *lock, u32 old, u32 new)
{
	unsigned long flags = raw_local_irq_save();
	bool same = lock->word == old;

	if (same)
		lock->word = new;
	raw_local_irq_restore(flags);
	return same;
}
