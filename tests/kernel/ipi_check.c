/*
 * ipi_check.c - for tests: every other CPU online answers a reschedule
 * IPI (ipi_check.h).  The count each CPU keeps of the IPIs it received
 * (arch/x86/kernel/smp/ipi.c) shows that the message arrived, not only that
 * the CPU ran again.
 */
#include <task.h>
#include <asm/smp.h>
#include <asm/timer.h>
#include "ipi_check.h"

static unsigned int cpus_that_answered(const unsigned long *before)
{
	unsigned int cpu, answered = 0;

	for_each_online_cpu(cpu)
		answered += cpu != smp_processor_id() &&
			    ipi_reschedule_count(cpu) > before[cpu];
	return answered;
}

bool other_cpus_answer_an_ipi(unsigned long ticks)
{
	unsigned long before[NR_CPUS], end = timer_ticks() + ticks;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		before[cpu] = ipi_reschedule_count(cpu);
	smp_send_reschedule_others();
	do {
		if (cpus_that_answered(before) == num_online_cpus() - 1)
			return true;
		sched_sleep_ticks(1);
	} while ((long)(timer_ticks() - end) < 0);
	return false;
}
