/*
 * hw_breakpoint.c - data watchpoints for user tasks, in the debug
 * registers.
 *
 * DR0-DR3 hold addresses; DR7 arms them (asm/debug_regs.h): for slot i, a
 * local-enable bit, the condition "data writes" and a length.  A write
 * to a watched address raises #DB after the write; DR6 says which slot
 * fired.
 * The registers belong to the running task: the context switch loads
 * them (process.c).
 */
#include <kernel.h>
#include <task.h>
#include <asm/debug_regs.h>
#include <asm/paging.h>
#include <asm/privileged.h>
#include <asm/process.h>

static int len_code(u32 len)
{
	switch (len) {
	case 1: return 0;
	case 2: return 1;
	case 4: return 3;
	default: return -1;
	}
}

/* Arms the first free slot on [addr, addr + len); returns it or -errno. */
int arch_set_watchpoint(struct task *t, u32 addr, u32 len)
{
	struct thread_struct *th = &t->thread;
	int code = len_code(len), i;

	if (code < 0 || addr % len || addr < USER_BASE || addr >= USER_END)
		return -EINVAL;
	for (i = 0; i < NR_WATCHPOINTS; i++)
		if (!(th->dr7 & DR7_LOCAL_ENABLE(i)))
			break;
	if (i == NR_WATCHPOINTS)
		return -EBUSY;
	th->debugreg[i] = addr;
	th->dr7 |= DR7_LOCAL_ENABLE(i) | DR7_RW_WRITE(i) | DR7_LEN(i, code);
	if (t == current) {
		set_debugreg(i, addr);
		set_debugreg(7, th->dr7);
	}
	return i;
}

/* The watchpoints of the current task that DR6 says fired. */
static u32 fired_slots(u32 dr6)
{
	u32 fired = 0;
	int i;

	for (i = 0; i < NR_WATCHPOINTS; i++)
		if (dr6 & (1u << i) && current->thread.dr7 & DR7_LOCAL_ENABLE(i))
			fired |= 1u << i;
	return fired;
}

/*
 * A #DB in ring 0 from a task's watchpoint: the kernel wrote the watched
 * place on the task's behalf (wait() filling in a status, say).  That is
 * no news to anyone: clear DR6 and go on, quietly.
 */
bool arch_kernel_hit_user_watchpoint(void)
{
	if (!fired_slots(get_debugreg(6)))
		return false;
	set_debugreg(6, 0);
	return true;
}

/*
 * A #DB from ring 3: if DR6 says a watchpoint fired, report it and let
 * the task go on (the write has happened; EIP is past it).  DR6 is
 * sticky, so clear it for the next one.  False: some other debug trap.
 */
bool arch_report_watchpoint(struct pt_regs *regs)
{
	u32 dr6 = get_debugreg(6);
	int i;

	set_debugreg(6, 0);
	/* A single step is never a watchpoint's doing, even with a stale
	 * B0-B3 beside it: it ends the task like any other #DB from ring 3. */
	if (dr6 & DR6_BS)
		return false;
	for (i = 0; i < NR_WATCHPOINTS; i++) {
		if (!(fired_slots(dr6) & (1u << i)))
			continue;
		printk("task %d (%s): watchpoint %d: write to %08x, eip %08x (dr6 %08x)\n",
		       current->pid, current->name, i, current->thread.debugreg[i],
		       regs->eip, dr6);
		return true;
	}
	return false;
}
