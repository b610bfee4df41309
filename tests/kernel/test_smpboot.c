/*
 * test_smpboot.c - the APs started at boot (arch/x86/kernel/smpboot.c)
 * are the CPUs they were meant to be.  Each AP that came online wrote,
 * from its own local APIC, its APIC id and the cpu number its start-up
 * block gave it (smp_ap_said); those must be the table's APIC id for
 * that cpu number and the number itself, a CPU left out must have
 * written nothing, and `running` must count the boot CPU and the APs
 * online.  Booted with -smp 2..8 by tests/suite/smp.py (smp-ktest-*),
 * and with smp_skip=N for a CPU that never answers.
 */
#include <ktest.h>
#include <asm/apic.h>
#include <asm/smp.h>

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
