/*
 * task.c - creating and ending tasks.
 *
 * Tasks live in a fixed table.  The boot thread (kmain) becomes task 1,
 * "kernel"; task 0, "idle", runs when nothing else can (sched.c).  A user
 * task is spawned from a program (exec.c loads it into a fresh address
 * space); it ends by exiting or by being killed for a fault, and stays a
 * zombie, holding only its kernel stack, until its parent collects its
 * status with task_wait().  A task whose parent is gone is collected by
 * the idle task.
 *
 * Threads (task_make_thread, the thread system call) share their
 * creator's address space, a struct mm counted by its users.  Each thread
 * is a task of its own: it ends on its own (exit, a fault, kill), is a
 * child of the task that made it and is collected by wait() like any
 * child.  No task's end ends another: a program's first task may exit
 * while its threads run on, and the space, its pages and its page
 * directory go when the last of them leaves (mm_put, kernel/mm.c).
 * That is Linux's plain _exit of one thread (not exit_group), kept
 * because it needs no "thread group" and a killed thread then cannot
 * take its siblings' work with it; a program that wants all of them
 * gone waits for them (user/tlbshoot.c does).
 *
 * What a user task holds above this file is given and let go by the
 * layers above it, which call down here and are never called back: a
 * system call makes the task, not started (task_make_spawn,
 * task_make_thread), gives it what it needs and then starts it
 * (task_start, syscall.c); a user task ends through exit.c, by the exit
 * system call or a kill, which lets go of it before task_exit.  Its
 * descriptors are such (kernel/fd.c): they live in its struct task, but
 * their pipes sleep and wake through the scheduler, so were this file to
 * copy or close them, task, descriptors, pipes and scheduler would call
 * each other in a loop.  syscall.c copies the creator's table into the
 * made task, exit.c closes the table, and task_exit only checks that
 * none is left open.  The kernel's own threads hold no descriptors, so
 * task_spawn, the kernel's way to start a program, starts it with none.
 *
 * task_lock (rank LOCK_RANK_TASKS) guards the table's slots (claiming and
 * freeing one), the pids, the parent links, the exit statuses and the
 * zombies' collection, and kill's marks.  A task's state is the run
 * queue's (sched.c): it is changed there, under runqueue_lock, taken
 * inside task_lock when both are needed.  Freeing a slot goes through
 * sched_release_task, which cannot return before the zombie's switch
 * away from its stack is complete, so no CPU frees a stack in use.
 * Functions that only look (task_by_pid, task_for_each, the counts) take
 * no lock: what they return may change at once, which their callers
 * (the shell, the tests, the scheduler under its own lock) accept.
 */
#include <kernel.h>
#include <exec.h>
#include <fd.h>
#include <lockdep.h>
#include <page_alloc.h>
#include <spinlock.h>
#include <string.h>
#include <task.h>
#include <asm/desc.h>
#include <asm/paging.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/process.h>
#include <asm/tlbflush.h>

static struct task tasks[NR_TASKS];
static int next_pid = 2;		/* 0 idle, 1 the boot thread */
DEFINE_SPINLOCK(task_lock, LOCK_RANK_TASKS);	/* task.h */

extern char boot_stack[], boot_stack_top[];

struct task *task_by_pid(int pid)
{
	struct task *t;

	for (t = tasks; t < tasks + NR_TASKS; t++)
		if (t->state != TASK_UNUSED && t->pid == pid)
			return t;
	return NULL;
}

struct task *task_after(struct task *t)
{
	do {
		t = t + 1 < tasks + NR_TASKS ? t + 1 : tasks;
	} while (t->state == TASK_UNUSED);
	return t;
}

void task_for_each(void (*fn)(struct task *t))
{
	struct task *t;

	for (t = tasks; t < tasks + NR_TASKS; t++)
		if (t->state != TASK_UNUSED)
			fn(t);
}

unsigned int tasks_alive(void)
{
	unsigned int n = 0;
	struct task *t;

	for (t = tasks; t < tasks + NR_TASKS; t++)
		n += t->state == TASK_RUNNABLE || t->state == TASK_SLEEPING;
	return n;
}

/* Slots no task holds, a zombie's included: what a leak would shrink. */
unsigned int task_slots_free(void)
{
	unsigned int n = 0;
	struct task *t;

	for (t = tasks; t < tasks + NR_TASKS; t++)
		n += t->state == TASK_UNUSED;
	return n;
}

/* A free slot with a kernel stack, or NULL (and *err) if none.  The
 * slot is claimed sleeping, with no channel: no CPU picks or wakes it
 * before sched_start_task. */
static struct task *task_alloc(const char *name, int *err)
{
	unsigned long flags;
	struct task *t;

