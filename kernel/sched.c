/*
 * sched.c - which task runs: preemptive round robin.
 *
 * Every runnable task gets SLICE_TICKS timer ticks in turn.  The timer
 * interrupt counts them down (sched_tick) and asks for a reschedule; the
 * switch itself happens on the way back to user mode (traps.c), never in
 * the middle of kernel code: a task in the kernel runs until it returns
 * to user mode, sleeps or yields.  When nothing is runnable the idle
 * task waits for an interrupt in safe_halt.
 *
 * Sleeping is on a channel (any address: a parent waits on itself for
 * its children) or until a tick.  Uniprocessor: interrupts off is the
 * lock for all of it.
 */
#include <kernel.h>
#include <task.h>
#include <asm/privileged.h>
#include <asm/process.h>
#include <asm/timer.h>

#define SLICE_TICKS	2

static struct task *cur;
static struct task *idle_task;
static bool need_resched;

struct task *current_task(void)
{
	return cur;
}

void sched_set_current(struct task *t)
{
	cur = t;
}

bool sched_need_resched(void)
{
	return need_resched;
}

/* The next runnable task after cur in table order, wrapping around to
 * cur itself; the idle task when there is none. */
static struct task *pick_next(void)
{
	struct task *t = cur;

	do {
		t = task_after(t);
		if (t->state == TASK_RUNNABLE && t != idle_task)
			return t;
	} while (t != cur);
	return idle_task;
}

/* Give the CPU to the next task in turn (perhaps the current one). */
void schedule(void)
{
	unsigned long flags = raw_local_irq_save();
	struct task *prev = cur, *next = pick_next();

	need_resched = false;
	if (next != prev) {
		next->slice = SLICE_TICKS;
		next->switches++;
		cur = next;
		arch_switch_to(prev, next);	/* returns when prev runs again */
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
	cur->wait_channel = channel;
	cur->state = TASK_SLEEPING;
	schedule();
	cur->wait_channel = NULL;
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

/* wake_tick 0 means "not sleeping on a tick": a sleep that would end
 * there (no time at all, or the counter wrapping to it) is a yield. */
void sched_sleep_ticks(unsigned long ticks)
{
	unsigned long flags;

	if (!ticks || !(timer_ticks() + ticks)) {
		schedule();
		return;
	}
	flags = raw_local_irq_save();

	cur->wake_tick = timer_ticks() + ticks;
	cur->state = TASK_SLEEPING;
	schedule();
	cur->wake_tick = 0;
	raw_local_irq_restore(flags);
}

static void wake_if_due(struct task *t)
{
	if (t->state == TASK_SLEEPING && t->wake_tick &&
	    (long)(timer_ticks() - t->wake_tick) >= 0)
		t->state = TASK_RUNNABLE;
}

/* From the timer interrupt: wake sleepers whose time has come, and end
 * the current task's slice. */
void sched_tick(void)
{
	task_for_each(wake_if_due);
	if (cur == idle_task || !cur->slice || !--cur->slice)
		need_resched = true;
}

/* The idle task.  The check and the halt must be one step, or a wake-up
 * arriving between them would go unnoticed until the next interrupt:
 * safe_halt's sti takes effect only after the hlt has started. */
static void idle_loop(void)
{
	for (;;) {
		task_reap_orphans();
		raw_local_irq_disable();
		if (need_resched) {
			raw_local_irq_enable();
			schedule();
		} else {
			raw_safe_halt();
		}
	}
}

void sched_init(void)
{
	idle_task = task_create_kernel("idle", idle_loop);
	idle_task->pid = 0;
}
