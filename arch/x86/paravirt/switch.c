/*
 * switch.c - live switching: another backend's table put into
 * paravirt_ops while the kernel runs (`pv use trace`, `pv use native`).
 *
 * Step by step, with interrupts off from the first write to the last:
 *   1. the new backend prepares its table (before anything changes, so
 *      a backend that refuses leaves the kernel exactly as it was);
 *   2. every site outside the code writer's fence is rewritten, from the
 *      bytes the build recorded, into what the new table makes it -
 *      inline native instructions or a direct call - by the one routine
 *      that writes kernel code, kernel_text_poke(), which serializes
 *      (sync_core) after each write;
 *   3. the table is installed (install.c: behind the counting stubs if
 *      counting).
 *
 * Why that is safe on pv386's one CPU: with interrupts off nothing else
 * runs, so no site executes half-written; no task is stopped inside a
 * site either, because tasks switch only in schedule(), which no op
 * calls and which interrupts from kernel mode never reach; and the
 * writer's own sites (fenced) are never rewritten, so it never runs code
 * it is changing.  Between steps 2 and 3 a site may already call the new
 * backend while the table still holds the old one, or the reverse: both
 * do the same native work, so the only difference is what trace counts.
 * Under nopatch the sites stay indirect calls and only the table changes.
 */
#include <kernel.h>
#include <asm/atomic.h>
#include <asm/paravirt.h>
#include <task.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/stop_cpus.h>

static unsigned long switches;

/* One switch at a time: a second caller (another CPU's shell command or
 * test) is told the table is busy rather than made to wait. */
static volatile u32 switching;

/* Steps 1-3 with the other CPUs stopped; the rom backend's prepare
 * writes the ROM's code, which they may be running, so it waits too. */
static int switch_stopped(const char *name, const char **why)
{
	const struct paravirt_ops *ops;
	unsigned long flags;
	int err;

	ops = paravirt_prepare_backend(name, why, &err);
	if (!ops)
		return err;
	flags = raw_local_irq_save();
	paravirt_patch_switch(ops);
	paravirt_install_ops(ops);
	paravirt_patch_recount();
	switches++;
	raw_local_irq_restore(flags);
	*why = NULL;
	return 0;
}

/* Why the switch was refused: which CPU did not stop, running what. */
static const char *late_cpu_reason(unsigned int cpu)
{
	static char reason[96];		/* *why must outlive the call */
	const struct task *t = per_cpu(cpu)->current_task;

	snprintf(reason, sizeof(reason), "CPU %u (running task %d, %s) did not come "
		 "to a safe point in time", cpu, t->pid, t->name);
	return reason;
}

int paravirt_switch_backend(const char *name, const char **why)
{
	unsigned int late;
	int err;

	if (xchg(&switching, 1)) {
		*why = "another CPU is switching the backend";
		return -EBUSY;
	}
	err = stop_other_cpus(&late);
	if (err)
		*why = late_cpu_reason(late);
	else
		err = switch_stopped(name, why);
	resume_other_cpus();
	barrier();	/* x86 keeps stores in order: the switch's are out */
	switching = 0;
	return err;
}

unsigned long paravirt_switch_count(void)
{
	return switches;
}
