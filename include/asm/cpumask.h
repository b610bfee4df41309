/*
 * asm/cpumask.h - how many CPUs there may be, and sets of them.
 *
 * A CPU is known by its cpu number: 0 for the boot CPU, then the APs in
 * the order they were numbered (asm/smp.h).  NR_CPUS bounds every cpu
 * number, so it sizes everything kept per CPU (the per-CPU areas, the
 * firmware tables' list of CPUs, the AP trampoline's blocks, counters),
 * and a cpumask_t holds one bit per cpu number: bit n for CPU n.
 *
 *     for_each_online_cpu(cpu)          the CPUs running the scheduler
 *     for_each_cpu(cpu, mask)           the CPUs in mask
 *     for_each_possible_cpu(cpu)        every cpu number, 0 .. NR_CPUS - 1
 *
 * Masks that other CPUs change under the reader (an address space's
 * cpu_mask, a shootdown's pending answers) are changed with
 * cpumask_set_atomic and cpumask_clear_atomic, one locked instruction.
 */
#ifndef ASM_CPUMASK_H
#define ASM_CPUMASK_H

/* The most CPUs pv386 uses (QEMU -smp 1 to 8). */
#define NR_CPUS		8

#ifndef __ASSEMBLER__

#include <types.h>
#include <asm/atomic.h>

typedef u32 cpumask_t;

_Static_assert(NR_CPUS <= 8 * sizeof(cpumask_t), "a cpumask_t has a bit for every CPU");

/* The set of CPU cpu alone. */
static inline cpumask_t cpumask_of(unsigned int cpu)
{
	return 1u << cpu;
}

static inline bool cpumask_test_cpu(unsigned int cpu, cpumask_t mask)
{
	return mask & cpumask_of(cpu);
}

#define for_each_possible_cpu(cpu)	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)

/* The body runs for each cpu in mask, lowest first; mask is read anew
 * for each cpu number. */
#define for_each_cpu(cpu, mask)						\
	for_each_possible_cpu(cpu)					\
		if (!cpumask_test_cpu((cpu), (mask))) {} else

/* The CPUs that run the scheduler (asm/smp.h says how bits are set). */
extern volatile cpumask_t smp_online_mask;
#define for_each_online_cpu(cpu)	for_each_cpu((cpu), smp_online_mask)

static inline void cpumask_set_atomic(volatile cpumask_t *mask, unsigned int cpu)
{
	atomic_or(mask, cpumask_of(cpu));
}

static inline void cpumask_clear_atomic(volatile cpumask_t *mask, unsigned int cpu)
{
	atomic_and(mask, ~cpumask_of(cpu));
}

#endif /* !__ASSEMBLER__ */
#endif
