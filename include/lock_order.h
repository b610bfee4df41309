/*
 * lock_order.h - the one list of the kernel's lock classes, in the order
 * they may be taken: the lock order.
 *
 * Every spinlock is declared with one of these ranks (DEFINE_SPINLOCK,
 * include/spinlock.h).  A CPU that holds locks may take another only of a
 * higher rank than every lock it holds: outer locks have low ranks,
 * inner ones high.  Two CPUs that both follow one order can never each
 * hold what the other waits for, so no deadlock; the lock debugger
 * (`lockdebug`, kernel/lockdep.c) reports any take that breaks it, a
 * second lock of the same rank taken inside the first included.
 *
 * Each class below has one lock today (docs/smp.md, "Who holds which
 * lock", has the table), ordered by who calls whom.  A lock held with
 * interrupts on must rank below every lock an interrupt handler takes:
 * the input queue's and the run queue's, which the input interrupt and
 * the timer's tick take on top of whatever the code they interrupt
 * holds.  A change of order is made here, with its reason, and nowhere
 * else.
 */
#ifndef PV386_LOCK_ORDER_H
#define PV386_LOCK_ORDER_H

enum lock_rank {
	/* The shell's state (its history): the outermost, though never held
	 * around a command, which may sleep. */
	LOCK_RANK_SHELL = 10,
	/* The host's guest state: its stop and release print and free pages. */
	LOCK_RANK_GUEST = 20,
	/* The task table: a zombie's collection frees its stack (pages) after
	 * the run queue says it is off it; an exit wakes the parent (run
	 * queue). */
	LOCK_RANK_TASKS = 30,
	/* An address space's heap changes (struct mm, task.h): held, with
	 * interrupts on, across the TLB shootdown below and the page
	 * allocator's lock. */
	LOCK_RANK_MM_BRK = 34,
	/* The one TLB shootdown in flight (arch/x86/mm/tlb.c): held with
	 * interrupts on while the other CPUs flush. */
	LOCK_RANK_TLB_SHOOTDOWN = 36,
	/* The console's input queue: the input interrupt fills it on top of
	 * whatever the code it interrupts holds with interrupts on (a brk's
	 * brk_lock and tlb_shootdown_lock, waiting for answers), so it ranks
	 * above those; its reader hands it to the run queue as it sleeps. */
	LOCK_RANK_CONSOLE_INPUT = 38,
	/* The scheduler's run queue: wake-ups come from inside the task
	 * table's lock and from interrupts. */
	LOCK_RANK_RUNQUEUE = 40,
	/* An address space's page entries and heap bounds (struct mm): a
	 * page fault takes it with interrupts off and allocates a page. */
	LOCK_RANK_MM_TABLES = 45,
	/* The address spaces' slots and users counts (kernel/mm.c): a leaf. */
	LOCK_RANK_MM_SLOTS = 47,
	/* The page allocator: a leaf but for printing. */
	LOCK_RANK_PAGES = 50,
	/* The trace backend's counters - kept with atomic adds instead, since
	 * they count the irq ops the lock operations themselves call; the
	 * rank stays for a lock that counts more than one word at once. */
	LOCK_RANK_TRACE = 60,
	/* The console and printk: innermost, since code holding any lock
	 * may print (the debugger's own reports included, which is why the
	 * debugger does not check this one: printk.c). */
	LOCK_RANK_CONSOLE = 70,
};

#endif
