/*
 * asm/cpu.h - what the boot CPU is and what it can do.
 *
 * arch/x86/kernel/cpu.c fills boot_cpu once at boot; everything else asks
 * cpu_has() instead of probing again.  CPU generations are told apart
 * in that one file.
 */
#ifndef ASM_CPU_H
#define ASM_CPU_H

#include <types.h>

/* CPUID leaf 1, EDX bits. */
#define X86_FEATURE_FPU		0
#define X86_FEATURE_VME		1
#define X86_FEATURE_DE		2
#define X86_FEATURE_PSE		3
#define X86_FEATURE_TSC		4
#define X86_FEATURE_MSR		5
#define X86_FEATURE_PAE		6
#define X86_FEATURE_CX8		8
#define X86_FEATURE_APIC	9
#define X86_FEATURE_SEP		11	/* sysenter/sysexit */
#define X86_FEATURE_PGE		13
#define X86_FEATURE_CMOV	15
#define X86_FEATURE_MMX		23
#define X86_FEATURE_FXSR	24
#define X86_FEATURE_SSE		25
#define X86_FEATURE_SSE2	26

struct cpuinfo_x86 {
	u8 family;		/* 3 = 386, 4 = 486, 5 = Pentium, 6 = P6 ... */
	u8 model;
	u8 stepping;
	bool has_cpuid;
	bool has_cr4;		/* Pentium and later (and some late 486s) */
	bool forced;		/* cpu= made it look older than it is */
	u32 max_leaf;		/* highest standard CPUID leaf */
	u32 features;		/* CPUID.1:EDX, minus features known broken */
	char vendor[13];	/* "GenuineIntel", or "unknown" without CPUID */
	char name[49];		/* brand string, or a name built from family */
	char hypervisor[16];	/* "none", "KVM", "QEMU TCG" ..., "unknown" */
	char hypervisor_signature[13];	/* CPUID 0x40000000, "" if not asked */
};

extern struct cpuinfo_x86 boot_cpu;

void cpu_detect(void);
bool cpu_has_long_nops(void);	/* the 0f 1f NOPs: usable before cpu_detect */
void cpu_print(void);
void cpu_print_hypervisor(void);	/* one "cpu: hypervisor: ..." line */
void cpu_setup(void);			/* cpu_setup.c */
void cpu_print_control_registers(void);

/* CR0.WP, which makes ring 0 obey read-only pages: the 486 and later. */
static inline bool cpu_has_write_protect(void)
{
	return boot_cpu.family >= 4;
}

static inline bool cpu_has(unsigned int feature)
{
	return (boot_cpu.features >> feature) & 1;
}

/*
 * Whether this machine can have more than one CPU.  Multiprocessor x86
 * begins with the local APIC (CPUID.1:EDX bit 9), which is also how
 * arch/x86/kernel/smp/discover.c finds the others; without one this CPU is alone,
 * and a lock needs no atomic instruction (asm/spinlock.h).  It is the
 * question to ask, rather than "does this CPU have xadd": a machine
 * without CPUID may be a 386 that the 486 test (EFLAGS.AC) takes for a
 * 486, as DOSBox's 386 core is, and it has no xadd.
 */
static inline bool smp_possible(void)
{
	return cpu_has(X86_FEATURE_APIC);
}

/*
 * xadd, the lock's draw (asm/spinlock.h): the 486 and later.  Asked of
 * CPUID and the APIC, not of the 486 test, which DOSBox's 386 core
 * passes without having xadd.  A CPU with either has it; a machine with
 * neither (a 386, DOSBox's 386 core, a 486 too early for CPUID) gets the
 * one-CPU form, which is right on all of them.
 */
static inline bool cpu_has_xadd(void)
{
	return boot_cpu.has_cpuid || smp_possible();
}

#endif
