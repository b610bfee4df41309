/*
 * pmc.c - a per-task readout of performance counter 0.
 *
 * Where rdpmc works (P6 and later; an emulator may not implement it),
 * CR4.PCE lets ring 3 read the counters too.  The kernel keeps each
 * task's share: at every switch it reads the counter and adds the time
 * since the task was switched in.  Where rdpmc faults, the exception
 * table turns that into -EFAULT, the boot log says so, and counting is
 * off.  Which event counter 0 counts is the firmware's choice: pv386
 * does not program the event selectors, it only shows the op at work.
 */
#include <kernel.h>
#include <task.h>
#include <asm/cpu.h>
#include <asm/privileged.h>
#include <asm/process.h>
#include <asm/processor-flags.h>

static bool pmc_works;
static u64 pmc_at_switch;

void pmc_init(void)
{
	u64 v;

	if (rdpmc_safe(0, &v)) {
		printk("pmc: rdpmc faults on this CPU: per-task counts off\n");
		return;
	}
	pmc_works = true;
	pmc_at_switch = v;
	if (boot_cpu.has_cr4)
		write_cr4(read_cr4() | X86_CR4_PCE);
	printk("pmc: counter 0 read at every switch%s\n",
	       boot_cpu.has_cr4 ? ", CR4.PCE set" : "");
}

void pmc_switch(struct task *prev, struct task *next)
{
	u64 now;

	(void)next;
	if (!pmc_works || rdpmc_safe(0, &now))
		return;
	prev->thread.pmc_count += now - pmc_at_switch;
	pmc_at_switch = now;
}

/* -ENODEV where there is nothing to read. */
int arch_task_pmc(struct task *t, u64 *count)
{
	u64 now;

	if (!pmc_works)
		return -ENODEV;
	*count = t->thread.pmc_count;
	if (t == current && !rdpmc_safe(0, &now))
		*count += now - pmc_at_switch;
	return 0;
}
