/*
 * sched.c - which task runs: preemptive round robin over one run queue
 * shared by every CPU.
 *
 * Every runnable task gets SLICE_TICKS timer ticks in turn.  The timer
 * interrupt counts them down (sched_tick) and asks for a reschedule; the
 * switch itself happens on the way back to user mode
 * (exit_to_user_mode, arch/x86/entry/common.c), never in the middle of
 * kernel code: a task in the kernel runs until it returns to user mode,
 * sleeps or yields.  Each CPU has its own tick and its own idle task,
 * which waits for an interrupt in safe_halt when nothing is runnable for
 * that CPU.  Any CPU runs any task (but the boot thread, kept on CPU 0);
 * a task made runnable while another CPU idles, or asked to die while it
 * runs on another CPU, is brought to that CPU's attention by a
 * reschedule IPI (kick_an_idle_cpu, sched_wake_task).
 *
 * Sleeping is on a channel (any address: a parent waits on itself for
 * its children) or until a tick.
 *
 * The lock, xv6-style: runqueue_lock (rank LOCK_RANK_RUNQUEUE) protects
 * every task's state, wait channel, wake tick and on_cpu, and the pick
 * (a running task's slice is its CPU's own: sched_tick_local).  It is
 * taken with interrupts off (the timer's tick and device
 * interrupts wake tasks).  schedule() takes it and keeps it across the
 * context switch: the task switched to releases it - in schedule(),
 * where it resumes, or in sched_first_switch() when it starts - with its
 * own saved interrupt state.  So no other CPU looks at the run queue
 * while a switch is half done, and a task that changed its state to
 * sleeping or zombie is off its stack before any CPU can pick it again
 * or free that stack (task.c's reapers take the lock first).  It is the
 * one lock held across a switch; the lock debugger knows it.  Only
 * schedule() takes it inline; the rarer paths take it through the
 * out-of-line irq-save forms (spinlock.h says why).
 */
#include <kernel.h>
#include <lockdep.h>
#include <spinlock.h>
#include <task.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/process.h>
#include <asm/smp.h>
#include <asm/stop_cpus.h>
#include <asm/timer.h>

#define SLICE_TICKS	2

DEFINE_SPINLOCK(runqueue_lock, LOCK_RANK_RUNQUEUE);	/* task.h */

/* ---- this CPU's idle task and need_resched (its per-CPU area) ---- */

static struct task *this_idle_task(void)
{
	return this_cpu_read(idle_task);
}

/* Whether t is an idle task, of this CPU or another: the pick never
 * takes one but its own CPU's, when nothing else is runnable.  Every
 * CPU's idle task has pid 0, as Linux's swapper/N do. */
static bool is_idle_task(const struct task *t)
{
	return t->pid == 0;
}

static void set_need_resched(void)
{
	this_cpu_write(need_resched, true);
}

static void clear_need_resched(void)
{
	this_cpu_write(need_resched, false);
}

/*
 * A task became runnable: if another CPU idles, wake one of them (a
 * reschedule IPI), or the task waits for that CPU's next tick.  One CPU
 * per task: one already asked (need_resched set) is passed over, so a
 * wake-up of several tasks spreads them.  Under runqueue_lock, which
 * makes `current` of the other CPUs stand still.
 */
static bool kick_if_idle(unsigned int cpu)
{
	struct percpu *pc = per_cpu(cpu);

	if (!cpu_online(cpu) || pc->need_resched || pc->current_task != pc->idle_task)
		return false;
	pc->need_resched = true;
	smp_send_reschedule(cpu);	/* none to itself: it sees the flag */
	return true;
}

/* This CPU first (an interrupt that woke t here returns to its idle
 * loop), then the others; a task bound to one CPU only that one. */
