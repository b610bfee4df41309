/*
 * asm/smp.h - the machine's CPUs as the kernel knows them: found at boot
 * in the firmware's tables (asm/cpu_tables.h), trimmed by the `nosmp` and
 * `smp=N` boot options, then started (arch/x86/kernel/smp/smpboot.c): each
 * application processor (AP) to use gets a cpu number, is started with
 * INIT-SIPI-SIPI and joins the scheduler with an idle task of its own.
 * One that does not answer is named and left out.  Then the CPUs reach
 * each other with IPIs (ipi.c).
 *
 * A CPU without CPUID or without a local APIC (a 386, a 486, QEMU's
 * -cpu 486), and a guest of a pv386 host, stay uniprocessor: their
 * tables, if any, are not read.
 */
#ifndef ASM_SMP_H
#define ASM_SMP_H

#include <types.h>
#include <asm/cpu_tables.h>
#include <asm/cpumask.h>

/* boot_apic_id where the CPU has no local APIC: no APIC id is this. */
#define SMP_NO_APIC_ID	0x100u

/* What became of a CPU to use. */
enum smp_cpu_state {
	SMP_CPU_NOT_STARTED,	/* not yet, or not to be used */
	SMP_CPU_RUNNING,	/* the boot CPU, or an AP that answered */
	SMP_CPU_LEFT_OUT,	/* it did not answer the start-up */
};

/* A CPU to use, by cpu number: 0 is the boot CPU, the APs follow in
 * the table's order. */
struct smp_cpu {
	unsigned int table_index;	/* its entry in tables.cpu[] */
	unsigned int apic_id;
	enum smp_cpu_state state;
};

/* What kmain learnt, for the `cpus` command and the AP start-up. */
struct smp_state {
	struct cpu_tables tables;	/* source CPU_TABLES_NONE: only the boot CPU */
	const char *up_reason;		/* why the tables were not used, or NULL */
	unsigned int boot_apic_id;	/* SMP_NO_APIC_ID where there is none */
	unsigned int to_use;		/* enabled CPUs, capped by nosmp/smp=N */
	const char *cap;		/* "nosmp", "smp=N" or NULL */
	unsigned int running;		/* the boot CPU and the APs online */
	unsigned int nr_numbered;	/* cpu[] entries: to_use once numbered */
	struct smp_cpu cpu[NR_CPUS];
};

extern struct smp_state smp;

/* Find the CPUs: after cpu_detect (the APIC flag, cpuid) and before
 * paging_init (the tables lie anywhere in the first 4 GiB and in page 0's
 * BIOS data area, which paging leaves unmapped).  Prints one line. */
void smp_find_cpus(void);

/* Start the APs to use (smpboot.c): after the patcher has run, paging,
 * the local APIC and the timer, with interrupts on.  Prints one line
 * per CPU left out and `smp: N CPUs running`. */
void smp_boot_cpus(void);

/*
 * smp_online_mask (declared in asm/cpumask.h, for for_each_online_cpu):
 * the CPUs that run the scheduler, by cpu number: bit 0 from boot, an
 * AP's from the moment it enters its idle loop (smpboot.c).  Bits are
 * only ever set.  Read without a lock: a CPU missed because it came up
 * a moment later only misses a wake-up kick, and its own timer's tick
 * makes it look at the run queue anyway.
 */
static inline bool cpu_online(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, smp_online_mask);
}

/* Kept beside the mask, not counted from it: the context switch asks. */
extern volatile unsigned int smp_nr_online;

static inline unsigned int num_online_cpus(void)
{
	return smp_nr_online;
}

/* Interrupts between CPUs (ipi.c): make cpu look at the run queue now
 * (a task woken for it, or one it runs asked to die), or every other
 * online CPU.  A no-op where there is one CPU. */
void smp_send_reschedule(unsigned int cpu);
void smp_send_reschedule_others(void);
void ipi_init(void);			/* with apic_init, on the boot CPU */
unsigned long ipi_reschedule_count(unsigned int cpu);	/* received */

/* The cpu number of the CPU whose tables.cpu[] entry is index, or -1
 * if it has none (not to be used). */
int smp_cpu_of_table_index(unsigned int index);

/* What each AP wrote about itself once up, by cpu number, for the test
 * that it is the CPU it was meant to be: its APIC id as its own local
 * APIC gives it, and the cpu number its block gave it. */
struct smp_ap_said {
	u32 apic_id;
	u32 cpu;
};
extern struct smp_ap_said smp_ap_said[NR_CPUS];

/*
 * Test hooks of the start-up, for the in-kernel tests that must see a
 * CPU fail it; nothing else sets them, and they are set at boot, before
 * smp_boot_cpus (ktest.h, KTEST_SCENARIO).  SMP_NO_APIC_ID: none.
 *   never_start_apic_id  that CPU is sent no STARTUP: it never answers,
 *                        as a broken CPU would not, and is left out;
 *   held_late_apic_id    that CPU starts but is held in the trampoline
 *                        until the boot CPU has given up on it and
 *                        starts the next CPU: it must halt uncounted.
 */
struct smp_start_hooks {
	unsigned int never_start_apic_id;
	unsigned int held_late_apic_id;
};
extern struct smp_start_hooks smp_start_hooks;

/* Whether CPU cpu, left out, came after all and halted (its trampoline
 * block says so); the cpu held_late_apic_id holds back, or -1. */
bool smp_ap_came_late(unsigned int cpu);
int smp_held_cpu(void);

#endif
