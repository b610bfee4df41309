/*
 * lockdep.c - the lock debugger: checks every spinlock operation against
 * the lock order and the locks this CPU holds (lockdep.h says what it
 * reports, spinlock.h how the operations reach it).
 *
 * Each CPU keeps a stack of the locks it holds, with where and when each
 * was taken and by which task.  A report is one printk line starting
 * "lockdep: " and a count per kind; the kernel goes on, doing what is
 * least harmful: a recursive take is not taken (it would spin forever),
 * an unlock of a lock not held is not done (it would hand the lock to a
 * second owner).  Everything else is done as without the debugger.
 *
 * The held stacks change with interrupts off: an interrupt handler takes
 * locks on the same CPU, on top of the code it interrupted.
 *
 * Shared between CPUs, and how: each CPU's held stack is its own (held
 * locks belong to a CPU: a task holds none across a switch but the run
 * queue's, which the switch hands to the next task on the same CPU), so
 * it needs no lock; the report counts are bumped atomically; the
 * debugger's own switch is one word, written whole.  The debugger takes
 * no spinlock of its own: it runs inside every lock operation, and a
 * lock of its own would have to be checked by itself.  A report's lines
 * are printk's, whose console lock keeps each one whole and is for that
 * reason the one lock this debugger does not check (printk.c).
 */
#include <kernel.h>
#include <cmdline.h>
#include <ksyms.h>
#include <lockdep.h>
#include <asm/percpu.h>
#include <task.h>
#include <asm/privileged.h>
#include <asm/timer.h>

#define LOCKDEP_MAX_HELD	16

struct held_lock {
	spinlock_t *lock;
	u32 ip;			/* where it was taken */
	unsigned long tick;	/* when */
	int pid;		/* by which task */
	u16 ticket;		/* the lock's owner ticket while this take holds it */
	bool phantom;		/* a recursive take: reported, not taken */
	bool reported;		/* its sleep or age was reported already */
};

struct lockdep_cpu {
	struct held_lock held[LOCKDEP_MAX_HELD];
	unsigned int depth;
};

bool lockdep_enabled;
static struct lockdep_cpu lockdep_cpus[NR_CPUS];
static unsigned long report_counts[LOCKDEP_NR_REPORTS];

static int parse_lockdebug(const char *value)
{
	(void)value;
	lockdep_enabled = true;
	return 0;
}
boot_option("lockdebug", parse_lockdebug,
	    "check every spinlock: order, recursion, unlocks, sleeps, holders");

/* The CPU we run on, whose held stack is ours: the debugger is turned
 * on by the command line, long after the per-CPU area is (asm/percpu.h). */
static unsigned int this_cpu(void)
{
	return smp_processor_id();
}

/* The task whose locks these are: -1 before the boot thread becomes a
 * task (the page allocator takes its lock from the first page on). */
static int current_pid(void)
{
	return current ? current->pid : -1;
}

/* ---- counts and switches (lockdep.h) ---- */

unsigned long lockdep_reports(enum lockdep_report kind)
{
	return kind < LOCKDEP_NR_REPORTS ? report_counts[kind] : 0;
}

unsigned long lockdep_reports_total(void)
{
	unsigned long n = 0;
	unsigned int k;

	for (k = 0; k < LOCKDEP_NR_REPORTS; k++)
		n += report_counts[k];
	return n;
}

bool lockdep_set(bool on)
{
	bool was = lockdep_enabled;

	lockdep_enabled = on;
	return was;
}

unsigned int lockdep_held_count(void)
{
	return lockdep_cpus[this_cpu()].depth;
}

/* Interrupts off while a held stack changes, and back as they were:
 * out of line, so that each irq op is one patch site, not one per use. */
static __attribute__((noinline)) unsigned long irqs_off(void)
{
	return raw_local_irq_save();
}

static __attribute__((noinline)) void irqs_back(unsigned long flags)
{
	raw_local_irq_restore(flags);
}

/* ---- reporting ---- */

/*
 * A report is one line, built here and printed by one printk: each
 * printk is one piece on every console, but a line printed in pieces
 * lets another CPU's line in between.  Longer than the buffer, it is cut
 * and still ends its line.
 */
#define REPORT_LINE	256

struct report {
	char text[REPORT_LINE];
	size_t len;
};

