/*
 * test_locks.c - the kernel's shared state under its locks ("who needs
 * a lock gets one"; docs/smp.md has the table).
 *
 * Two kinds of test.  The first asks each subsystem whether its entry
 * points really take their lock: the test holds the lock itself, with
 * the lock debugger on, and calls in; the debugger reports the entry
 * point's take as a recursive take of that lock (and does not take it,
 * so nothing hangs).  The console's lock, which the debugger does not
 * check, is looked at from inside a console's write instead.  On one CPU this is the only way to see a missing
 * lock at all: kernel code is never preempted and interrupts are off
 * inside every one of these locks, so a lock that is not there changes
 * nothing a task could observe.  The second kind runs the subsystems
 * from several tasks at once, interleaved by yields - pages, task
 * creation and exit, printing - and checks that the totals are exact,
 * no page is handed out twice, every line comes out whole, and the
 * debugger (if booted with `lockdebug`) says nothing: on one CPU a test
 * of the accounting and of the lock order, on several CPUs of the
 * locks themselves.  Last, a lock contended on purpose between two CPUs
 * must call the lock ops of asm/spinlock.h on the CPUs that wait and
 * release (counted per CPU by the slow path, and by trace).
 */
#include <ktest.h>
#include <console.h>
#include <lockdep.h>
#include <page_alloc.h>
#include <string.h>
#include <task.h>
#include <asm/paging.h>
#include <asm/smp.h>
#include <asm/spinlock.h>
#include <asm/timer.h>
#include "console_capture.h"
#include "lockdep_watch.h"
#ifdef CONFIG_PARAVIRT
#include <asm/paravirt.h>
#include "pv_switch_check.h"
#endif

#define STORM_TASKS	4

static char line[200];

/* ---- does each entry point take its lock? ---- */

/* Whether the nth recursive-take report names lock and the function
 * that took it again. */
static bool recursive_take_of(unsigned int nth, const char *lock, const char *caller)
{
	if (!captured_nth_line("lockdep: recursive take:", nth, line, sizeof(line)))
		return false;
	return strstr(line, lock) && strstr(line, caller);
}

/* A page allocated and freed while the test holds page_lock: both take
 * it. */
KTEST(locks_probe_page_allocator_takes_page_lock)
{
	unsigned long flags, free_before = pages_free_count();
	u32 page;

	lockdep_watch_start();
	spin_lock_irqsave_call(&page_lock, &flags);
	page = pages_alloc(1);
	if (page)
		pages_free(page, 1);
	spin_unlock_irqrestore_call(&page_lock, flags);
	lockdep_watch_stop();
	KT_EXPECT(page != 0);
	KT_EXPECT_EQ(pages_free_count(), free_before);
	KT_EXPECT_EQ(lockdep_watch_new(LOCKDEP_RECURSIVE_TAKE), 2);
	KT_EXPECT_EQ(lockdep_watch_new_total(), 2);
	KT_EXPECT(recursive_take_of(0, "takes page_lock", "pages_alloc+0x"));
	KT_EXPECT(recursive_take_of(1, "takes page_lock", "pages_free+0x"));
}

/* The table's users - collecting a child, a kill, the orphans' reaper -
 * take task_lock. */
KTEST(locks_probe_task_table_takes_task_lock)
{
	unsigned long flags;
	int status;

	lockdep_watch_start();
	spin_lock_irqsave_call(&task_lock, &flags);
	(void)task_reap(&status);	/* a child of an earlier test, or none */
	KT_EXPECT_EQ(task_kill_pid(1), -EPERM);		/* the boot thread */
	task_reap_orphans();
	spin_unlock_irqrestore_call(&task_lock, flags);
	lockdep_watch_stop();
	KT_EXPECT_EQ(lockdep_watch_new(LOCKDEP_RECURSIVE_TAKE), 3);
	KT_EXPECT_EQ(lockdep_watch_new_total(), 3);
	KT_EXPECT(recursive_take_of(0, "takes task_lock", "task_reap+0x"));
	KT_EXPECT(recursive_take_of(1, "takes task_lock", "task_kill_pid+0x"));
	KT_EXPECT(recursive_take_of(2, "takes task_lock", "task_reap_orphans+0x"));
}

