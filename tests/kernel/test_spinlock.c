/*
 * test_spinlock.c - the ticket spinlock (include/spinlock.h,
 * include/asm/spinlock.h) on today's one CPU: take, release and try; the
 * irq-save forms; the ticket counters across their wrap; and a torture
 * of kernel tasks sharing data under a lock.
 *
 * Every test runs with the lock debugger on or off as booted
 * (`lockdebug`), and on the 386 path too when booted with cpu=386
 * (no xadd/cmpxchg: asm/spinlock.h draws tickets with interrupts off).
 */
#include <ktest.h>
#include <spinlock.h>
#include <task.h>
#include <asm/cpu.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/timer.h>

static bool irqs_on(void)
{
	return raw_local_save_flags() & X86_EFLAGS_IF;
}

/* Tickets drawn and tickets served, as the lock word shows them. */
#define OWNER(l)	((l)->raw.owner)
#define NEXT(l)		((l)->raw.next)

/* Take, release, try: the word counts one ticket per take, and a held
 * lock refuses a try without drawing a ticket. */
KTEST(spinlock_take_release_try)
{
	DEFINE_SPINLOCK(lock, LOCK_RANK_PAGES);

	KT_EXPECT(!spin_is_locked(&lock));
	spin_lock(&lock);
	KT_EXPECT(spin_is_locked(&lock));
	KT_EXPECT_EQ(NEXT(&lock), 1);
	KT_EXPECT_EQ(OWNER(&lock), 0);
	KT_EXPECT(!spin_trylock(&lock));
	KT_EXPECT_EQ(NEXT(&lock), 1);		/* a failed try draws nothing */
	spin_unlock(&lock);
	KT_EXPECT(!spin_is_locked(&lock));
	KT_EXPECT_EQ(OWNER(&lock), 1);
	KT_EXPECT(spin_trylock(&lock));
	KT_EXPECT(spin_is_locked(&lock));
	spin_unlock(&lock);
	KT_EXPECT(!spin_is_locked(&lock));
	KT_EXPECT_EQ(OWNER(&lock), 2);
	KT_EXPECT_EQ(NEXT(&lock), 2);
}

/* The 16-bit counters wrap on their own: drawing ticket 0xffff must not
 * carry into owner, serving it must not carry into next. */
KTEST(spinlock_tickets_wrap)
{
	DEFINE_SPINLOCK(lock, LOCK_RANK_PAGES);

	lock.raw.word = 0xffffffffu;		/* owner = next = 0xffff: free */
	KT_EXPECT(!spin_is_locked(&lock));
	spin_lock(&lock);
	KT_EXPECT_EQ(lock.raw.word, 0x0000ffffu);
	spin_unlock(&lock);
	KT_EXPECT_EQ(lock.raw.word, 0u);
	KT_EXPECT(spin_trylock(&lock));
	KT_EXPECT_EQ(lock.raw.word, 0x00010000u);
	spin_unlock(&lock);
	KT_EXPECT_EQ(lock.raw.word, 0x00010001u);
}

/* spin_lock_irqsave turns interrupts off and spin_unlock_irqrestore puts
 * back what was there before: on stays on, off stays off. */
KTEST(spinlock_irqsave_restores_if)
{
	DEFINE_SPINLOCK(lock, LOCK_RANK_PAGES);
	unsigned long outer = raw_local_irq_save(), flags;
	bool before;

	for (before = false; ; before = true) {
		if (before)
			raw_local_irq_enable();
		else
			raw_local_irq_disable();
		spin_lock_irqsave(&lock, &flags);
		KT_EXPECT(!irqs_on());
		KT_EXPECT(spin_is_locked(&lock));
		spin_unlock_irqrestore(&lock, flags);
		KT_EXPECT_EQ(irqs_on(), before);
		KT_EXPECT(!spin_is_locked(&lock));
		if (before)
			break;
	}
	raw_local_irq_restore(outer);
}

/*
 * The torture: TORTURE_TASKS kernel tasks each add TORTURE_ROUNDS times
 * to shared data under one lock, half with the irq-save forms.  Inside
 * the critical section a task reads, spins (interrupts arrive there)
 * and writes back, and never yields; outside it yields now and then, so
 * the tasks interleave.  Totals must be exact, no task may find another
 * inside, and the lock word must show one ticket drawn and served per
 * take.
 */
#define TORTURE_TASKS	4
#define TORTURE_ROUNDS	500

/* Ranked below the run queue's lock: half the tasks hold it with
 * interrupts on, and the timer's tick takes the run queue's lock on top
 * of it (a lock above it, held with interrupts on, would be out of order
 * there, and `lockdebug` would rightly say so). */
static DEFINE_SPINLOCK(torture_lock, LOCK_RANK_TASKS);
static struct {
	unsigned long sum;
	unsigned long sum_of_squares;
	unsigned long takes;
	int inside;		/* tasks inside the critical section: 0 or 1 */
	unsigned int overlaps;	/* times a task found another inside */
} torture;
static unsigned int torture_started, torture_done;

/* One locked update: read, dawdle, write back. */
static void torture_update(unsigned long n)
{
	unsigned long sum;
	volatile unsigned int spin;

	if (torture.inside++)
		torture.overlaps++;
	sum = torture.sum;
	for (spin = 0; spin < 50; spin++)
		;
	torture.sum = sum + n;
	torture.sum_of_squares += n * n;
	torture.takes++;
	torture.inside--;
}

static void torture_thread(void)
{
	unsigned int me = torture_started++;
	unsigned long flags, n;

	for (n = 1; n <= TORTURE_ROUNDS; n++) {
		if (me & 1) {
			spin_lock_irqsave(&torture_lock, &flags);
			torture_update(n);
			spin_unlock_irqrestore(&torture_lock, flags);
		} else {
			spin_lock(&torture_lock);
			torture_update(n);
			spin_unlock(&torture_lock);
		}
		if (n % (3 + me) == 0)
			sched_yield();
	}
	torture_done++;
}

KTEST(spinlock_torture_totals_exact)
{
	const unsigned long n = TORTURE_ROUNDS;
	unsigned long deadline;
	unsigned int i;

	torture_started = torture_done = 0;
	torture.sum = torture.sum_of_squares = torture.takes = 0;
	torture.inside = 0;
	torture.overlaps = 0;
	spin_lock_init(&torture_lock, "torture_lock", LOCK_RANK_TASKS);
	for (i = 0; i < TORTURE_TASKS; i++)
		task_create_kernel("torture", torture_thread);
	deadline = timer_ticks() + 10 * timer_hz();
	while (torture_done < TORTURE_TASKS && (long)(timer_ticks() - deadline) < 0)
		sched_yield();
	KT_EXPECT_EQ(torture_done, TORTURE_TASKS);
	KT_EXPECT_EQ(torture.overlaps, 0);
	KT_EXPECT_EQ(torture.takes, TORTURE_TASKS * n);
	KT_EXPECT_EQ(torture.sum, TORTURE_TASKS * n * (n + 1) / 2);
	KT_EXPECT_EQ(torture.sum_of_squares, TORTURE_TASKS * n * (n + 1) * (2 * n + 1) / 6);
	KT_EXPECT_EQ(OWNER(&torture_lock), TORTURE_TASKS * n);
	KT_EXPECT_EQ(NEXT(&torture_lock), TORTURE_TASKS * n);
}