static void __printf(2, 3) report_add(struct report *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(r->text + r->len, sizeof(r->text) - r->len, fmt, ap);
	va_end(ap);
	r->len += n > 0 ? (size_t)n : 0;
	if (r->len > sizeof(r->text) - 2)
		r->len = sizeof(r->text) - 2;	/* room for the end of line */
}

/* A code address as the backtraces print it: function+offset. */
static void report_where(struct report *r, u32 ip)
{
	u32 offset;
	const char *name = ksym_lookup(ip, &offset);

	if (name)
		report_add(r, "%s+0x%x", name, offset);
	else
		report_add(r, "%08x", ip);
}

/* "lockdep: <what>: cpu C task P (name) " - the start of each report. */
static void report_start(struct report *r, enum lockdep_report kind, const char *what)
{
	__atomic_add_fetch(&report_counts[kind], 1, __ATOMIC_RELAXED);	/* lock addl */
	r->len = 0;
	report_add(r, "lockdep: %s: cpu %u task %d (%s) ", what, this_cpu(),
		   current_pid(), current ? current->name : "boot");
}

/* "NAME (rank R) taken at WHERE": a held lock, as reports name it. */
static void report_held(struct report *r, const struct held_lock *h)
{
	report_add(r, "%s (rank %u) taken at ", h->lock->name, h->lock->rank);
	report_where(r, h->ip);
}

/* The line ended and printed, in one printk. */
static void report_print(struct report *r)
{
	r->text[r->len++] = '\n';
	r->text[r->len] = '\0';
	printk("%s", r->text);
}

/* ---- the held stack ---- */

/* The most recent entry of lock on this CPU's stack, or NULL. */
static struct held_lock *find_held(struct lockdep_cpu *cpu, spinlock_t *lock)
{
	unsigned int i = cpu->depth;

	while (i--)
		if (cpu->held[i].lock == lock)
			return &cpu->held[i];
	return NULL;
}

/* Record a take; false (and the debugger off) when the stack is full. */
static bool push_held(struct lockdep_cpu *cpu, spinlock_t *lock, u32 ip,
		      bool phantom)
{
	struct held_lock *h;

	if (cpu->depth == LOCKDEP_MAX_HELD) {
		printk("lockdep: more than %d locks held on cpu %u: the "
		       "debugger turns itself off\n", LOCKDEP_MAX_HELD, this_cpu());
		lockdep_enabled = false;
		return false;
	}
	h = &cpu->held[cpu->depth++];
	h->lock = lock;
	h->ip = ip;
	h->tick = timer_ticks();
	h->pid = current_pid();
	h->ticket = lock->raw.owner;	/* taken: the ticket served is ours */
	h->phantom = phantom;
	h->reported = false;
	return true;
}

/* Take entry h off the stack (a lock may be released out of turn). */
static void drop_held(struct lockdep_cpu *cpu, struct held_lock *h)
{
	struct held_lock *end = &cpu->held[--cpu->depth];

	for (; h < end; h++)
		h[0] = h[1];
}

/*
 * Whether h's take still holds its lock: the lock is held and still
 * serves the ticket it served when h was taken.  Another CPU may hold it
 * now under a later ticket: then h is stale all the same.  (A ticket
 * comes round again after 65536 takes; for h to look live by mistake,
 * exactly a multiple of those would have to pass while it is stale.)
 */
static bool held_still(const struct held_lock *h)
{
	return arch_spin_is_locked(&h->lock->raw) && h->lock->raw.owner == h->ticket;
}

/* A take the debugger saw: the lock's owner fields, and the ticket. */
static void record_owner(spinlock_t *lock, u32 ip)
{
	lock->owner_cpu = this_cpu();
	lock->owner_ticket = lock->raw.owner;
	lock->owner_ip = ip;
}

/*
 * The CPU holding lock by the last take the debugger saw, or -1: none,
 * or that take is over (released while the debugger was off, perhaps
 * taken since, unseen, by any CPU).
 */
static int seen_owner(spinlock_t *lock)
{
	if (lock->owner_cpu >= 0 && arch_spin_is_locked(&lock->raw) &&
	    lock->raw.owner == lock->owner_ticket)
		return lock->owner_cpu;
	return -1;
}

