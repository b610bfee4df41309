/*
 * ipi.c - interrupts between CPUs.  Two kinds: the TLB shootdown's
 * request (its handler and protocol in arch/x86/mm/tlb.c), and the reschedule
 * IPI, which only makes its CPU look at the run queue.  The scheduler
 * sends it when it makes a task runnable while another CPU idles in
 * hlt (a wake-up, a new task), or when it asks a task that runs on
 * another CPU to die (kill): that CPU then comes into the kernel and
 * meets the request on its way back to user mode (entry/common.c).
 * The live backend switch sends it too, to bring every CPU to a safe
 * point (arch/x86/kernel/smp/stop_cpus.c).
 *
 * The handler does almost nothing on purpose: need_resched is enough,
 * since every CPU calls schedule() on its way back to user mode and in
 * its idle loop when it is set.  Linux's reschedule IPI is as small.
 */
#include <kernel.h>
#include <asm/apic.h>
#include <asm/traps.h>
#include <asm/percpu.h>
#include <asm/smp.h>
#include <asm/tlbflush.h>

volatile cpumask_t smp_online_mask = 1;	/* the boot CPU */
volatile unsigned int smp_nr_online = 1;

static unsigned long reschedules[NR_CPUS];	/* each CPU its own */

/* The EOI first: the way out may switch tasks, and the APIC must not
 * hold this vector in service meanwhile. */
static void reschedule_interrupt(struct pt_regs *regs)
{
	(void)regs;
	apic_eoi();
	reschedules[smp_processor_id()]++;
	this_cpu_write(need_resched, true);
}

void ipi_init(void)
{
	set_intr_handler(IPI_RESCHEDULE_VECTOR, reschedule_interrupt);
	set_intr_handler(IPI_TLB_FLUSH_VECTOR, tlb_flush_interrupt);
}

void smp_send_reschedule(unsigned int cpu)
{
	if (cpu_online(cpu) && cpu != smp_processor_id())
		apic_send_ipi(smp.cpu[cpu].apic_id, IPI_RESCHEDULE_VECTOR);
}

/* One by one, not the all-but-self shorthand: a CPU left out or not
 * started must not be sent anything. */
void smp_send_reschedule_others(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		smp_send_reschedule(cpu);
}

unsigned long ipi_reschedule_count(unsigned int cpu)
{
	return cpu < NR_CPUS ? reschedules[cpu] : 0;
}
