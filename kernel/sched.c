/*
 * sched.c - which task runs: preemptive round robin.
 *
 * Every runnable task gets SLICE_TICKS timer ticks in turn.  The timer
 * interrupt counts them down (sched_tick) and asks for a reschedule; the
 * switch itself happens on the way back to user mode
 * (exit_to_user_mode, arch/x86/entry/common.c), never in the middle of
 * kernel code: a task in the kernel runs until it returns to user mode,
 * sleeps or yields.  When nothing is runnable the idle
 * task waits for an interrupt in safe_halt.
 *
 * Sleeping is on a channel (any address: a parent waits on itself for
 * its children) or until a tick.  Uniprocessor: interrupts off is the
 * lock for all of it.
 */
#include <kernel.h>
#include <lockdep.h>
#include <task.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/process.h>
#include <asm/timer.h>

#define SLICE_TICKS	2

/* Each CPU has its own idle task and need_resched flag, in its per-CPU
 * area (asm/percpu.h): this_cpu_read(idle_task), (need_resched). */

bool sched_need_resched(void)
{
	return this_cpu_read(need_resched);
}

/* The next runnable task after me (the current one) in table order,
 * wrapping around to itself; this CPU's idle task when there is none.
 * schedule() hands current in: each read of it is a load through %fs
 * the compiler may not merge with another.  The idle task is read at
 * each compare instead, straight from %fs: kept in a register, it cost
 * schedule() a callee-saved register and a stack frame (make bench:
 * 5.5 instructions a context switch more). */
static struct task *pick_next(struct task *me)
{
	struct task *t = me;

	do {
		t = task_after(t);
		if (t->state == TASK_RUNNABLE && t != this_cpu_read(idle_task))
			return t;
	} while (t != me);
	return this_cpu_read(idle_task);
}

/* Give the CPU to the next task in turn (perhaps the current one). */
void schedule(void)
{
	unsigned long flags;
	struct task *prev = current, *next;

	lockdep_schedule();	/* no spinlock may be held across a switch */
	flags = raw_local_irq_save();
	next = pick_next(prev);
	this_cpu_write(need_resched, false);
	if (next != prev) {
		next->slice = SLICE_TICKS;
		next->switches++;
		arch_switch_to(prev, next);	/* current = next; returns when
						   prev runs again */
	}
	raw_local_irq_restore(flags);
}

void sched_yield(void)
{
	schedule();
}

/* Interrupts must be off: a wake-up between the caller's check and the
 * sleep would otherwise be lost. */
void sched_sleep_on(void *channel)
{
	current->wait_channel = channel;
	current->state = TASK_SLEEPING;
	schedule();
	current->wait_channel = NULL;
}

static void *waking_channel;

static void wake_if_waiting(struct task *t)
{
	if (t->state == TASK_SLEEPING && t->wait_channel &&
	    t->wait_channel == waking_channel)
		t->state = TASK_RUNNABLE;
}

void sched_wake_up(void *channel)
{
	unsigned long flags = raw_local_irq_save();

	waking_channel = channel;
	task_for_each(wake_if_waiting);
	raw_local_irq_restore(flags);
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
	flags = raw_local_irq_save();
	current->wake_tick = timer_ticks() + ticks;
	current->timed_sleep = true;
	current->state = TASK_SLEEPING;
	schedule();
	current->timed_sleep = false;
	raw_local_irq_restore(flags);
	return 0;
}

static void wake_if_due(struct task *t)
{
	if (t->state == TASK_SLEEPING && t->timed_sleep &&
	    (long)(timer_ticks() - t->wake_tick) >= 0)
		t->state = TASK_RUNNABLE;
}

/* From the timer interrupt: wake sleepers whose time has come, and end
 * the current task's slice. */
void sched_tick(void)
{
	task_for_each(wake_if_due);
	if (current == this_cpu_read(idle_task) || !current->slice || !--current->slice)
		this_cpu_write(need_resched, true);
}

/* TSC counts the idle task spent halted: what this kernel left the
 * machine to do (0 where there is no TSC). */
static u64 idle_tsc;

u64 sched_idle_tsc(void)
{
	return idle_tsc;
}

/* Halted until an interrupt, the time counted as idle. */
static void idle_halt(void)
{
	u64 before, after;
	bool counted = clock_tsc(&before);

	raw_safe_halt();
	if (counted && clock_tsc(&after))
		idle_tsc += after - before;
}

/* The idle task.  The check and the halt must be one step, or a wake-up
 * arriving between them would go unnoticed until the next interrupt:
 * safe_halt's sti takes effect only after the hlt has started. */
static void idle_loop(void)
{
	for (;;) {
		task_reap_orphans();
		raw_local_irq_disable();
		if (this_cpu_read(need_resched)) {
			raw_local_irq_enable();
			schedule();
		} else {
			idle_halt();
		}
	}
}

void sched_init(void)
{
	struct task *idle = task_create_kernel("idle", idle_loop);

	idle->pid = 0;
	this_cpu_write(idle_task, idle);
}