/*
 * Entries whose take is over: taken while the debugger was on, released
 * after a test turned it off (the fast path pops nothing).  On one CPU
 * the tests switch it only when nothing is held; with more, another CPU
 * may be between a take and its release at that moment, and another
 * may take the lock next, before this CPU looks again.
 */
static void drop_stale(struct lockdep_cpu *cpu)
{
	unsigned int i = cpu->depth;

	while (i--) {
		if (!held_still(&cpu->held[i]))
			drop_held(cpu, &cpu->held[i]);
	}
}

/* ---- the checks ---- */

/* Every lock held past the limit, reported once. */
static void check_ages(struct lockdep_cpu *cpu)
{
	unsigned long now = timer_ticks();
	struct report r;

	drop_stale(cpu);
	unsigned int i;

	for (i = 0; i < cpu->depth; i++) {
		struct held_lock *h = &cpu->held[i];

		if (h->phantom || h->reported || now - h->tick <= LOCKDEP_HELD_LIMIT)
			continue;
		h->reported = true;
		report_start(&r, LOCKDEP_HELD_TOO_LONG, "held too long");
		report_held(&r, h);
		report_add(&r, ", %lu ticks ago (limit %u)", now - h->tick, LOCKDEP_HELD_LIMIT);
		report_print(&r);
	}
}

/* The current task's held lock of the highest rank, or NULL. */
static struct held_lock *highest_held(struct lockdep_cpu *cpu)
{
	struct held_lock *top = NULL;
	unsigned int i;

	for (i = 0; i < cpu->depth; i++) {
		struct held_lock *h = &cpu->held[i];

		if (h->pid == current_pid() && !h->phantom &&
		    (!top || h->lock->rank >= top->lock->rank))
			top = h;
	}
	return top;
}

/* Taking lock now must go up the order from everything held. */
static void check_order(struct lockdep_cpu *cpu, spinlock_t *lock, u32 ip)
{
	struct held_lock *top = highest_held(cpu);
	struct report r;

	if (!top || lock->rank > top->lock->rank)
		return;
	report_start(&r, LOCKDEP_OUT_OF_ORDER, "out of order");
	report_add(&r, "takes %s (rank %u) at ", lock->name, lock->rank);
	report_where(&r, ip);
	report_add(&r, " holding ");
	report_held(&r, top);
	report_print(&r);
}

/* A take of lock at ip while this CPU holds it already (entry mine). */
static void report_recursive_take(spinlock_t *lock, u32 ip,
				  const struct held_lock *mine)
{
	struct report r;

	report_start(&r, LOCKDEP_RECURSIVE_TAKE, "recursive take");
	report_add(&r, "takes %s at ", lock->name);
	report_where(&r, ip);
	report_add(&r, " holding it: ");
	report_held(&r, mine);
	report_add(&r, " by task %d; not taken", mine->pid);
	report_print(&r);
}

/* A release of lock at ip that this CPU does not hold: who does, if the
 * debugger saw the take, else whether it is held at all. */
static void report_unheld_unlock(spinlock_t *lock, u32 ip)
{
	struct report r;

	report_start(&r, LOCKDEP_UNHELD_UNLOCK, "unheld unlock");
	report_add(&r, "releases %s (rank %u) at ", lock->name, lock->rank);
	report_where(&r, ip);
	if (seen_owner(lock) >= 0) {
		report_add(&r, ", held by cpu %d since ", lock->owner_cpu);
		report_where(&r, lock->owner_ip);
	} else {
		report_add(&r, ", %s", spin_is_locked(lock) ? "held" : "free");
	}
	report_add(&r, "; left alone");
	report_print(&r);
}

/* ---- the checked operations ---- */

/* spin_lock, checked: a recursive take is reported and not taken; an
 * out-of-order one is reported and taken; then the wait, as without the
 * debugger, with interrupts as the caller had them. */
void lockdep_spin_lock_at(spinlock_t *lock, u32 ip)
{
	struct lockdep_cpu *cpu = &lockdep_cpus[this_cpu()];
	unsigned long flags = irqs_off();
	struct held_lock *mine;

	check_ages(cpu);
	mine = find_held(cpu, lock);
	if (mine) {
		report_recursive_take(lock, ip, mine);
		push_held(cpu, lock, ip, true);
		irqs_back(flags);
		return;
	}
	check_order(cpu, lock, ip);
	irqs_back(flags);

	arch_spin_lock(&lock->raw);	/* interrupts as the caller had them */

	flags = irqs_off();
	record_owner(lock, ip);
	push_held(cpu, lock, ip, false);
	irqs_back(flags);
}

