/*
 * test_apic.c - the local APIC (arch/x86/kernel/smp/apic.c): its id read
 * through the op agrees with CPUID's, an IPI to this CPU arrives and its
 * EOI lets the next one in, the timer calibrated against the PIT ticks
 * at the kernel's HZ, and the trace backend counts the two ops.
 *
 * The APIC is set up only where more than one CPU is to be used: on
 * every other machine these tests skip.  tests/suite/smp.py runs them on
 * QEMU -smp 2 (the ktest-smp rows).
 */
#include <kernel.h>
#include <ktest.h>
#include <math64.h>
#include <asm/apic.h>
#include <asm/privileged.h>
#include <asm/timer.h>
#include <asm/traps.h>
#include <asm/stop_cpus.h>
#ifdef CONFIG_PARAVIRT
#include "pv_switch_check.h"
#endif

#define TEST_VECTOR	0xee	/* below the timer's, above everything else */
#define IPI_WAIT_HALTS	10	/* a PIT tick wakes each: 100 ms at HZ 100 */
#define TIMER_TEST_TICKS	20	/* PIT ticks the APIC timer is compared over */

#define SKIP_UNLESS_APIC()						\
	do {								\
		if (!apic_present())					\
			KT_SKIP("no local APIC in use (one CPU)");	\
	} while (0)

/* The page mapped is this CPU's APIC: its id is CPUID's initial APIC
 * id, its version an integrated APIC's (1xh: every CPU with the CPUID
 * APIC flag; the 82489DX was 0xh), and it is enabled as apic.c left it. */
KTEST(apic_id_matches_cpuid)
{
	u32 a, b, c, d;

	SKIP_UNLESS_APIC();
	cpuid(1, &a, &b, &c, &d);
	KT_EXPECT_EQ(apic_this_cpu_id(), b >> 24);
	KT_EXPECT_EQ(apic_version() & 0xf0, 0x10);
	KT_EXPECT_EQ(apic_read(APIC_SVR) & 0x1ff, APIC_SVR_ENABLE | APIC_SPURIOUS_VECTOR);
}

static volatile unsigned int test_ipis;

static void test_ipi_arrived(struct pt_regs *regs)
{
	(void)regs;
	test_ipis++;
	apic_eoi();
}

/* Send one IPI to this CPU; true once its handler ran. */
static bool self_ipi(void)
{
	unsigned int before = test_ipis, i;

	apic_send_ipi(apic_this_cpu_id(), TEST_VECTOR);
	for (i = 0; i < IPI_WAIT_HALTS && test_ipis == before; i++)
		halt();
	return test_ipis == before + 1;
}

/* Two in a row: the second arrives only if the first one's EOI cleared
 * its in-service bit, which holds back its whole priority class (and
 * the timer's, 0xef, with it). */
KTEST(apic_self_ipi_arrives_and_is_eoid)
{
	unsigned long flags;

	SKIP_UNLESS_APIC();
	set_intr_handler(TEST_VECTOR, test_ipi_arrived);
	flags = raw_local_irq_save();
	raw_local_irq_enable();
	KT_EXPECT(self_ipi());
	KT_EXPECT(!apic_in_service(TEST_VECTOR));
	KT_EXPECT(self_ipi());
	raw_local_irq_restore(flags);
	set_intr_handler(TEST_VECTOR, NULL);
}

/* A STARTUP vector is a page number below 1 MiB: anything else refused
 * before it is sent. */
KTEST(apic_startup_refuses_bad_trampoline)
{
	SKIP_UNLESS_APIC();
	KT_EXPECT_EQ(apic_send_startup(0xfe, 0x8001), -EINVAL);
	KT_EXPECT_EQ(apic_send_startup(0xfe, 0x100000), -EINVAL);
}