static void kick_an_idle_cpu(const struct task *t)
{
	unsigned int cpu, me = smp_processor_id();

	if (t->bound) {
		kick_if_idle(t->cpu);
		return;
	}
	if (kick_if_idle(me))
		return;
	for_each_possible_cpu(cpu)
		if (cpu != me && kick_if_idle(cpu))
			return;
}

static void make_runnable(struct task *t)
{
	t->state = TASK_RUNNABLE;
	if (num_online_cpus() > 1)
		kick_an_idle_cpu(t);
}

bool sched_need_resched(void)
{
	return this_cpu_read(need_resched);
}

/* ---- the pick and the switch (runqueue_lock held) ---- */

static unsigned long migrations;	/* tasks picked up by another CPU */

unsigned long sched_migrations(void)
{
	return migrations;
}

/*
 * The next runnable task after me (the current one) in table order,
 * wrapping around to itself; this CPU's idle task when there is none.
 * A task that runs on another CPU (on_cpu) is runnable too, and skipped:
 * a task never runs on two CPUs at once.  The caller hands current in:
 * each read of it is a load through %fs the compiler may not merge with
 * another (make bench counts the difference).
 */
static struct task *pick_next(struct task *me)
{
	unsigned int cpu = smp_processor_id();
	struct task *t = me;

	do {
		t = task_after(t);
		if (t->state == TASK_RUNNABLE && !is_idle_task(t) &&
		    (!t->on_cpu || t == me) && (!t->bound || t->cpu == cpu))
			return t;
	} while (t != me);
	return this_idle_task();
}

/*
 * Give the CPU to the next task in turn (perhaps the current one), with
 * runqueue_lock held and interrupts off; it is held still when this
 * returns, in the same task, later, perhaps on another CPU.
 *
 * on_cpu moves from prev to next before the switch, under the lock, and
 * the lock is held until the switch is complete, so another CPU that
 * sees prev->on_cpu clear (it can only look under the lock) finds prev's
 * stack no longer in use: xv6's way (ptable.lock across swtch), not
 * Linux's (on_cpu cleared after the switch by the next task, and waited
 * for by whoever wants to run prev).
 */
static void switch_locked(void)
{
	struct task *prev = current, *next;

	lockdep_schedule(&runqueue_lock);	/* no other spinlock across a switch */
	next = pick_next(prev);
	clear_need_resched();
	if (next == prev)
		return;
	next->slice = SLICE_TICKS;
	next->switches++;
	/* prev is still runnable (its slice ended): an idle CPU may take it
	 * now rather than at its own next tick. */
	if (prev->state == TASK_RUNNABLE && !is_idle_task(prev) && num_online_cpus() > 1)
		kick_an_idle_cpu(prev);
	next->on_cpu = true;
	if (next->cpu != smp_processor_id()) {
		next->cpu = smp_processor_id();
		migrations++;
	}
	prev->on_cpu = false;
	arch_switch_to(prev, next);	/* current = next; returns when prev
					   runs again, the lock handed back */
}

/* Give the CPU to the next task in turn (perhaps the current one). */
void schedule(void)
{
	unsigned long flags;

	stop_cpus_safe_point();		/* a live patch may be waiting for us */

	spin_lock_irqsave(&runqueue_lock, &flags);
	switch_locked();
	spin_unlock_irqrestore(&runqueue_lock, flags);
	/* Again on the way out: a stop's IPI that came after the check
	 * above had its need_resched cleared by this very switch, and an
	 * idle CPU, whose tick no longer asks for a reschedule, would
	 * never look again.  Still in schedule(): as safe a point. */
	stop_cpus_safe_point();
}

/* Where a new task starts (arch/x86/kernel/process.c makes its first
 * switch return here, interrupts still off): it releases the lock that
 * the task switched from took.  Its interrupts come on afterwards, in
 * kernel_thread_start or with the iret to user mode. */
void sched_first_switch(void)
{
	spin_unlock(&runqueue_lock);
}

void sched_yield(void)
{
	schedule();
}

