/*
 * test_lockdep.c - the lock debugger (kernel/lockdep.c) catches each
 * planted misuse of a spinlock, once, by name and caller, without
 * panicking, and says nothing about correct code.
 *
 * Each test turns the debugger on for itself (whatever `lockdebug` said)
 * and off again if it was off, holding no lock either time; the
 * reports it causes are counted (lockdep_reports) and their lines kept
 * (console_capture.h) to check what they name.
 */
#include <ktest.h>
#include <lockdep.h>
#include <string.h>
#include <task.h>
#include <asm/privileged.h>
#include <asm/smp.h>
#include <asm/timer.h>
#include "console_capture.h"
#include "lockdep_watch.h"

/* An outer and an inner lock, in the order lock_order.h gives. */
static DEFINE_SPINLOCK(outer_lock, LOCK_RANK_TASKS);
static DEFINE_SPINLOCK(inner_lock, LOCK_RANK_PAGES);
static DEFINE_SPINLOCK(other_inner_lock, LOCK_RANK_PAGES);

static char line[200];

/* The one report line, and whether it has each of the words; every
 * report line must have come in one printk, or lines of other CPUs may
 * cut it. */
static bool report_names(const char *a, const char *b, const char *c)
{
	if (!captured_line("lockdep: ", line, sizeof(line)))
		return false;
	if (!captured_lines_whole("lockdep: ")) {
		printk("ktest:   a lockdep report came in pieces\n");
		return false;
	}
	return strstr(line, a) && strstr(line, b) && (!c || strstr(line, c));
}

/* inner then outer: out of order, reported with both names and the
 * function that took it; the locks still work.  Interrupts are off
 * around the planted pairs: a timer tick arriving while inner_lock (rank
 * 50) is held would take the run queue's lock (rank 40) on top of it, a
 * third report, and a true one (another CPU holding the run queue's lock
 * may want inner_lock next), which the test did not plant. */
KTEST(lockdep_reports_out_of_order)
{
	unsigned long flags;

	lockdep_watch_start();
	flags = raw_local_irq_save();
	spin_lock(&inner_lock);
	spin_lock(&outer_lock);
	spin_unlock(&outer_lock);
	spin_unlock(&inner_lock);
	/* Two of one rank nested: no order between them, so reported too. */
	spin_lock(&inner_lock);
	spin_lock(&other_inner_lock);
	spin_unlock(&other_inner_lock);
	spin_unlock(&inner_lock);
	raw_local_irq_restore(flags);
	lockdep_watch_stop();
	KT_EXPECT_EQ(lockdep_watch_new(LOCKDEP_OUT_OF_ORDER), 2);
	KT_EXPECT_EQ(lockdep_watch_new_total(), 2);
	KT_EXPECT(report_names("lockdep: out of order: cpu 0", "takes outer_lock (rank 30)",
			       "ktest_lockdep_reports_out_of_order+0x"));
	KT_EXPECT(report_names("holding inner_lock (rank 50)", "task ", NULL));
	KT_EXPECT(!spin_is_locked(&inner_lock) && !spin_is_locked(&outer_lock));
	KT_EXPECT_EQ(lockdep_held_count(), 0);
}

/* The same lock twice on one CPU: reported instead of spinning forever,
 * not taken, and its unlock matched without releasing the first take. */
KTEST(lockdep_reports_recursive_take)
{
	lockdep_watch_start();
	spin_lock(&outer_lock);
	spin_lock(&outer_lock);
	KT_EXPECT_EQ(lockdep_held_count(), 2);
	spin_unlock(&outer_lock);
	KT_EXPECT(spin_is_locked(&outer_lock));	/* the outer take holds on */
	spin_unlock(&outer_lock);
	lockdep_watch_stop();
	KT_EXPECT(!spin_is_locked(&outer_lock));
	KT_EXPECT_EQ(lockdep_watch_new(LOCKDEP_RECURSIVE_TAKE), 1);
	KT_EXPECT_EQ(lockdep_watch_new_total(), 1);
	KT_EXPECT(report_names("lockdep: recursive take:", "takes outer_lock",
			       "ktest_lockdep_reports_recursive_take+0x"));
	KT_EXPECT_EQ(lockdep_held_count(), 0);
}

/* Releasing a free lock: reported, and the word left alone (a release
 * would make owner pass next: the next taker would find it free while
 * another holds it). */
