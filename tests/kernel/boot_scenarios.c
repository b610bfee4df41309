/*
 * boot_scenarios.c - machines booted in a way no boot option gives, for
 * the tests that must see the kernel cope (ktest.h, KTEST_SCENARIO).
 * Each sets a test hook of the AP start-up (asm/smp.h, smp_start_hooks)
 * as `test=` is read, long before smp_boot_cpus; tests/suite/smp.py and
 * hammer.py boot them on QEMU -smp 4 or 8.
 *
 * A real machine rarely has a CPU that never answers its STARTUP, nor
 * one that answers only after the boot CPU gave up on it (a vCPU whose
 * host did not run it for ten seconds): these make both happen on
 * demand, to a CPU in the middle of the numbering, so that CPUs after
 * it are started too.
 */
#include <ktest.h>
#include <asm/smp.h>

/* APIC id 2 never answers; no tests: the kernel boots on to its shell,
 * where tests/run reads `cpus` (smp-left-out-y). */
KTEST_SCENARIO(apic2_never_answers, NULL)
{
	smp_start_hooks.never_start_apic_id = 2;
}

/* The same for the start-up's own tests, with three CPUs after the
 * one left out (smp-ktest-8-n). */
KTEST_SCENARIO(smpboot_apic5_never_answers, "smpboot")
{
	smp_start_hooks.never_start_apic_id = 5;
}

/* APIC id 2 starts only once the boot CPU has given up on it: it must
 * halt uncounted and harm nobody (smp-ktest-late-4-y). */
KTEST_SCENARIO(smpboot_apic2_answers_late, "smpboot")
{
	smp_start_hooks.held_late_apic_id = 2;
}

/* The TLB shootdown with CPU 2 of 4 left out: the CPUs it asks, 1 and
 * 3, are numbered past the count of CPUs online (tlb-sparse-4-y). */
KTEST_SCENARIO(tlb_apic2_never_answers, "tlb")
{
	smp_start_hooks.never_start_apic_id = 2;
}