/* A new task is ready: the other CPUs may pick it from now on. */
void sched_start_task(struct task *t)
{
	unsigned long flags;

	spin_lock_irqsave_call(&runqueue_lock, &flags);
	make_runnable(t);
	spin_unlock_irqrestore_call(&runqueue_lock, flags);
}

/* A task that ended is off its stack once this returns: ended means
 * made a zombie under the lock, which its switch away held until the
 * switch was complete.  Then its slot is free: task.c's task_free. */
void sched_release_task(struct task *t)
{
	unsigned long flags;

	spin_lock_irqsave_call(&runqueue_lock, &flags);
	t->on_cpu = false;	/* not yet started, or switched away from */
	t->state = TASK_UNUSED;
	spin_unlock_irqrestore_call(&runqueue_lock, flags);
}

/* ---- sleeping and waking ---- */

static void *waking_channel;	/* under runqueue_lock */

static void wake_if_waiting(struct task *t)
{
	if (t->state == TASK_SLEEPING && t->wait_channel &&
	    t->wait_channel == waking_channel)
		make_runnable(t);
}

/* Wake every task sleeping on channel; runqueue_lock held. */
static void wake_up_locked(void *channel)
{
	waking_channel = channel;
	task_for_each(wake_if_waiting);
}

/*
 * Sleep on channel until a sched_wake_up(channel), releasing the caller's
 * lock (NULL: none; the caller's interrupts-off is then its only guard,
 * as on one CPU) only once runqueue_lock is held, as xv6's sleep(): a
 * waker must take the caller's lock to change what the caller checked,
 * and then runqueue_lock to wake it, so the caller is either still
 * checking or asleep already - no wake-up is lost.  The caller's lock is
 * taken again before this returns.
 *
 * A task asked to die does not sleep at all: it returns at once, and its
 * caller, which loops until what it waits for comes, must end the loop
 * on kill_requested (a pipe's reader and writer do).  Looked at here,
 * under runqueue_lock, because kill sets the mark before it takes this
 * lock to wake the task (sched_wake_task): a kill either comes before
 * this look and is seen, or finds the task asleep and wakes it.  A look
 * under the caller's own lock would leave a gap between it and the sleep.
 */
void sched_sleep_on_lock(void *channel, spinlock_t *lock)
{
	unsigned long flags;

	spin_lock_irqsave_call(&runqueue_lock, &flags);
	if (lock)
		spin_unlock(lock);
	if (!current->kill_requested) {
		current->wait_channel = channel;
		current->state = TASK_SLEEPING;
		switch_locked();
		current->wait_channel = NULL;
	}
	spin_unlock_irqrestore_call(&runqueue_lock, flags);
	if (lock)
		spin_lock(lock);
}

/* Interrupts must be off: a wake-up between the caller's check and the
 * sleep would otherwise be lost (on one CPU; see sched_sleep_on_lock). */
void sched_sleep_on(void *channel)
{
	sched_sleep_on_lock(channel, NULL);
}

void sched_wake_up(void *channel)
{
	unsigned long flags;

	spin_lock_irqsave_call(&runqueue_lock, &flags);
	wake_up_locked(channel);
	spin_unlock_irqrestore_call(&runqueue_lock, flags);
}

/* A sleeping task made runnable, and one running on another CPU brought
 * into the kernel (kill: a sleep ends early, and a task in a user-mode
 * loop meets its kill_requested on the way back). */
void sched_wake_task(struct task *t)
{
	unsigned long flags;

	spin_lock_irqsave_call(&runqueue_lock, &flags);
	if (t->state == TASK_SLEEPING)
		make_runnable(t);
	else if (t->on_cpu && t->cpu != smp_processor_id())
		smp_send_reschedule(t->cpu);
	spin_unlock_irqrestore_call(&runqueue_lock, flags);
}