/* A wake-up takes runqueue_lock, and so does the tick where it is the
 * PIT's alone (one CPU); a CPU's own tick takes none (sched.c: its
 * demand would grow with the CPUs; test_sched_tick.c counts them).
 * Interrupts off meanwhile: the real tick must not come in and be
 * reported too. */
KTEST(locks_probe_scheduler_takes_runqueue_lock)
{
	static int nobody_sleeps_here;
	bool tick_takes = !timer_sched_tick_local();
	unsigned long flags;

	lockdep_watch_start();
	spin_lock_irqsave_call(&runqueue_lock, &flags);
	sched_wake_up(&nobody_sleeps_here);
	sched_tick();
	spin_unlock_irqrestore_call(&runqueue_lock, flags);
	lockdep_watch_stop();
	KT_EXPECT_EQ(lockdep_watch_new(LOCKDEP_RECURSIVE_TAKE), 1 + tick_takes);
	KT_EXPECT_EQ(lockdep_watch_new_total(), 1 + tick_takes);
	KT_EXPECT(recursive_take_of(0, "takes runqueue_lock", "sched_wake_up+0x"));
	if (tick_takes)
		KT_EXPECT(recursive_take_of(1, "takes runqueue_lock", "sched_tick+0x"));
}

/* Every console write happens under console_lock: a console of the
 * test's own looks at the lock from inside its write.  (printk takes
 * that lock unchecked - the debugger prints through it - so no report
 * can show it: printk.c.) */
static unsigned int writes_seen, writes_unlocked;

/* Every write counts for the lock; only the test's own lines count as
 * seen: another CPU may print meanwhile (a task killed there). */
static void probe_console_write(const char *s, size_t n)
{
	if (n >= 7 && !memcmp(s, "locks: ", 7))
		writes_seen++;
	if (!spin_is_locked(&console_lock))
		writes_unlocked++;
}

static struct console probe_console = { .name = "probe", .write = probe_console_write };

KTEST(locks_consoles_written_under_console_lock)
{
	writes_seen = writes_unlocked = 0;
	register_console(&probe_console);
	printk("locks: a line for the probe console\n");
	printk("locks: and another\n");
	unregister_console(&probe_console);
	printk("locks: one it does not see\n");
	KT_EXPECT_EQ(writes_seen, 2);
	KT_EXPECT_EQ(writes_unlocked, 0);
	KT_EXPECT(!spin_is_locked(&console_lock));
}

/* ---- several tasks at once ---- */

static unsigned int storm_started, storm_done;
/* The storm tasks wait for this before their first page: with other
 * CPUs, they would otherwise run while the test still counts. */
static volatile bool storm_go;
static unsigned long lockdep_total_before;
/* The storm tasks' own counts (ranked below the run queue's lock: held
 * with interrupts on, the timer's tick may take that on top). */
static DEFINE_SPINLOCK(storm_lock, LOCK_RANK_TASKS);

/* The count before this one was added: a number of one's own, on any
 * number of CPUs (a 386 has no xadd for an atomic fetch-and-add). */
static unsigned int count_one(unsigned int *counter)
{
	unsigned int n;

	spin_lock(&storm_lock);
	n = (*counter)++;
	spin_unlock(&storm_lock);
	return n;
}

static void storm_begin(void)
{
	storm_go = false;
	storm_started = storm_done = 0;
	lockdep_total_before = lockdep_reports_total();
}

/* Wait (sleeping, so that the idle task runs and reaps) until every
 * storm task is done or seconds have passed. */
static void storm_wait(unsigned int seconds)
{
	unsigned long deadline = timer_ticks() + seconds * timer_hz();

	while (storm_done < STORM_TASKS && (long)(timer_ticks() - deadline) < 0)
		sched_sleep_ticks(1);
}

/*
 * Pages: each task takes runs of 1 to 3 pages, writes its mark in every
 * word's first, yields, and checks the marks before it frees them; a
 * page handed to two tasks at once shows another's mark.  The free count
 * must be back where it was.
 */
#define PAGE_ROUNDS	200

static unsigned int page_clashes, page_failures;

