/*
 * ioperm.c - I/O privilege for user tasks.
 *
 * With IOPL 3 in EFLAGS, ring 3 may use in/out (and cli/sti); with IOPL 0
 * every one of them raises #GP.  pv386 grants IOPL 3 only to a program
 * the `iopl=` boot option names (kernel/syscall.c) that asks for it.
 * In a guest of a pv386 host the CPU's IOPL stays 0 and the host does
 * such a program's in and out for it (docs/guest.md), told through the
 * same set_iopl_mask.
 * Two places hold a task's IOPL: the EFLAGS of its saved user frame,
 * which iret restores, and the kernel's own EFLAGS while it runs for the
 * task, which sysexit keeps; so set_iopl_mask changes the running EFLAGS
 * now.  thread.iopl is what sysenter_dispatch puts back in them at every
 * entry, and the flags schedule() saves carry it across switches (a
 * guest's host hears of it there too: process.c).
 */
#include <kernel.h>
#include <task.h>
#include <asm/privileged.h>
#include <asm/processor.h>
#include <asm/process.h>
#include <asm/processor-flags.h>

int arch_set_iopl(struct task *t, struct pt_regs *regs, unsigned int level)
{
	u32 iopl;

	if (level != 0 && level != 3)
		return -EINVAL;
	iopl = level << X86_EFLAGS_IOPL_BIT;
	t->thread.iopl = iopl;
	regs->eflags = (regs->eflags & ~X86_EFLAGS_IOPL) | iopl;
	set_iopl_mask(iopl);
	return 0;
}