/*
 * The current task ends: a zombie, its parent (if any) woken, and the CPU
 * given away for good.  The caller holds table_lock (task.c's task_lock) (so that a parent
 * checking for zombies under it sees this one or is asleep before the
 * wake-up); it is released here once runqueue_lock is held.  The zombie
 * state and the switch are under runqueue_lock together: no reaper can
 * free this stack before the switch away from it is complete.
 */
void __noreturn sched_exit(struct task *parent, spinlock_t *table_lock)
{
	unsigned long flags;

	spin_lock_irqsave_call(&runqueue_lock, &flags);
	current->state = TASK_ZOMBIE;
	if (parent)
		wake_up_locked(parent);
	spin_unlock(table_lock);
	switch_locked();
	panic("a zombie ran again");
}

/* Sleep for ticks timer ticks; 0 only yields.  -EINVAL past
 * SLEEP_MAX_TICKS: wake_if_due orders the wake-up tick and the counter
 * by their signed difference, which holds only for spans below 2^31. */
int sched_sleep_ticks(unsigned long ticks)
{
	unsigned long flags;

	if (ticks > SLEEP_MAX_TICKS)
		return -EINVAL;
	if (!ticks) {
		schedule();
		return 0;
	}
	spin_lock_irqsave_call(&runqueue_lock, &flags);
	current->wake_tick = timer_ticks() + ticks;
	current->timed_sleep = true;
	current->state = TASK_SLEEPING;
	switch_locked();
	current->timed_sleep = false;
	spin_unlock_irqrestore_call(&runqueue_lock, flags);
	return 0;
}

static void wake_if_due(struct task *t)
{
	if (t->state == TASK_SLEEPING && t->timed_sleep &&
	    (long)(timer_ticks() - t->wake_tick) >= 0)
		make_runnable(t);
}

/* Whether a timed sleeper's tick seems to have come: read without the
 * lock, so only a hint, as runnable_task_seen's - sched_wake_due decides
 * under the lock, and a sleeper missed here (its state read before the
 * sleep's other fields) is still due at the next tick. */
static bool due_sleeper_seen(void)
{
	struct task *me = current, *t = me;

	do {
		t = task_after(t);
		if (__atomic_load_n(&t->state, __ATOMIC_RELAXED) == TASK_SLEEPING &&
		    __atomic_load_n(&t->timed_sleep, __ATOMIC_RELAXED) &&
		    (long)(timer_ticks() - __atomic_load_n(&t->wake_tick, __ATOMIC_RELAXED)) >= 0)
			return true;
	} while (t != me);
	return false;
}

/* From the clock's interrupt (the PIT, on the boot CPU) where each CPU
 * has its own tick: the sleepers wake on the tick the clock reaches, not
 * on whichever CPU's timer comes next.  The lock only when one is due
 * (see sched_tick). */
void sched_wake_due(void)
{
	unsigned long flags;

	if (!due_sleeper_seen())
		return;
	spin_lock_irqsave_call(&runqueue_lock, &flags);
	task_for_each(wake_if_due);
	spin_unlock_irqrestore_call(&runqueue_lock, flags);
}

/*
 * Whether a task this CPU could take seems to wait: read without the
 * lock, so only a hint - schedule() decides under it, and a task missed
 * here is seen at the next tick (or its wake-up's kick comes first).
 */
static bool runnable_task_seen(void)
{
	unsigned int cpu = smp_processor_id();
	struct task *idle = this_idle_task(), *t = idle;

	do {
		t = task_after(t);
		if (__atomic_load_n(&t->state, __ATOMIC_RELAXED) == TASK_RUNNABLE &&
		    !is_idle_task(t) && !t->on_cpu && (!t->bound || t->cpu == cpu))
			return true;
	} while (t != idle);
	return false;
}