	spin_lock_irqsave_call(&task_lock, &flags);
	for (t = tasks; t < tasks + NR_TASKS && t->state != TASK_UNUSED; t++)
		;
	if (t == tasks + NR_TASKS) {
		spin_unlock_irqrestore_call(&task_lock, flags);
		*err = -EAGAIN;
		return NULL;
	}
	memset(t, 0, sizeof(*t));
	t->state = TASK_SLEEPING;	/* claimed, not yet runnable */
	t->pid = next_pid++;
	spin_unlock_irqrestore_call(&task_lock, flags);
	strlcpy(t->name, name, sizeof(t->name));
	t->kstack = pages_alloc(KSTACK_PAGES);
	t->kstack_size = KSTACK_PAGES * PAGE_SIZE;
	t->pgd = kernel_page_dir;
	if (!t->kstack) {
		sched_release_task(t);
		*err = -ENOMEM;
		return NULL;
	}
	return t;
}

/* Its stack freed and its slot unused, once it is off that stack
 * (sched_release_task); the stack's address read first, since the slot
 * may be claimed again at once. */
static void task_free(struct task *t)
{
	u32 kstack = t->kstack;

	sched_release_task(t);
	pages_free(kstack, KSTACK_PAGES);
}

/* The boot thread, already running on the boot stack, becomes a task. */
void task_init(void)
{
	struct task *t = &tasks[1];

	t->pid = 1;
	strlcpy(t->name, "kernel", sizeof(t->name));
	t->state = TASK_RUNNABLE;
	t->kstack = (u32)boot_stack;
	t->kstack_size = boot_stack_top - boot_stack;
	t->pgd = kernel_page_dir;
	t->thread = init_thread;
	t->on_cpu = true;		/* it runs: no other CPU may pick it */
	/*
	 * And it stays on the boot CPU, where the 8259 PIC delivers the
	 * timer and the devices: what it runs - the suite's checks of the
	 * PIT and the PIC, the benchmark's counts - was written for that CPU
	 * (Linux kept such roles on its boot CPU too).  Its children, user
	 * or kernel, run on any CPU.
	 */
	t->cpu = 0;
	t->bound = true;
	arch_task_setup_boot(t);
}

/* Where every kernel thread starts, interrupts on: its work, then its
 * end, for a thread whose work returns. */
static void __noreturn kernel_thread(void)
{
	current->thread_fn();
	task_exit(0);
}

struct task *task_try_create_kernel(const char *name, void (*fn)(void), int *err)
{
	struct task *t = task_alloc(name, err);

	if (!t)
		return NULL;
	t->thread_fn = fn;
	arch_task_setup_kernel(t, kernel_thread);
	sched_start_task(t);
	return t;
}

/*
 * CPU cpu's idle task: pid 0, as every CPU's (the pick never takes a
 * pid-0 task but its own CPU's), and on that CPU from the start, so no
 * other CPU can pick it even before its own starts running it.  CPU 0's
 * is switched to like any thread (kernel_thread_start runs fn); an AP
 * runs its own from the top of its stack instead (smpboot.c), so the
 * frame built here is never used there.  NULL if there is no slot or
 * memory.
 */
struct task *task_create_idle(unsigned int cpu, void (*fn)(void))
{
	int err;
	struct task *t = task_alloc("idle", &err);

	if (!t)
		return NULL;
	if (cpu)
		snprintf(t->name, sizeof(t->name), "idle/%u", cpu);
	t->pid = 0;
	t->thread_fn = fn;
	t->cpu = cpu;
	t->on_cpu = cpu != 0;
	arch_task_setup_kernel(t, kernel_thread);
	sched_start_task(t);
	return t;
}

/* A thread the kernel cannot run without (its idle task): none is the
 * end. */
struct task *task_create_kernel(const char *name, void (*fn)(void))
{
	int err;
	struct task *t = task_try_create_kernel(name, fn, &err);

	if (!t)
		panic("cannot create kernel thread %s: error %d", name, err);
	return t;
}

/* A made task put on the run queue: its pid.  Whatever a layer above
 * this file gives the task (its descriptors: syscall.c) is in place
 * before it can run. */
int task_start(struct task *t)
{
	sched_start_task(t);
	return t->pid;
}

/* A new task running program with argument arg, child of the current
 * task, made but not started (task_start): it, or NULL and *err (-ENOENT,
 * -ENOMEM, -EAGAIN).  Its descriptor table is empty. */
struct task *task_make_spawn(const char *program, const char *arg, int *err)
{
	struct program prog;
	struct task *t;