static void page_storm_thread(void)
{
	u32 me = 0x50a60000u + count_one(&storm_started);
	unsigned int round, i;

	while (!storm_go)
		sched_yield();

	for (round = 0; round < PAGE_ROUNDS; round++) {
		unsigned int n = 1 + round % 3;
		u32 run = pages_alloc(n);
		u32 *word;

		if (!run) {
			count_one(&page_failures);
			continue;
		}
		for (i = 0; i < n; i++)
			*(u32 *)(run + i * PAGE_SIZE) = me;
		sched_yield();
		for (i = 0; i < n; i++) {
			word = (u32 *)(run + i * PAGE_SIZE);
			if (*word != me)
				count_one(&page_clashes);
		}
		pages_free(run, n);
	}
	count_one(&storm_done);
}

KTEST(locks_page_allocator_exact_under_four_tasks)
{
	unsigned long free_before;
	unsigned int i;

	storm_begin();
	page_clashes = page_failures = 0;
	/* The tasks' own stacks come out of the count and go back when the
	 * idle task reaps them: create them first, count after. */
	for (i = 0; i < STORM_TASKS; i++)
		task_create_kernel("pagestorm", page_storm_thread);
	free_before = pages_free_count();
	storm_go = true;
	storm_wait(10);
	KT_EXPECT_EQ(storm_done, STORM_TASKS);
	KT_EXPECT_EQ(page_clashes, 0);
	KT_EXPECT_EQ(page_failures, 0);
	/* Their stacks are freed once reaped: wait for it, then compare with
	 * what was free before they were made. */
	sched_sleep_ticks(2);
	KT_EXPECT_EQ(pages_free_count(), free_before + STORM_TASKS * KSTACK_PAGES);
	KT_EXPECT_EQ(lockdep_reports_total(), lockdep_total_before);
}

/*
 * Tasks: each of four spawners creates STORM_CHILDREN kernel threads
 * that count themselves and exit at once (orphans, reaped by the idle
 * task); a full table is waited out.  Every child must have run exactly
 * once, with a pid of its own, and every slot must be free again.
 */
#define STORM_CHILDREN	25

static unsigned int children_ran, children_refused;
static int child_pids[STORM_TASKS * STORM_CHILDREN];

static void storm_child(void)
{
	unsigned int n = count_one(&children_ran);

	if (n < ARRAY_SIZE(child_pids))
		child_pids[n] = current->pid;
}

static void spawner_thread(void)
{
	unsigned int made = 0;
	int err;

	count_one(&storm_started);
	while (made < STORM_CHILDREN) {
		if (task_try_create_kernel("child", storm_child, &err)) {
			made++;
		} else {
			count_one(&children_refused);
			sched_sleep_ticks(1);	/* a full table: let the idle task reap */
		}
		if (made % 4 == 0)
			sched_yield();
	}
	count_one(&storm_done);
}

static bool pids_unique(unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (child_pids[i] == child_pids[j])
				return false;
	return true;
}

KTEST(locks_task_create_exit_storm_totals)
{
	unsigned int slots_before = task_slots_free(), i;
	unsigned long deadline;

	storm_begin();
	children_ran = children_refused = 0;
	memset(child_pids, 0, sizeof(child_pids));
	for (i = 0; i < STORM_TASKS; i++)
		task_create_kernel("spawner", spawner_thread);
	storm_wait(10);
	deadline = timer_ticks() + timer_hz();
	while ((children_ran < STORM_TASKS * STORM_CHILDREN ||
		task_slots_free() != slots_before) &&
	       (long)(timer_ticks() - deadline) < 0)
		sched_sleep_ticks(1);
	KT_EXPECT_EQ(storm_done, STORM_TASKS);
	KT_EXPECT_EQ(children_ran, STORM_TASKS * STORM_CHILDREN);
	KT_EXPECT(pids_unique(STORM_TASKS * STORM_CHILDREN));
	KT_EXPECT_EQ(task_slots_free(), slots_before);
	KT_EXPECT_EQ(lockdep_reports_total(), lockdep_total_before);
}

/*
 * Printing: each task prints PRINT_LINES lines of its own, in two printk
 * calls' worth of length, yielding between lines.  Every kept line must
 * be one task's whole line: its fill has the task's own letter from end
 * to end.
 */
#define PRINT_LINES	30
#define PRINT_FILL	60

