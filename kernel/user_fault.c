/*
 * user_fault.c - page faults in user space that are not errors.
 *
 * A task's heap (up to its brk) and stack (down to stack_bottom) get
 * pages only when they are first touched: the fault lands here, a zeroed
 * page is mapped, and the faulting instruction runs again.  Anything
 * else in user space is an error: the caller kills the task (or, for a
 * fault inside a system call, returns -EFAULT).
 */
#include <kernel.h>
#include <task.h>
#include <asm/paging.h>

enum user_fault user_fault_resolve(u32 addr)
{
	struct task *t = current;
	bool heap = addr >= t->brk_start && addr < t->brk;
	bool stack = addr >= t->stack_bottom && addr < USER_END;

	if (!t->user || (!heap && !stack))
		return addr >= t->stack_bottom - PAGE_SIZE && addr < t->stack_bottom ?
		       USER_FAULT_STACK_OVERFLOW : USER_FAULT_BAD_ADDRESS;
	if (map_user_page(t->pgd, addr & PAGE_MASK, true))
		return USER_FAULT_NO_MEMORY;
	return USER_FAULT_RESOLVED;
}
