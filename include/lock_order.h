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
 * Today pv386 runs on one CPU and only the lock tests declare locks; the
 * classes below are the ones issue 27 converts when the other CPUs start,
 * ordered by who calls whom.  A change of order is made here, with its
 * reason, and nowhere else.
 */
#ifndef PV386_LOCK_ORDER_H
#define PV386_LOCK_ORDER_H

enum lock_rank {
	/* The shell's state: held around a command, which may spawn tasks,
	 * allocate pages and print. */
	LOCK_RANK_SHELL = 10,
	/* The host's guest state: a guest run creates tasks and maps pages. */
	LOCK_RANK_GUEST = 20,
	/* The task table: task_alloc claims a slot, then allocates its stack;
	 * an exit wakes the parent (run queue). */
	LOCK_RANK_TASKS = 30,
	/* The scheduler's run queue: wake-ups come from inside the task
	 * table's lock and from interrupts. */
	LOCK_RANK_RUNQUEUE = 40,
	/* The page allocator: a leaf but for printing. */
	LOCK_RANK_PAGES = 50,
	/* The trace backend's counters: taken inside any op, so inside any
	 * of the above. */
	LOCK_RANK_TRACE = 60,
	/* The console and printk: innermost, since code holding any lock
	 * may print (the debugger's own reports included). */
	LOCK_RANK_CONSOLE = 70,
};

#endif