static void printer_thread(void)
{
	unsigned int me = count_one(&storm_started);
	char fill[PRINT_FILL + 1];
	unsigned int n;

	memset(fill, 'a' + me, PRINT_FILL);
	fill[PRINT_FILL] = '\0';
	for (n = 0; n < PRINT_LINES; n++) {
		printk("locks: printer %u line %02u %s %c\n", me, n, fill, 'a' + me);
		sched_yield();
	}
	count_one(&storm_done);
}

/* Whether a kept printer line is whole: "locks: printer M line NN ",
 * then PRINT_FILL copies of M's letter, a space, the letter, its end. */
static bool printer_line_whole(const char *s)
{
	unsigned int me, i;
	char letter;

	if (strncmp(s, "locks: printer ", 15) || s[15] < '0' || s[15] > '9')
		return false;
	me = s[15] - '0';
	letter = 'a' + me;
	s += 16;
	if (strncmp(s, " line ", 6))
		return false;
	s += 6 + 2 + 1;			/* NN and a space */
	for (i = 0; i < PRINT_FILL; i++)
		if (s[i] != letter)
			return false;
	return s[PRINT_FILL] == ' ' && s[PRINT_FILL + 1] == letter &&
	       s[PRINT_FILL + 2] == '\0';
}

KTEST(locks_printk_lines_whole_between_tasks)
{
	unsigned int i, whole = 0, kept;

	storm_begin();
	capture_start();
	for (i = 0; i < STORM_TASKS; i++)
		task_create_kernel("printer", printer_thread);
	storm_wait(10);
	capture_stop();
	KT_EXPECT_EQ(storm_done, STORM_TASKS);
	KT_EXPECT(!capture_overflowed());
	kept = captured_lines("locks: printer ");
	for (i = 0; i < kept; i++)
		if (captured_nth_line("locks: printer ", i, line, sizeof(line)) &&
		    printer_line_whole(line))
			whole++;
	KT_EXPECT_EQ(kept, STORM_TASKS * PRINT_LINES);
	KT_EXPECT_EQ(whole, STORM_TASKS * PRINT_LINES);
	KT_EXPECT_EQ(lockdep_reports_total(), lockdep_total_before);
}

/* ---- the lock ops (asm/spinlock.h): a contended lock on two CPUs ---- */

/*
 * The test (CPU 0, the boot thread's) holds slow_lock; a kernel thread on
 * another CPU asks for it and waits in the slow path; the test lets go,
 * the thread is served and holds the lock a while; the test asks again,
 * waits behind it long enough to call spin_wait, and asks about the CPU
 * ahead of it (the thread's: vcpu_is_preempted); the thread's release
 * serves the test's ticket and kicks its CPU.  Held with interrupts on,
 * so ranked below the run queue's lock (the ticks go on meanwhile), and
 * for much less than the debugger's "held too long".  Under trace (the
 * test switches to it where it can) each of those ops is counted on the
 * CPU that made the call.
 */
#define SLOW_HOLD_TICKS	3	/* how long the thread holds it (30 ms at HZ 100) */
/* A step's bound: long, since a loaded host may hold a CPU's thread
 * still for seconds, and the thread must not let go early. */
#define SLOW_WAIT_SECONDS	20

static DEFINE_SPINLOCK(slow_lock, LOCK_RANK_TASKS);
static volatile int slow_helper_cpu;
static volatile bool slow_helper_holds, slow_helper_done;

/* Tickets drawn and not yet served, the holder's included. */
static unsigned int slow_lock_queue(void)
{
	return (u16)(slow_lock.raw.next - slow_lock.raw.owner);
}

/* Busy (never idle, so the thread must run on another CPU) until cond
 * holds or the wait ends; whether it held. */
#define SLOW_UNTIL(cond) ({						\
	unsigned long end__ = timer_ticks() + SLOW_WAIT_SECONDS * timer_hz(); \
	while (!(cond) && (long)(timer_ticks() - end__) < 0)		\
		cpu_relax();						\
	(bool)(cond); })