/*
 * A CPU's own tick (its local timer), where the clock's interrupt wakes
 * the sleepers (sched_wake_due) and a wake-up kicks an idle CPU: no lock.
 * An idle CPU only looks whether a task waits.  A busy one counts down
 * its task's slice, which is this CPU's alone while the task runs here:
 * set when the task was switched to on this CPU (switch_locked, under
 * the lock), counted down by this CPU's tick with interrupts off, and
 * read by no other CPU.
 */
static void sched_tick_local(void)
{
	struct task *me = current;

	if (me == this_idle_task()) {
		if (runnable_task_seen())
			set_need_resched();
	} else if (!me->slice || !--me->slice) {
		set_need_resched();
	}
}

/*
 * From the timer interrupt: wake sleepers whose time has come, and end
 * the current task's slice.
 *
 * Where each CPU has a tick of its own, no tick takes runqueue_lock
 * (sched_tick_local).  A lock taken by every CPU's tick has a demand
 * that grows with the CPUs times HZ (8 CPUs at HZ 100: ~1600 takes a
 * second, with idle_loop's schedule()), and where the host runs fewer
 * cores than vCPUs, a ticket lock passes from one waiter to the next
 * only when the host runs that waiter's thread - tens of ms each.  Once
 * a round of the waiters takes longer than a tick, each CPU that gets
 * the lock finds its next tick already pending, and no CPU runs anything
 * but its tick again: taken by the idle CPUs' ticks, the boot thread
 * never ran again (8 CPUs); taken by the busy ones', -smp 4 with a
 * thread per CPU beside busy host loops printed nothing for minutes,
 * every CPU in the lock's wait.  Only the PIT's tick on one CPU (no
 * local timers) still does it all under the lock.
 */
static unsigned long ticks_locked;	/* ticks that took runqueue_lock */

unsigned long sched_ticks_locked(void)
{
	return ticks_locked;
}

void sched_tick(void)
{
	unsigned long flags;

	if (timer_sched_tick_local()) {
		sched_tick_local();
		return;
	}
	spin_lock_irqsave_call(&runqueue_lock, &flags);
	ticks_locked++;
	task_for_each(wake_if_due);
	if (current == this_idle_task() || !current->slice || !--current->slice)
		set_need_resched();
	spin_unlock_irqrestore_call(&runqueue_lock, flags);
}

/* TSC counts each CPU's idle task spent halted: what this kernel left
 * that CPU to do (0 where there is no TSC). */
static u64 idle_tsc[NR_CPUS];

/* This CPU's: a run measured on one CPU subtracts that CPU's idling. */
u64 sched_idle_tsc(void)
{
	return idle_tsc[smp_processor_id()];
}

/* Halted until an interrupt, the time counted as idle. */
static void idle_halt(void)
{
	u64 before, after;
	bool counted = clock_tsc(&before);

	raw_safe_halt();
	if (counted && clock_tsc(&after))
		idle_tsc[smp_processor_id()] += after - before;
}

/* The idle task.  The check and the halt must be one step, or a wake-up
 * arriving between them would go unnoticed until the next interrupt:
 * safe_halt's sti takes effect only after the hlt has started. */
static void idle_loop(void)
{
	for (;;) {
		task_reap_orphans();
		raw_local_irq_disable();
		if (sched_need_resched()) {
			raw_local_irq_enable();
			schedule();
		} else {
			idle_halt();
		}
	}
}

/* CPU cpu's idle task, in its per-CPU area; NULL if none could be made
 * (an AP is then left out: smpboot.c). */
struct task *sched_create_idle(unsigned int cpu)
{
	struct task *idle = task_create_idle(cpu, idle_loop);

	if (idle)
		per_cpu(cpu)->idle_task = idle;
	return idle;
}

void sched_init(void)
{
	if (!sched_create_idle(0))
		panic("cannot create the idle task");
}

/* An AP's first and last scheduler code: what CPU 0's idle task does
 * once switched to (kernel_thread_start turns interrupts on first). */
void sched_run_idle(void)
{
	raw_local_irq_enable();
	idle_loop();
	panic("the idle loop returned");
}
