/*
 * test_smpboot.c - the APs started at boot (arch/x86/kernel/smp/smpboot.c)
 * are the CPUs they were meant to be.  Each AP that came online wrote,
 * from its own local APIC, its APIC id and the cpu number its start-up
 * block gave it (smp_ap_said); those must be the table's APIC id for
 * that cpu number and the number itself, a CPU left out must have
 * written nothing, and `running` must count the boot CPU and the APs
 * online.  Booted with -smp 2..8 by tests/suite/smp.py (smp-ktest-*),
 * and in a scenario with a CPU that never answers (boot_scenarios.c).
 *
 * In the scenario smpboot_apic2_answers_late the AP of APIC id 2 was
 * held in the trampoline past the boot CPU's wait, and let go on as the
 * next CPU started: the second test sees it come (its own block says
 * it halted late), gives it time, then checks that it harmed nobody -
 * nothing it could count or claim moved, every CPU online still answers
 * an IPI, and the machine is still here.
 */
#include <ktest.h>
#include <task.h>
#include <asm/apic.h>
#include <asm/smp.h>
#include <asm/timer.h>
#include "ipi_check.h"

#define LATE_AP_TICKS	50	/* the released AP's time to do its worst */
#define ANSWER_TICKS	100	/* for every CPU online to answer an IPI */

KTEST(smpboot_each_ap_says_who_it_is)
{
	unsigned int n, online = 1;

	if (smp.nr_numbered < 2)
		KT_SKIP("one CPU to use: no AP was started");
	KT_EXPECT_EQ(smp.cpu[0].apic_id, apic_this_cpu_id());
	for (n = 1; n < smp.nr_numbered; n++) {
		const struct smp_cpu *c = &smp.cpu[n];

		KT_EXPECT_EQ(smp.tables.cpu[c->table_index].apic_id, c->apic_id);
		if (c->state != SMP_CPU_RUNNING) {
			KT_EXPECT_EQ(c->state, SMP_CPU_LEFT_OUT);
			KT_EXPECT_EQ(smp_ap_said[n].cpu, 0);	/* it never ran */
			continue;
		}
		online++;
		KT_EXPECT_EQ(smp_ap_said[n].apic_id, c->apic_id);
		KT_EXPECT_EQ(smp_ap_said[n].cpu, n);
	}
	KT_EXPECT_EQ(smp.running, online);
}

KTEST(smpboot_a_late_ap_halts_and_harms_nobody)
{
	unsigned int running = smp.running, n;
	u32 online = smp_online_mask;

	for (n = 1; n < smp.nr_numbered && smp.cpu[n].state != SMP_CPU_LEFT_OUT; n++)
		;
	if (n == smp.nr_numbered)
		KT_SKIP("no CPU left out");
	if (smp_held_cpu() > 0) {
		/* It came, late, and halted: the test saw the late path. */
		unsigned long end = timer_ticks() + LATE_AP_TICKS;

		while (!smp_ap_came_late(smp_held_cpu()) && (long)(timer_ticks() - end) < 0)
			sched_sleep_ticks(1);
		KT_EXPECT(smp_ap_came_late(smp_held_cpu()));
	}
	sched_sleep_ticks(LATE_AP_TICKS);
	KT_EXPECT_EQ(smp.running, running);
	KT_EXPECT_EQ(smp_online_mask, online);
	for (n = 1; n < smp.nr_numbered; n++) {
		if (smp.cpu[n].state != SMP_CPU_LEFT_OUT)
			continue;
		KT_EXPECT(!(online & 1u << n));
		KT_EXPECT_EQ(smp_ap_said[n].cpu, 0);
		KT_EXPECT_EQ(smp_ap_said[n].apic_id, 0);
	}
	KT_EXPECT(other_cpus_answer_an_ipi(ANSWER_TICKS));
}
