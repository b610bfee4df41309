/*
 * user_fault.c - page faults in user space that are not errors.
 *
 * A task's heap (up to its brk) and stack (down to stack_bottom) get
 * pages only when they are first touched: the fault lands here, a zeroed
 * page is mapped, and the faulting instruction runs again.  Anything
 * else in user space is an error: the caller kills the task (or, for a
 * fault inside a system call, returns -EFAULT).  A page that RAM cannot
 * back is no error of the address: a system call that meets it answers
 * -ENOMEM (user_fault_no_memory), the program itself is killed.
 */
#include <kernel.h>
#include <task.h>
#include <asm/paging.h>

/*
 * Under the space's table lock when threads share it: two of them may
 * fault on the same page on two CPUs at once (one frame, not two), and a
 * shrinking brk on a third must find the page either mapped or not (its
 * new end is set under the same lock).  A space this task alone uses
 * needs no lock, and a page fault is a hot path: only this task could
 * add a user (sys_thread) or change the heap (sys_brk), and it is here.
 * A count that falls to 1 meanwhile only costs a lock not needed.
 */
enum user_fault user_fault_resolve(u32 addr)
{
	struct task *t = current;
	struct mm *mm = t->mm;
	enum user_fault r = USER_FAULT_RESOLVED;
	bool heap, stack = addr >= t->stack_bottom && addr < USER_END, shared;
	unsigned long flags = 0;

	if (!t->user || !mm)
		return USER_FAULT_BAD_ADDRESS;
	shared = *(volatile unsigned int *)&mm->users > 1;
	if (shared)
		spin_lock_irqsave_call(&mm->table_lock, &flags);
	heap = addr >= mm->brk_start && addr < mm->brk;
	if (!heap && !stack)
		r = addr >= t->stack_bottom - PAGE_SIZE && addr < t->stack_bottom ?
		    USER_FAULT_STACK_OVERFLOW : USER_FAULT_BAD_ADDRESS;
	else if (map_user_page(t->pgd, addr & PAGE_MASK, true))
		r = USER_FAULT_NO_MEMORY;
	t->user_fault_no_memory = r == USER_FAULT_NO_MEMORY;
	if (shared)
		spin_unlock_irqrestore_call(&mm->table_lock, flags);
	return r;
}
