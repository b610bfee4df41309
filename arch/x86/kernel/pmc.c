/*
 * pmc.c - a per-task readout of performance counter 0.
 *
 * Where rdpmc works (P6 and later; an emulator may not implement it),
 * CR4.PCE lets ring 3 read the counters too.  The kernel keeps each
 * task's share: at every switch it reads the counter and adds the time
 * since the task was switched in.  Where rdpmc faults, the exception
 * table turns that into -EFAULT, the boot log says so, and counting is
 * off.  Counter 0 is set to count instructions (read_msr, write_msr),
 * where pv386 knows the CPU's event-select MSR: Intel's P5 CESR, the P6
 * and later PERFEVTSEL0, AMD's PERFEVTSEL0.
 */
#include <kernel.h>
#include <string.h>
#include <task.h>
#include <asm/cpu.h>
#include <asm/msr_index.h>
#include <asm/privileged.h>
#include <asm/percpu.h>
#include <asm/process.h>
#include <asm/processor-flags.h>

#define P5_INSTRUCTIONS_ALL_RINGS	(0x16 | 3 << 6)	/* event, CC0 = any CPL */
#define EVTSEL_INST_RETIRED	(0xc0 | 1 << 16 | 1 << 17 | 1 << 22) /* USR OS EN */

static bool pmc_works;

#define P5_CESR_COUNTER0	0x1ffu	/* event and control of counter 0 */
#define EVTSEL_OURS		0x00ffffffu	/* all but the counter mask */

/*
 * Set the given bits of an event-select MSR, keeping the others as they
 * were: the P5's CESR drives counter 1 too, and the later MSRs have
 * reserved bits that must be written back unchanged.
 */
static bool evtsel_update(u32 msr, u32 mask, u32 bits)
{
	u64 v;

	if (rdmsr_safe(msr, &v))
		return false;
	return !wrmsr_safe(msr, (v & ~(u64)mask) | bits);
}

/* Counter 0 to count instructions; false where pv386 knows no way. */
static bool program_counter0(void)
{
	bool intel = !strcmp(boot_cpu.vendor, "GenuineIntel");

	if (!cpu_has(X86_FEATURE_MSR))
		return false;
	if (intel && boot_cpu.family == 5)
		return evtsel_update(MSR_P5_CESR, P5_CESR_COUNTER0,
				     P5_INSTRUCTIONS_ALL_RINGS);
	if (intel && boot_cpu.family >= 6)
		return evtsel_update(MSR_P6_PERFEVTSEL0, EVTSEL_OURS, EVTSEL_INST_RETIRED);
	if (!strcmp(boot_cpu.vendor, "AuthenticAMD") && boot_cpu.family >= 6)
		return evtsel_update(MSR_K7_PERFEVTSEL0, EVTSEL_OURS, EVTSEL_INST_RETIRED);
	return false;
}

void pmc_init(void)
{
	bool programmed = program_counter0();
	u64 v;

	if (rdpmc_safe(0, &v)) {
		printk("pmc: rdpmc faults on this CPU: per-task counts off\n");
		return;
	}
	pmc_works = true;
	this_cpu_ptr()->pmc_at_switch = v;
	if (boot_cpu.has_cr4)
		write_cr4(read_cr4() | X86_CR4_PCE);
	printk("pmc: counter 0 (%s) read at every switch%s\n",
	       programmed ? "instructions" : "left as the firmware set it",
	       boot_cpu.has_cr4 ? ", CR4.PCE set" : "");
}

void pmc_switch(struct task *prev, struct task *next)
{
	struct percpu *cpu;
	u64 now;

	(void)next;
	if (!pmc_works || rdpmc_safe(0, &now))
		return;
	cpu = this_cpu_ptr();
	prev->thread.pmc_count += now - cpu->pmc_at_switch;
	cpu->pmc_at_switch = now;
}

/* -ENODEV where there is nothing to read. */
int arch_task_pmc(struct task *t, u64 *count)
{
	u64 now;

	if (!pmc_works)
		return -ENODEV;
	*count = t->thread.pmc_count;
	if (t == current && !rdpmc_safe(0, &now))
		*count += now - this_cpu_ptr()->pmc_at_switch;
	return 0;
}