static void slow_helper_thread(void)
{
	unsigned long until;

	spin_lock(&slow_lock);		/* held by the test: the slow path */
	slow_helper_cpu = smp_processor_id();
	slow_helper_holds = true;
	SLOW_UNTIL(slow_lock_queue() == 2);	/* the test waits behind it */
	until = timer_ticks() + SLOW_HOLD_TICKS;
	while ((long)(timer_ticks() - until) < 0)
		cpu_relax();
	spin_unlock(&slow_lock);	/* serves the test, kicks its CPU */
	slow_helper_done = true;
}

/* The counts the test compares, for one CPU. */
struct slow_counts {
	u32 contended, long_waits;
	u32 slowpath, unlock, wait, kick, preempted;	/* trace's */
};

static void slow_read(unsigned int cpu, struct slow_counts *c)
{
	c->contended = spin_contended_count(cpu);
	c->long_waits = spin_long_wait_count(cpu);
#ifdef CONFIG_PARAVIRT
	c->slowpath = paravirt_trace_cpu_calls(cpu, PARAVIRT_SLOT(spin_lock_slowpath));
	c->unlock = paravirt_trace_cpu_calls(cpu, PARAVIRT_SLOT(spin_unlock));
	c->wait = paravirt_trace_cpu_calls(cpu, PARAVIRT_SLOT(spin_wait));
	c->kick = paravirt_trace_cpu_calls(cpu, PARAVIRT_SLOT(spin_kick));
	c->preempted = paravirt_trace_cpu_calls(cpu, PARAVIRT_SLOT(vcpu_is_preempted));
#endif
}

/* Under trace where a test may switch (not in a guest: one CPU anyway),
 * so that the ops are counted; the backend it was, to switch back to. */
static const char *slow_trace_on(bool *traced)
{
#ifdef CONFIG_PARAVIRT
	const char *boot = paravirt_ops.name;

	*traced = !strcmp(boot, "trace") || switch_to("trace");
	return boot;
#else
	*traced = false;
	return NULL;
#endif
}

KTEST(locks_contended_lock_calls_the_lock_ops_on_each_cpu)
{
	struct slow_counts me0, me1, other0, other1;
	unsigned int me = smp_processor_id();
	const char *boot;
	bool traced;
	int other;

	if (num_online_cpus() < 2)
		KT_SKIP("one CPU: no lock is ever found held");
	boot = slow_trace_on(&traced);
	(void)boot;	/* PARAVIRT=n: no backend to go back to */
	slow_helper_holds = slow_helper_done = false;
	slow_helper_cpu = -1;
	slow_read(me, &me0);

	spin_lock(&slow_lock);
	task_create_kernel("lockslow", slow_helper_thread);
	KT_EXPECT(SLOW_UNTIL(slow_lock_queue() == 2));	/* it drew its ticket */
	spin_unlock(&slow_lock);
	KT_EXPECT(SLOW_UNTIL(slow_helper_holds));
	other = slow_helper_cpu;
	KT_EXPECT(other >= 0 && other != (int)me);
	if (other < 0 || other == (int)me)
		return;
	slow_read(other, &other0);	/* after its slow path: see below */
	spin_lock(&slow_lock);		/* behind the thread, which holds it */
	spin_unlock(&slow_lock);
	KT_EXPECT(SLOW_UNTIL(slow_helper_done));
	slow_read(me, &me1);
	slow_read(other, &other1);

	/* This CPU: found it held, waited long, asked about the thread's. */
	KT_EXPECT(me1.contended - me0.contended >= 1);
	KT_EXPECT(me1.long_waits - me0.long_waits >= 1);
	/* The thread's CPU took the slow path before it held the lock. */
	KT_EXPECT(spin_contended_count(other) >= 1);
	if (traced) {
		KT_EXPECT(me1.slowpath - me0.slowpath >= 1);
		KT_EXPECT(me1.wait - me0.wait >= 1);
		KT_EXPECT(me1.preempted - me0.preempted >= 1);
		KT_EXPECT(me1.unlock - me0.unlock >= 2);
		/* Its release served this CPU's ticket: it kicked, there. */
		KT_EXPECT(other1.kick - other0.kick >= 1);
		KT_EXPECT(other1.unlock - other0.unlock >= 1);
	}
#ifdef CONFIG_PARAVIRT
	if (traced && strcmp(boot, "trace"))
		KT_EXPECT(switch_to(boot));
#endif
}
