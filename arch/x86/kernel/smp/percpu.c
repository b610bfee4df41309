/*
 * percpu.c - the per-CPU areas (asm/percpu.h): where they live, and
 * putting one in place on the CPU that owns it.
 *
 * CPU 0's area is static: the boot CPU needs its GDT and TSS before the
 * page allocator exists, and a machine that stays uniprocessor (a 386,
 * a 486 without an APIC, a guest, nosmp) then pays for no other.  An
 * AP's area comes from the page allocator when the start-up prepares
 * it, so only CPUs that exist take memory (a 4 MiB machine has none to
 * spare for eight areas of 9.5 KiB).
 */
#include <kernel.h>
#include <string.h>
#include <page_alloc.h>
#include <uapi/errno.h>
#include <asm/desc.h>
#include <asm/paging.h>
#include <asm/percpu.h>
#include <asm/processor.h>
#include <asm/smp.h>
#include <asm/syscall.h>

static struct percpu boot_cpu_area __attribute__((aligned(PAGE_SIZE)));

struct percpu *percpu_areas[NR_CPUS] = { [0] = &boot_cpu_area };

/* What an AP runs with before its idle task: null TLS slots, and an
 * esp0 that tss_fill sets and copies at once (so one serves every AP,
 * set up one after the other on the boot CPU). */
static struct thread_struct ap_boot_thread;

/* The fields every CPU's area starts with, then its GDT and TSS. */
static void percpu_fill(struct percpu *pc, unsigned int cpu, unsigned int apic_id,
			struct thread_struct *boot)
{
	pc->self = pc;
	pc->cpu = cpu;
	pc->apic_id = apic_id;
	tss_fill(pc, boot);
	gdt_fill(pc);
}

/* CPU 0: its area built and loaded, %fs now usable.  Its APIC id is not
 * known yet (smp_find_cpus reads it later; the start-up records it). */
void percpu_init_boot_cpu(void)
{
	percpu_fill(&boot_cpu_area, 0, SMP_NO_APIC_ID, &init_thread);
	gdt_load(&boot_cpu_area, &init_thread);
}

/* On the boot CPU, before the AP starts: its area, in pages of its own. */
int percpu_setup_ap(unsigned int cpu, unsigned int apic_id)
{
	unsigned int pages = (sizeof(struct percpu) + PAGE_SIZE - 1) / PAGE_SIZE;
	struct percpu *pc;

	if (cpu == 0 || cpu >= NR_CPUS)
		return -EINVAL;
	pc = percpu_areas[cpu];
	if (!pc) {
		pc = (struct percpu *)pages_alloc(pages);	/* zeroed, mapped 1:1 */
		if (!pc)
			return -ENOMEM;
	}
	memset(pc, 0, sizeof(*pc));
	percpu_fill(pc, cpu, apic_id, &ap_boot_thread);
	percpu_areas[cpu] = pc;
	return 0;
}

/* On the CPU itself: its tables, its %fs, its sysenter MSRs (which are
 * the CPU's own, so only it can write them). */
void percpu_load_this_cpu(unsigned int cpu)
{
	struct percpu *pc = percpu_areas[cpu];

	gdt_load(pc, cpu ? &ap_boot_thread : &init_thread);
	syscall_cpu_init();
}
