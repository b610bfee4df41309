/*
 * task.h - tasks: what the scheduler switches between.
 *
 * A task is a kernel stack, an address space (struct mm: a page
 * directory and a heap; kernel threads have none and use the kernel's
 * page directory) and the CPU state it owns (struct thread_struct).
 * Tasks that share one address space are the threads of one program
 * (sys_thread); each has its own stack, registers, pid and descriptor
 * table (a copy of its creator's: kernel/fd.c).  User tasks run a
 * program loaded from an ELF image (kernel/exec.c) and enter the kernel
 * through interrupts, exceptions and system calls; kernel threads (the
 * idle task, the boot thread) never leave ring 0.  kernel/task.c
 * creates and ends tasks, kernel/sched.c decides which one runs.
 */
#ifndef PV386_TASK_H
#define PV386_TASK_H

#include <kernel.h>
#include <fd.h>
#include <spinlock.h>
#include <arch_door.h>
#include <asm/cpumask.h>
#include <asm/current.h>
#include <asm/processor.h>
#include <uapi/syscalls.h>

#define NR_TASKS	32
#define TASK_NAME_LEN	16
#define KSTACK_PAGES	2	/* 8 KiB of kernel stack per task */

/*
 * An address space: what threads share (Linux's mm_struct, cut down).
 * It lives as long as a task uses it (users, kernel/mm.c): the last
 * task to leave frees its pages and its page directory.  Its two locks:
 *
 *   brk_lock    one change of the heap's end at a time.  Held across the
 *               TLB shootdown, which waits for other CPUs, so it is taken
 *               with interrupts ON (a CPU spinning for it must still
 *               answer a shootdown): rank below the run queue's.
 *   table_lock  the heap's bounds and the user pages' entries: a page
 *               fault in a shared space maps a page under it (interrupts
 *               off; user_fault.c says why an unshared one needs none),
 *               sys_brk clears entries under it.  Never held while waiting for
 *               another CPU: a CPU that faults spins for it with
 *               interrupts off, and could not answer.
 *
 * cpu_mask: bit n set while CPU n has this page directory in %cr3, so
 * may hold TLB entries of it.  Set (atomically) before the context
 * switch loads %cr3, cleared after it loads another: a CPU that is not
 * in the mask loads the tables afresh when it next switches in, and
 * so sees every change made before it did.  docs/smp.md, "TLB shootdown".
 */
struct mm {
	u32 *pgd;		/* page directory */
	u32 brk_start, brk;	/* the heap: [brk_start, brk), paged in on use */
	unsigned int users;	/* tasks using it (kernel/mm.c); 0: slot free */
	volatile cpumask_t cpu_mask;	/* CPUs that have it loaded (atomic bit ops) */
	spinlock_t brk_lock;	/* LOCK_RANK_MM_BRK, interrupts on */
	spinlock_t table_lock;	/* LOCK_RANK_MM_TABLES, interrupts off */
};

enum task_state {
	TASK_UNUSED,
	TASK_RUNNABLE,		/* running, or waiting for the CPU */
	TASK_SLEEPING,		/* until a tick, a child's exit, ... */
	TASK_ZOMBIE,		/* exited; its parent has not collected it */
};

struct task {
	/* First, so that &task->thread is the task's own address: the
	 * context switch hands it to load_esp0 and load_tls (patch sites that
	 * take it in a register) without computing it. */
	struct thread_struct thread;
	int pid;
	char name[TASK_NAME_LEN];
	enum task_state state;	/* under the run queue's lock (sched.c) */
	bool on_cpu;		/* running on a CPU now: no other CPU may pick it
				   (set and cleared under the run queue's lock) */
	unsigned int cpu;	/* the CPU it runs or last ran on (same lock) */
	bool bound;		/* runs on `cpu` only (the boot thread: CPU 0) */
	bool user;		/* runs a program in ring 3 */
	u32 kstack;		/* lowest address of its kernel stack */
	u32 kstack_size;
	u32 kernel_esp;		/* saved by the context switch */
	struct mm *mm;		/* its address space; NULL for kernel threads */
	u32 *pgd;		/* mm's page directory, or kernel_page_dir:
				   what the context switch loads */
	struct task *parent;
	int exit_status;
	unsigned long wake_tick;	/* if timed_sleep: sleeping until this tick */
	bool timed_sleep;
	void *wait_channel;	/* what it sleeps on, if not a tick */
	u32 stack_bottom;	/* the lowest address its stack may grow to */
	char arg[64];		/* the argument string spawn gave it */
	bool io_allowed;	/* may ask for I/O privilege */
	unsigned long slice;	/* ticks left before preemption */
	unsigned long switches;	/* times it was switched in */
	bool kill_requested;	/* kill: ends on its way back to user mode */
	bool user_fault_no_memory;	/* its last user fault found no free
					   page (user_fault.c): uaccess.c
					   answers -ENOMEM, not -EFAULT */
	void (*thread_fn)(void);	/* a kernel thread's work */
	struct fd fds[NR_FDS];	/* its descriptors (fd.c): its own table,
				   read and changed by this task alone */
};

