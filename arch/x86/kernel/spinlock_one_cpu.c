/*
 * spinlock_one_cpu.c - the ticket lock's atomic steps on a machine that
 * has one CPU for certain (no local APIC: a 386, a 486, DOSBox, v86),
 * without xadd or cmpxchg, which a 386 lacks (asm/spinlock.h says why
 * interrupts off are enough).
 *
 * They are reached through spinlock_one_cpu_entry.S, which gives them
 * the instructions' registers: the table's spin_draw there (PARAVIRT=y),
 * and the fixups of the inline instructions that raise #UD there (the
 * draw with PARAVIRT=n, spin_trylock's cmpxchg in both kernels).  Out of line: a machine that can have
 * more CPUs never comes here, and each interrupt-flag op is a patch
 * site, which would otherwise be repeated at every lock in the kernel.
 */
#include <asm/privileged.h>
#include <asm/spinlock.h>

u32 ticket_add_one_cpu(u32 add, arch_spinlock_t *lock);
u32 ticket_cmpxchg_one_cpu(u32 old, arch_spinlock_t *lock, u32 new);

/* Fetch-and-add on the lock word: its one CPU, interrupts off, is the
 * atomicity.  The old word. */
u32 ticket_add_one_cpu(u32 add, arch_spinlock_t *lock)
{
	unsigned long flags = raw_local_irq_save();
	u32 old = lock->word;

	lock->word = old + add;
	raw_local_irq_restore(flags);
	return old;
}

/* Compare-and-swap on the lock word the same way: the word as it was,
 * now new if that was old. */
u32 ticket_cmpxchg_one_cpu(u32 old, arch_spinlock_t *lock, u32 new)
{
	unsigned long flags = raw_local_irq_save();
	u32 seen = lock->word;

	if (seen == old)
		lock->word = new;
	raw_local_irq_restore(flags);
	return seen;
}
