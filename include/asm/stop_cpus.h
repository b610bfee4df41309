/*
 * asm/stop_cpus.h - holding every other CPU at a safe point while the
 * patch sites change (arch/x86/kernel/smp/stop_cpus.c has the protocol).
 */
#ifndef ASM_STOP_CPUS_H
#define ASM_STOP_CPUS_H

/* With interrupts on: 0 once every other online CPU is stopped, or
 * -EBUSY (and none is) if one did not reach a safe point in time: the
 * first such CPU in *late_cpu. */
int stop_other_cpus(unsigned int *late_cpu);
/* Let them go: they serialize before running any rewritten code. */
void resume_other_cpus(void);
/* Where a CPU stops when asked: the top of schedule(), no lock held. */
void stop_cpus_safe_point(void);

struct stop_cpus_stats {
	unsigned long stops;		/* times the other CPUs were stopped */
	unsigned long timeouts;		/* stops refused: a CPU never came */
	unsigned long cpus_stopped;	/* CPUs that stopped, summed over the
					   stops: stops x (CPUs - 1) when each
					   stop held every other CPU (the
					   hammer test checks it) */
};
extern struct stop_cpus_stats stop_cpus_stats;

#endif