	if (!program_find(program, &prog)) {
		*err = -ENOENT;
		return NULL;
	}
	t = task_alloc(program, err);
	if (!t)
		return NULL;
	t->user = true;
	t->parent = current;
	*err = exec_load(t, &prog, arg);
	if (*err) {
		t->pgd = kernel_page_dir;
		task_free(t);
		return NULL;
	}
	return t;
}

/* The kernel's spawn: its threads hold no descriptors, so the child
 * starts with none.  Its pid, or -ENOENT, -ENOMEM, -EAGAIN. */
int task_spawn(const char *program, const char *arg)
{
	int err;
	struct task *t = task_make_spawn(program, arg, &err);

	return t ? task_start(t) : err;
}

/*
 * A thread of the current task, made but not started (task_start): the
 * same address space (one user more), started at entry with stack
 * pointer esp in ring 3, its registers, TLS and LDT its own and empty,
 * its descriptor table empty.  It, or NULL and *err (-EINVAL for a
 * kernel thread, -EAGAIN, -ENOMEM).  The caller has checked entry and
 * esp (sys_thread).
 */
struct task *task_make_thread(u32 entry, u32 esp, int *err)
{
	struct task *me = current, *t;

	if (!me->mm) {
		*err = -EINVAL;
		return NULL;
	}
	t = task_alloc(me->name, err);
	if (!t)
		return NULL;
	mm_get(me->mm);
	t->user = true;
	t->parent = me;
	t->mm = me->mm;
	t->pgd = me->mm->pgd;
	t->stack_bottom = me->stack_bottom;
	t->io_allowed = me->io_allowed;
	strlcpy(t->arg, me->arg, sizeof(t->arg));
	arch_task_setup_user(t, entry, esp);
	return t;
}

/*
 * Another task's address space, held for reading it: the space a task
 * uses can go at any moment (its task exits on another CPU: task_release
 * clears t->mm, then lets go), and its page directory, tables and pages
 * with it, to whoever allocates next - a ring-3 program that fills them
 * with entries of its own.  So a reference, taken only while the space
 * still has users (mm_get_unless_zero), and kept only if the task still
 * names that space afterwards: t->mm is cleared before the task lets
 * go, so a task that still names it holds it, and the slot was not
 * freed and claimed by another space meanwhile.  task_lock keeps the
 * task slot itself (its pid, its name) from being freed and claimed.
 */
int task_get_mm(int pid, struct mm **mmp, char *name, size_t size)
{
	struct mm *mm = NULL, *stale = NULL;
	unsigned long flags;
	struct task *t;
	int err = 0;

	spin_lock_irqsave_call(&task_lock, &flags);
	t = task_by_pid(pid);
	if (!t || t->state == TASK_ZOMBIE) {
		err = -ESRCH;
	} else {
		strlcpy(name, t->name, size);
		mm = *(struct mm *volatile *)&t->mm;
		if (mm && !mm_get_unless_zero(mm)) {
			mm = NULL;
			err = -ESRCH;	/* exiting: its space is gone */
		} else if (mm && *(struct mm *volatile *)&t->mm != mm) {
			stale = mm;	/* left it meanwhile: not its any more */
			mm = NULL;
			err = -ESRCH;
		} else if (!mm && t->user) {
			err = -ESRCH;	/* a program's task that has let go */
		}
	}
	spin_unlock_irqrestore_call(&task_lock, flags);
	if (stale)
		mm_put(stale);		/* may be the last: not under task_lock */
	*mmp = mm;
	return err;
}

/* Everything but the kernel stack we are running on.  The address
 * space is left first (%cr3 and this CPU's bit in its mask), then let
 * go: its last user frees it, and must find it loaded nowhere. */
static void task_release(struct task *t)
{
	struct mm *mm = t->mm;

	arch_task_release(t);
	if (mm) {
		t->pgd = kernel_page_dir;
		t->mm = NULL;
		write_cr3((u32)kernel_page_dir);
		cpumask_clear_atomic(&mm->cpu_mask, smp_processor_id());
		mm_put(mm);
	}
}

/* task_lock held. */
static void orphan_children(struct task *parent)
{
	struct task *t;

	for (t = tasks; t < tasks + NR_TASKS; t++)
		if (t->state != TASK_UNUSED && t->parent == parent)
			t->parent = NULL;
}

/*
 * The end of the current task: a zombie under task_lock, which
 * sched_exit releases once it holds the run queue (see there).  Its
 * descriptors are closed already, by the layer above that ended it
 * (exit.c); one still open here would hold its pipe for ever, its other
 * end never seeing end of file, so it stops the kernel instead.
 */
