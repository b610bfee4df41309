/*
 * common.c - the way back to user mode, which every entry from it
 * shares: interrupts, exceptions and system calls through int $0x80
 * (trap_dispatch) and sysenter (sysenter_dispatch) all end here, just
 * before the registers are restored.
 *
 * Here, and only here, the kernel lets go of the CPU for a task that
 * came from ring 3: it is the one place where the task holds nothing of
 * the kernel's, so it is where preemption happens, and where a task
 * that must not go back - killed on request, or found in virtual-8086
 * mode - ends instead.
 */
#include <arch_door.h>
#include <task.h>
#include <asm/processor-flags.h>
#include <asm/traps.h>

const char *vm86_reason(const struct pt_regs *regs, char *buf, size_t size)
{
	snprintf(buf, size, "in virtual-8086 mode at %04x:%04x, which only a faulty "
		 "CPU lets ring 3 enter", regs->cs & 0xffff, regs->eip & 0xffff);
	return buf;
}

/*
 * A task that an interrupt or a system gate found in virtual-8086 mode
 * (an exception there never gets this far: traps.c kills it at once)
 * is never resumed there: it dies as if for the #GP a CPU would have
 * raised at its iret.
 */
void exit_to_user_mode(struct pt_regs *regs)
{
	char reason[96];

	if (regs->eflags & X86_EFLAGS_VM)
		kill_current(EXIT_KILLED(X86_TRAP_GP), "%s",
			     vm86_reason(regs, reason, sizeof(reason)));
	if (sched_need_resched())
		schedule();
	if (current->kill_requested)
		kill_current(EXIT_KILLED_BY_REQUEST, "by request (kill)");
}