/* The same, reported as taken where spin_lock was called. */
void lockdep_spin_lock(spinlock_t *lock)
{
	lockdep_spin_lock_at(lock, (u32)__builtin_return_address(0));
}

/* A try cannot deadlock: no order check, and a held lock just fails. */
bool lockdep_spin_trylock(spinlock_t *lock)
{
	u32 ip = (u32)__builtin_return_address(0);
	struct lockdep_cpu *cpu = &lockdep_cpus[this_cpu()];
	unsigned long flags = irqs_off();
	bool taken;

	check_ages(cpu);
	taken = arch_spin_trylock(&lock->raw);
	if (taken) {
		record_owner(lock, ip);
		push_held(cpu, lock, ip, false);
	}
	irqs_back(flags);
	return taken;
}

/* spin_unlock, checked: a lock this CPU does not hold is reported and
 * left alone; a recursive take's entry goes without releasing. */
void lockdep_spin_unlock_at(spinlock_t *lock, u32 ip)
{
	struct lockdep_cpu *cpu = &lockdep_cpus[this_cpu()];
	unsigned long flags = irqs_off();
	struct held_lock *mine;

	check_ages(cpu);
	mine = find_held(cpu, lock);
	if (!mine && spin_is_locked(lock) && seen_owner(lock) < 0) {
		/* Taken while the debugger was off, by this CPU or (a bug
		 * it cannot see) another: released as it would have been. */
		arch_spin_unlock(&lock->raw);
		irqs_back(flags);
		return;
	}
	if (!mine) {
		report_unheld_unlock(lock, ip);
		irqs_back(flags);
		return;
	}
	if (!mine->phantom) {
		lock->owner_cpu = -1;
		lock->owner_ip = 0;
		arch_spin_unlock(&lock->raw);
	}
	drop_held(cpu, mine);
	irqs_back(flags);
}

/* The same, reported as released where spin_unlock was called. */
void lockdep_spin_unlock(spinlock_t *lock)
{
	lockdep_spin_unlock_at(lock, (u32)__builtin_return_address(0));
}

/* One lock the current task holds as it schedules or exits. */
static void report_schedule(const struct held_lock *h, bool exiting)
{
	struct report r;

	report_start(&r, exiting ? LOCKDEP_NEVER_RELEASED : LOCKDEP_HELD_ACROSS_SLEEP,
		     exiting ? "never released" : "held across sleep");
	report_add(&r, "%s holding ", exiting ? "exits" : "schedules");
	report_held(&r, h);
	report_print(&r);
}

/*
 * Check the locks the current task holds as it gives up the CPU
 * (exiting: for good), but for switch_lock.  A task that ends holding
 * locks never releases them: they are reported and dropped from the
 * stack, and stay taken.
 */
static void check_held_by_current(spinlock_t *switch_lock, bool exiting)
{
	struct lockdep_cpu *cpu = &lockdep_cpus[this_cpu()];
	unsigned long flags = irqs_off();
	unsigned int i = 0;

	drop_stale(cpu);
	while (i < cpu->depth) {
		struct held_lock *h = &cpu->held[i];

		if (h->pid != current_pid() || h->lock == switch_lock) {
			i++;
		} else if (exiting) {
			if (!h->phantom)
				report_schedule(h, true);
			drop_held(cpu, h);
		} else {
			if (!h->phantom && !h->reported)
				report_schedule(h, false);
			h->reported = true;
			i++;
		}
	}
	irqs_back(flags);
}

/*
 * From schedule(): a spinlock is never held across a switch (a CPU
 * waiting for it would spin until the holder runs again, on one CPU
 * forever) - but for switch_lock, the run queue's, which the switch
 * hands to the task switched to and that task releases (sched.c).
 */
void lockdep_check_schedule(spinlock_t *switch_lock)
{
	check_held_by_current(switch_lock, current->state == TASK_ZOMBIE);
}

/* From task_exit(), before it takes the task table's lock: what the
 * ending task still holds is never released (reported here, so that
 * the exit's own locks are not reported out of order behind it). */
void lockdep_check_exit(void)
{
	check_held_by_current(NULL, true);
}