void task_exit(int status)
{
	struct task *t = current;
	unsigned int open = fd_open_count(t->fds);
	unsigned long flags;

	if (t->pid <= 1)
		panic("task %d (%s) may not exit", t->pid, t->name);
	if (open)
		panic("task %d (%s) ends with %u descriptors open", t->pid, t->name, open);
	lockdep_task_exit();	/* before task_lock: what it holds stays held */
	task_release(t);
	spin_lock_irqsave_call(&task_lock, &flags);
	orphan_children(t);
	t->exit_status = status;
	sched_exit(t->parent, &task_lock);
}

/* A zombie child of the current task, matching pid (-1: any); task_lock
 * held. */
static struct task *find_zombie(int pid, bool *has_child)
{
	struct task *t;

	*has_child = false;
	for (t = tasks; t < tasks + NR_TASKS; t++) {
		if (t->state == TASK_UNUSED || t->parent != current ||
		    (pid != -1 && t->pid != pid))
			continue;
		*has_child = true;
		if (t->state == TASK_ZOMBIE)
			return t;
	}
	return NULL;
}

/* A child that has ended, collected without waiting: its pid and
 * *status, 0 if none has ended, -ECHILD if there is no child. */
int task_reap(int *status)
{
	unsigned long flags;
	bool has_child;
	struct task *z;
	int pid;

	spin_lock_irqsave_call(&task_lock, &flags);
	z = find_zombie(-1, &has_child);
	if (!z) {
		spin_unlock_irqrestore_call(&task_lock, flags);
		return has_child ? 0 : -ECHILD;
	}
	pid = z->pid;
	*status = z->exit_status;
	task_free(z);
	spin_unlock_irqrestore_call(&task_lock, flags);
	return pid;
}

/*
 * Wait for a child to end, and hand its status to deliver(arg, status):
 * the child's pid, -ECHILD, -EINTR when the waiter itself is killed (it
 * must get back to user mode to end, not sleep on for a child that may
 * never end), or deliver's error.  The child is collected only once
 * deliver has succeeded: deliver may fault (sys_wait copies to user
 * memory that another thread may have given back meanwhile), and a wait
 * that fails must change nothing, the zombie left for the next wait.
 * deliver runs without task_lock, and the zombie cannot go meanwhile:
 * a child that has a parent is collected by that parent alone (the
 * idle task takes only orphans), and its parent is here.
 */
int task_wait_deliver(int pid, int (*deliver)(void *arg, int status), void *arg)
{
	unsigned long flags;
	struct task *z;
	bool has_child;
	int err;

	spin_lock_irqsave_call(&task_lock, &flags);
	while (!(z = find_zombie(pid, &has_child)) && has_child &&
	       !current->kill_requested)
		sched_sleep_on_lock(current, &task_lock);
	if (!z) {
		spin_unlock_irqrestore_call(&task_lock, flags);
		return has_child ? -EINTR : -ECHILD;
	}
	pid = z->pid;
	spin_unlock_irqrestore_call(&task_lock, flags);
	err = deliver(arg, z->exit_status);
	if (err)
		return err;
	spin_lock_irqsave_call(&task_lock, &flags);
	task_free(z);
	spin_unlock_irqrestore_call(&task_lock, flags);
	return pid;
}

static int store_status(void *arg, int status)
{
	if (arg)
		*(int *)arg = status;
	return 0;
}

/* The same for a caller in the kernel: *status (if status is not NULL). */
int task_wait(int pid, int *status)
{
	return task_wait_deliver(pid, store_status, status);
}

/*
 * Ask a user task to die.  Another task's kernel stack may hold anything
 * (a system call half done), so it is not torn down from outside: the
 * task is marked, woken if it sleeps, and ends itself on its next way
 * back to user mode (exit_to_user_mode).  A sleeping task is woken: a
 * sleep() returns early, and so does a wait() for children (-EINTR).
 */
int task_kill_pid(int pid)
{
	unsigned long flags;
	struct task *t;
	int err = 0;

	spin_lock_irqsave_call(&task_lock, &flags);
	t = task_by_pid(pid);
	if (!t || t->state == TASK_ZOMBIE)
		err = -ESRCH;
	else if (!t->user)
		err = -EPERM;
	else
		t->kill_requested = true;
	if (!err)
		sched_wake_task(t);	/* a sleep ends early, as for a signal */
	spin_unlock_irqrestore_call(&task_lock, flags);
	return err;
}

/* The idle task's chore: free the zombies nobody will wait for. */
void task_reap_orphans(void)
{
	unsigned long flags;
	struct task *t;

	spin_lock_irqsave_call(&task_lock, &flags);
	for (t = tasks; t < tasks + NR_TASKS; t++)
		if (t->state == TASK_ZOMBIE && !t->parent)
			task_free(t);
	spin_unlock_irqrestore_call(&task_lock, flags);
}