/* The task table's lock (task.c) and the run queue's (sched.c): named
 * here for the lock tests and the lock debugger's reports; docs/smp.md
 * says what each guards. */
extern spinlock_t task_lock, runqueue_lock;

/* The exit status of a task the kernel killed (uapi/syscalls.h). */
#define EXIT_KILLED(vector)	(-EXIT_KILLED_BASE - (int)(vector))
/* ... and of one killed on request (the shell's kill): past every vector. */
#define EXIT_KILLED_BY_REQUEST	(-EXIT_KILLED_BASE - 256)

void task_init(void);			/* the boot thread becomes a task */
struct task *task_create_kernel(const char *name, void (*fn)(void));	/* or panic */
/* The same for a thread the kernel can do without: NULL and *err
 * (-EAGAIN: no task slot; -ENOMEM: no stack) if it cannot be made. */
struct task *task_try_create_kernel(const char *name, void (*fn)(void), int *err);
/* A program's task started with no descriptors (the kernel's threads
 * have none): its pid or -errno. */
int task_spawn(const char *program, const char *arg);
/* A user task made but not started, so that the layer above can give it
 * a copy of the current task's descriptors first (syscall.c): a child
 * running program, or a thread of the current task (same address space,
 * starting at entry with stack pointer esp).  The task, or NULL and
 * *err.  task_start puts it on the run queue: its pid. */
struct task *task_make_spawn(const char *program, const char *arg, int *err);
struct task *task_make_thread(u32 entry, u32 esp, int *err);
int task_start(struct task *t);
/* kernel/mm.c: a new address space (users 1) or NULL if none is free;
 * one user more; one user fewer, the last freeing it. */
struct mm *mm_alloc(void);
void mm_get(struct mm *mm);
bool mm_get_unless_zero(struct mm *mm);	/* false: it has no user left */
void mm_put(struct mm *mm);
/* Live task pid's address space, held (mm_put when done), *mm NULL for a
 * kernel thread, its name copied into name: 0, or -ESRCH if pid is no
 * live task.  For reading another task's space or tables. */
int task_get_mm(int pid, struct mm **mm, char *name, size_t size);
int task_wait(int pid, int *status);	/* pid collected, or -ECHILD */
/* The same, the child collected only if deliver(arg, its status) gives 0
 * (else deliver's error, and the child stays for the next wait). */
int task_wait_deliver(int pid, int (*deliver)(void *arg, int status), void *arg);
/* The end of the current task, its descriptors closed already (a user
 * task ends through exit.c). */
void task_exit(int status) __noreturn;
void task_reap_orphans(void);
int task_reap(int *status);		/* an ended child's pid, 0, or -ECHILD */
int task_kill_pid(int pid);		/* 0, -ESRCH, or -EPERM (not a user task) */
struct task *task_by_pid(int pid);
struct task *task_after(struct task *t);	/* next in the table, wrapping */
unsigned int tasks_alive(void);
unsigned int task_slots_free(void);
void task_for_each(void (*fn)(struct task *t));

/* kernel/sched.c (and schedule, sched_need_resched: arch_door.h) */
void sched_init(void);
void sched_yield(void);
int sched_sleep_ticks(unsigned long ticks);	/* 0 or -EINVAL */
void sched_sleep_on(void *channel);	/* interrupts off; wake_up(channel) ends it */
/* The same, lock released once the run queue is held, and taken again. */
void sched_sleep_on_lock(void *channel, spinlock_t *lock);
void sched_wake_up(void *channel);
void sched_wake_task(struct task *t);	/* if it sleeps, runnable */
void sched_start_task(struct task *t);	/* a new task, runnable */
void sched_release_task(struct task *t);	/* off its stack, its slot unused */
/* The current task a zombie, parent woken, table_lock released: never returns. */
void sched_exit(struct task *parent, spinlock_t *table_lock) __noreturn;
struct task *task_create_idle(unsigned int cpu, void (*fn)(void));	/* task.c */
void sched_tick(void);			/* the timer's tick (timer_init) */
void sched_wake_due(void);		/* the clock's: sleepers whose tick came */
unsigned long sched_migrations(void);	/* switches to a task last run elsewhere */
unsigned long sched_ticks_locked(void);	/* scheduler ticks that took runqueue_lock */
u64 sched_idle_tsc(void);		/* TSC counts spent idle, halted */

#endif