KTEST(lockdep_reports_unlock_of_unheld_lock)
{
	u32 word = outer_lock.raw.word;

	lockdep_watch_start();
	spin_unlock(&outer_lock);
	lockdep_watch_stop();
	KT_EXPECT_EQ(outer_lock.raw.word, word);
	KT_EXPECT_EQ(lockdep_watch_new(LOCKDEP_UNHELD_UNLOCK), 1);
	KT_EXPECT_EQ(lockdep_watch_new_total(), 1);
	KT_EXPECT(report_names("lockdep: unheld unlock:", "releases outer_lock",
			       "ktest_lockdep_reports_unlock_of_unheld_lock+0x"));
}

/* A yield and a sleep with a lock held: one report for the lock. */
KTEST(lockdep_reports_lock_held_across_sleep)
{
	lockdep_watch_start();
	spin_lock(&outer_lock);
	sched_yield();
	sched_sleep_ticks(1);
	spin_unlock(&outer_lock);
	lockdep_watch_stop();
	KT_EXPECT_EQ(lockdep_watch_new(LOCKDEP_HELD_ACROSS_SLEEP), 1);
	KT_EXPECT_EQ(lockdep_watch_new_total(), 1);
	KT_EXPECT(report_names("lockdep: held across sleep:", "schedules holding outer_lock",
			       "ktest_lockdep_reports_lock_held_across_sleep+0x"));
	KT_EXPECT(!spin_is_locked(&outer_lock));
}

/* Held past the limit (interrupts on, no sleep): reported once.  The
 * inner pair with interrupts off, as in lockdep_reports_out_of_order:
 * a tick while inner_lock is held takes the run queue's lock on top. */
KTEST(lockdep_reports_lock_held_too_long)
{
	unsigned long start, flags;

	lockdep_watch_start();
	spin_lock(&outer_lock);
	start = timer_ticks();
	while (timer_ticks() - start <= LOCKDEP_HELD_LIMIT + 1)
		cpu_relax();
	flags = raw_local_irq_save();
	spin_lock(&inner_lock);			/* the debugger looks here */
	spin_unlock(&inner_lock);
	raw_local_irq_restore(flags);
	spin_unlock(&outer_lock);
	lockdep_watch_stop();
	KT_EXPECT_EQ(lockdep_watch_new(LOCKDEP_HELD_TOO_LONG), 1);
	KT_EXPECT_EQ(lockdep_watch_new_total(), 1);
	KT_EXPECT(report_names("lockdep: held too long:", "outer_lock (rank 30) taken at",
			       "ktest_lockdep_reports_lock_held_too_long+0x"));
}

/* A task that ends holding a lock never releases it. */
static volatile bool forgetter_done;

static void forgetful_thread(void)
{
	spin_lock(&outer_lock);
	forgetter_done = true;
}

KTEST(lockdep_reports_lock_never_released)
{
	unsigned long deadline = timer_ticks() + timer_hz();

	lockdep_watch_start();
	forgetter_done = false;
	task_create_kernel("forgetful", forgetful_thread);
	/* The whole line, not only the count: on another CPU the report is
	 * counted first and printed after. */
	while (!(lockdep_watch_new(LOCKDEP_NEVER_RELEASED) &&
		 report_names("lockdep: never released:", "(forgetful) exits holding outer_lock",
			      "forgetful_thread+0x")) &&
	       (long)(timer_ticks() - deadline) < 0)
		sched_yield();
	lockdep_watch_stop();
	KT_EXPECT(forgetter_done);
	KT_EXPECT_EQ(lockdep_watch_new(LOCKDEP_NEVER_RELEASED), 1);
	KT_EXPECT_EQ(lockdep_watch_new_total(), 1);
	KT_EXPECT(report_names("lockdep: never released:", "(forgetful) exits holding outer_lock",
			       "forgetful_thread+0x"));
	KT_EXPECT(spin_is_locked(&outer_lock));		/* taken for good */
	KT_EXPECT_EQ(lockdep_held_count(), 0);		/* but not by us */
	spin_lock_init(&outer_lock, "outer_lock", LOCK_RANK_TASKS);
}

/*
 * A take the debugger saw, released after it was turned off, and the
 * lock then taken, unseen, by another CPU: this CPU's entry is stale
 * though the lock is held.  With the debugger back, neither side is
 * reported - a yield here is no "held across sleep", the other CPU's
 * release no "unheld unlock" (which would leave the lock taken for
 * good).  Found on -smp 4, where a test turned the debugger on while
 * another CPU's tick had the run queue's lock.  The waits here are busy:
 * the holder must run on another CPU, never on this one's yield.
 */
static volatile int holder_stage;	/* 1 holds, 2 may release, 3 released */
static volatile bool holder_cancelled;

