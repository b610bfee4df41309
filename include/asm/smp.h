/*
 * asm/smp.h - the machine's CPUs as the kernel knows them: found at boot
 * in the firmware's tables (asm/cpu_tables.h), trimmed by the `nosmp` and
 * `smp=N` boot options.  Only the boot CPU runs yet: the application
 * processors are found and listed, not started (issue 27's first step).
 *
 * A CPU without CPUID or without a local APIC (a 386, a 486, QEMU's
 * -cpu 486), and a guest of a pv386 host, stay uniprocessor: their
 * tables, if any, are not read.
 */
#ifndef ASM_SMP_H
#define ASM_SMP_H

#include <asm/cpu_tables.h>

/* boot_apic_id where the CPU has no local APIC: no APIC id is this. */
#define SMP_NO_APIC_ID	0x100u

/* What kmain learnt, for the `cpus` command and later the AP start-up. */
struct smp_state {
	struct cpu_tables tables;	/* source CPU_TABLES_NONE: only the boot CPU */
	const char *up_reason;		/* why the tables were not used, or NULL */
	unsigned int boot_apic_id;	/* SMP_NO_APIC_ID where there is none */
	unsigned int to_use;		/* enabled CPUs, capped by nosmp/smp=N */
	const char *cap;		/* "nosmp", "smp=N" or NULL */
	unsigned int running;		/* 1: APs are not started yet */
};

extern struct smp_state smp;

/* Find the CPUs: after cpu_detect (the APIC flag, cpuid) and before
 * paging_init (the tables lie anywhere in the first 4 GiB and in page 0's
 * BIOS data area, which paging leaves unmapped).  Prints one line. */
void smp_find_cpus(void);

#endif
