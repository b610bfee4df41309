/*
 * arch_door.h - the door from arch/ into kernel/: every function of the
 * kernel proper that the x86 code calls.
 *
 * The kernel calls arch freely, through include/asm/; arch calls back
 * only here, so that the layers stay one-way everywhere else and a
 * reader sees in one place what the machine side asks of the kernel.
 * Its names are listed in include/arch_door.list, which tools/audit-calls
 * reads and checks on the built objects: an arch file that calls any
 * other kernel function fails the suite, and so does any call loop
 * between files that does not pass through this door, and so does a
 * kernel function declared here or in a header included here that the
 * list does not name - add it there, on purpose, or do not declare it.
 *
 * Besides these, arch uses the kernel's services, which call nothing of
 * arch's back but to print a panic: printk and panic (kernel.h), the
 * string routines (string.h), sorting a few numbers (sort.h), page
 * frames (page_alloc.h), boot options (cmdline.h), consoles (console.h),
 * the RAM map (ram_map.h), the kernel's symbol table (ksyms.h), and the
 * spinlocks' out-of-line forms (spinlock.h, which console.h and
 * page_alloc.h include).
 */
#ifndef PV386_ARCH_DOOR_H
#define PV386_ARCH_DOOR_H

#include <kernel.h>
#include <cmdline.h>
#include <console.h>
#include <ksyms.h>
#include <page_alloc.h>
#include <ram_map.h>
#include <sort.h>
#include <string.h>

struct pt_regs;

/* ---- the way back to user mode (asm: exit_to_user_mode) ---- */

/* Whether the current task's time is up: schedule() before returning. */
bool sched_need_resched(void);
/* Give the CPU to the next task in turn (perhaps the current one). */
void schedule(void);
/* A new task's first code, its first switch's lock released (sched.c). */
void sched_first_switch(void);

/*
 * End the current task with exit status status, printing
 * "task N (name) killed: " and the message: the one way a task is
 * killed, for a CPU exception (EXIT_KILLED(vector)) or on request
 * (EXIT_KILLED_BY_REQUEST).
 */
void kill_current(int status, const char *fmt, ...) __printf(2, 3) __noreturn;

/* ---- a CPU coming up (smpboot.c) ---- */

struct task;
/* On the boot CPU, before the AP starts: CPU cpu's idle task, made but
 * never picked by another CPU; the AP runs on its kernel stack. */
struct task *sched_create_idle(unsigned int cpu);
/* On the AP, its per-CPU area loaded and its idle task current: the
 * scheduler's loop, for good. */
void sched_run_idle(void) __noreturn;

/* ---- what a trap asks of the kernel ---- */

/* System call nr with its arguments: the value for the user's EAX. */
long do_syscall(struct pt_regs *regs, u32 nr, u32 a, u32 b, u32 c);

/* kernel/user_fault.c: a page fault at a user address of the current task. */
enum user_fault {
	USER_FAULT_RESOLVED,		/* a page was mapped: try again */
	USER_FAULT_BAD_ADDRESS,		/* nothing belongs there */
	USER_FAULT_STACK_OVERFLOW,	/* just below the stack's limit */
	USER_FAULT_NO_MEMORY,		/* it belongs, but RAM ran out */
};
enum user_fault user_fault_resolve(u32 addr);

#endif