/* Halted, interrupts on, from one PIT tick's edge to ticks later. */
static void wait_pit_ticks(unsigned long ticks)
{
	unsigned long pit0 = timer_ticks();

	while (timer_ticks() == pit0)
		halt();
	pit0 = timer_ticks();
	while (timer_ticks() - pit0 < ticks)
		halt();
}

/* The APIC timer's counts in one tick of the PIT, its rate measured
 * again as at boot (apic.c: against the PIT's counter). */
static u32 apic_counts_a_tick(void)
{
	u64 rate;

	apic_timer_stop_this_cpu();
	rate = apic_timer_measure_rate();
	apic_timer_start_this_cpu();
	div64_u32_rem(&rate, timer_hz());
	return (u32)rate;
}

/* Whether counted APIC timer counts are within 10 % of expected. */
static bool within_tenth(u32 counted, u32 expected)
{
	return counted / 11 * 10 <= expected && counted / 9 * 10 >= expected;
}

/* The APIC timer's count a tick is its rate measured again, within 10 %.
 * Its interrupts come, once each period, and are ended (EOI): at least a
 * quarter of the PIT's in the same time, however late the host runs the
 * CPU, and no more than 10 % above - counted through interrupts, not the
 * calibration's counters, so that a calibration off by 10x, or a timer
 * left at the PIT's divisor, is far outside. */
KTEST(apic_timer_ticks_at_hz)
{
	unsigned long local0, local, flags;
	u32 expected, counted;

	SKIP_UNLESS_APIC();
	if (!timer_sched_tick_local())
		KT_SKIP("the APIC timer did not count: the tick is the PIT's");
	KT_EXPECT_EQ(apic_timer_initial_count(), apic_timer_hz() / timer_hz());
	expected = apic_timer_initial_count();
	flags = raw_local_irq_save();
	raw_local_irq_enable();
	counted = apic_counts_a_tick();
	if (!within_tenth(counted, expected))
		printk("ktest:   APIC timer: %u counts a tick of the PIT, %u expected\n",
		       counted, expected);
	local0 = apic_timer_ticks_this_cpu();
	wait_pit_ticks(TIMER_TEST_TICKS);
	local = apic_timer_ticks_this_cpu() - local0;
	raw_local_irq_restore(flags);
	if (local * 4 < TIMER_TEST_TICKS || local * 10 > TIMER_TEST_TICKS * 11)
		printk("ktest:   APIC timer: %lu interrupts in %u of the PIT's ticks\n",
		       local, TIMER_TEST_TICKS);
	KT_EXPECT(within_tenth(counted, expected));
	KT_EXPECT(local * 4 >= TIMER_TEST_TICKS);
	KT_EXPECT(local * 10 <= TIMER_TEST_TICKS * 11);
}

#ifdef CONFIG_PARAVIRT
/* Under trace, one apic_this_cpu_id() is one apic_read and one TPR
 * write one apic_write; interrupts off, so no timer EOI counts too. */
KTEST(apic_ops_counted_by_trace)
{
	const char *boot = paravirt_ops.name;
	unsigned int rd = PARAVIRT_SLOT(apic_read), wr = PARAVIRT_SLOT(apic_write);
	u32 reads, writes;
	unsigned long flags;

	unsigned int late;

	SKIP_UNLESS_APIC();
	if (!switch_to("trace"))
		return;
	/* The counts are the machine's: the other CPUs' timers EOI too,
	 * unless they are held still meanwhile. */
	KT_EXPECT_EQ(stop_other_cpus(&late), 0);
	flags = raw_local_irq_save();
	reads = paravirt_trace_calls(rd);
	writes = paravirt_trace_calls(wr);
	apic_this_cpu_id();
	apic_write(APIC_TPR, 0);
	KT_EXPECT_EQ(paravirt_trace_calls(rd) - reads, 1);
	KT_EXPECT_EQ(paravirt_trace_calls(wr) - writes, 1);
	resume_other_cpus();
	raw_local_irq_restore(flags);
	KT_EXPECT(switch_to(boot));
}
#endif
