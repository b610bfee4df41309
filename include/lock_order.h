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
 * A class may have more than one lock: the shell's rank is also the
 * shell commands' leaf locks', an address space's two classes are one
 * lock per address space, and the trace counters' has none.  Each
 * class's comment says what its locks guard and how they are taken;
 * docs/smp.md's lock table is drawn from these comments and the tree's
 * DEFINE_SPINLOCK and spin_lock_init lines (tools/docs-fill: lock-order).
 * The classes are ordered by who calls whom.  A lock held with
 * interrupts on must rank below every lock an interrupt handler takes:
 * the input queue's and the run queue's, which the input interrupt and
 * the timer's tick take on top of whatever the code they interrupt
 * holds.  A change of order is made here, with its reason, and nowhere
 * else.
 */
#ifndef PV386_LOCK_ORDER_H
#define PV386_LOCK_ORDER_H

enum lock_rank {
	/* The shell's history: the outermost, though never held around a
	 * command, which may sleep.  Also the rank of the shell commands'
	 * leaf locks (hammer's counters, the SMP bench's), which take no
	 * other lock inside.  The shell's is taken with interrupts off. */
	LOCK_RANK_SHELL = 10,
	/* The host's guest state: its moves (start's claim, stop, release),
	 * its stop reason, the console line being collected and the input
	 * ring typed into; its stop and release print and free pages.
	 * Taken with interrupts off. */
	LOCK_RANK_GUEST = 20,
	/* The task table: its slots, the pids, the parent links, exit
	 * statuses, kill's marks.  A zombie's collection frees its stack
	 * (pages) after the run queue says it is off it; an exit wakes the
	 * parent (run queue).  Taken with interrupts off. */
	LOCK_RANK_TASKS = 30,
	/* A pipe's buffer, its counts of bytes read and written, its ends
	 * and its sleepers (kernel/pipe.c, one lock each).  Held, with
	 * interrupts on, across the copy to or from user memory, whose page
	 * fault may map a page (the address space's table lock, the page
	 * allocator's); so it ranks below the interrupts' locks.  A reader
	 * or writer sleeps on it, handing it to the run queue's, and wakes
	 * the other side inside it. */
	LOCK_RANK_PIPE = 32,
	/* An address space's heap changes (struct mm, one lock each): held,
	 * with interrupts on, across the TLB shootdown below and the page
	 * allocator's lock. */
	LOCK_RANK_MM_BRK = 34,
	/* The one TLB shootdown in flight (arch/x86/mm/tlb.c): held with
	 * interrupts on while the other CPUs flush. */
	LOCK_RANK_TLB_SHOOTDOWN = 36,
	/* The console's input queue and its dropped count: the input
	 * interrupt fills it on top of whatever the code it interrupts holds
	 * with interrupts on (a brk's brk_lock and tlb_shootdown_lock,
	 * waiting for answers), so it ranks above those; its reader sleeps on
	 * it, handing it to the run queue's so that no wake-up is lost. */
	LOCK_RANK_CONSOLE_INPUT = 38,
	/* The scheduler's run queue: every task's state, wait channel, wake
	 * tick, slice and CPU, and the pick; held across the switch.
	 * Wake-ups come from inside the task table's lock and from
	 * interrupts.  Taken with interrupts off. */
	LOCK_RANK_RUNQUEUE = 40,
	/* An address space's page entries and heap bounds (struct mm, one
	 * lock each): a page fault takes it with interrupts off and
	 * allocates a page. */
	LOCK_RANK_MM_TABLES = 45,
	/* The address spaces' slots and users counts (kernel/mm.c): a leaf.
	 * Taken with interrupts off. */
	LOCK_RANK_MM_SLOTS = 47,
	/* The page allocator's frame bitmap, free count and search hint: a
	 * leaf but for printing.  Taken with interrupts off.  Also the rank
	 * of the locks make bench takes and releases (kernel/bench.c), which
	 * nothing nests. */
	LOCK_RANK_PAGES = 50,
	/* The trace backend's counters - kept with atomic adds instead, since
	 * they count the irq ops the lock operations themselves call; the
	 * rank stays for a lock that counts more than one word at once. */
	LOCK_RANK_TRACE = 60,
	/* The console list and every write to the consoles, one message
	 * whole: innermost, since code holding any lock may print (the
	 * debugger's own reports included, which is why the debugger does
	 * not check this one: printk.c). */
	LOCK_RANK_CONSOLE = 70,
};

#endif