static void unseen_holder_thread(void)
{
	unsigned long deadline = timer_ticks() + timer_hz();

	if (holder_cancelled)
		return;
	spin_lock(&outer_lock);		/* the debugger is off */
	holder_stage = 1;
	while (holder_stage != 2 && (long)(timer_ticks() - deadline) < 0)
		;			/* holding: no sleep */
	spin_unlock(&outer_lock);	/* the debugger is on again */
	holder_stage = 3;
}

/* Busy until holder_stage is stage or the deadline passes. */
static bool holder_reaches(int stage, unsigned long deadline)
{
	while (holder_stage != stage && (long)(timer_ticks() - deadline) < 0)
		;
	return holder_stage == stage;
}

/*
 * The planted sequence; yield_first: this CPU yields (its debugger code
 * runs) while the other CPU holds the lock, else only after the other
 * released it - the release must then not trust the owner the debugger
 * last recorded, this CPU, whose take is long over.
 */
static void plant_take_over(struct ktest_ctx *kt_ctx, bool yield_first)
{
	unsigned long deadline = timer_ticks() + timer_hz() / 2;

	holder_stage = 0;
	holder_cancelled = false;
	lockdep_watch_start();
	spin_lock(&outer_lock);			/* seen */
	lockdep_set(false);
	spin_unlock(&outer_lock);		/* unseen: the entry stays */
	task_create_kernel("unseen", unseen_holder_thread);
	if (!holder_reaches(1, deadline)) {	/* no other CPU ran it */
		holder_cancelled = true;
		lockdep_watch_stop();
		KT_EXPECT_EQ(holder_stage, 1);
		return;
	}
	lockdep_set(true);
	if (yield_first)
		sched_yield();			/* the stale entry must go */
	holder_stage = 2;
	holder_reaches(3, deadline + timer_hz());
	sched_yield();
	lockdep_watch_stop();
	KT_EXPECT_EQ(holder_stage, 3);
	KT_EXPECT_EQ(lockdep_watch_new_total(), 0);
	KT_EXPECT(!spin_is_locked(&outer_lock));
	KT_EXPECT_EQ(lockdep_held_count(), 0);
}

KTEST(lockdep_forgets_a_take_another_cpu_took_over)
{
	if (num_online_cpus() < 2)
		KT_SKIP("one CPU");
	plant_take_over(kt_ctx, true);
}

KTEST(lockdep_lets_another_cpu_release_what_it_took_unseen)
{
	if (num_online_cpus() < 2)
		KT_SKIP("one CPU");
	plant_take_over(kt_ctx, false);
}

/* Correct code - in order, irq-save, tries, out-of-turn releases, sleeps
 * with nothing held, a thread that releases before it ends - says
 * nothing. */
static volatile bool tidy_done;

static void tidy_thread(void)
{
	spin_lock(&outer_lock);
	spin_unlock(&outer_lock);
	tidy_done = true;
}

KTEST(lockdep_quiet_on_correct_code)
{
	unsigned long flags, deadline = timer_ticks() + timer_hz();

	lockdep_watch_start();
	spin_lock(&outer_lock);
	spin_lock_irqsave(&inner_lock, &flags);
	KT_EXPECT(!spin_trylock(&inner_lock));	/* held: a try just fails */
	spin_unlock(&outer_lock);		/* out of turn is allowed */
	spin_unlock_irqrestore(&inner_lock, flags);
	/* Interrupts off while inner_lock (rank 50) is held: a tick would
	 * take the run queue's lock (rank 40) on top of it - a true report
	 * (lock_order.h). */
	flags = raw_local_irq_save();
	KT_EXPECT(spin_trylock(&outer_lock));
	KT_EXPECT(spin_trylock(&inner_lock));
	spin_unlock(&inner_lock);
	spin_unlock(&outer_lock);
	raw_local_irq_restore(flags);
	sched_sleep_ticks(1);
	tidy_done = false;
	task_create_kernel("tidy", tidy_thread);
	while (!tidy_done && (long)(timer_ticks() - deadline) < 0)
		sched_yield();
	sched_sleep_ticks(2);			/* it ends */
	lockdep_watch_stop();
	KT_EXPECT(tidy_done);
	KT_EXPECT_EQ(lockdep_watch_new_total(), 0);
	KT_EXPECT_EQ(captured_lines("lockdep: "), 0);
	KT_EXPECT_EQ(lockdep_held_count(), 0);
	KT_EXPECT(!spin_is_locked(&inner_lock) && !spin_is_locked(&outer_lock));
}
