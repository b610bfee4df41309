/*
 * test_pv_switch.c - live backend switching (paravirt/switch.c).
 *
 * A round trip native -> trace -> native (guest -> trace -> guest in a
 * guest) must leave every site in the bytes the boot gave it; a bad
 * name must change nothing; and thousands of switches while the timer
 * ticks and user tasks make system calls must lose no tick, no task, no
 * system call and no count - also with another CPU late for a switch,
 * as a loaded host makes it (a stop that timed out is tried again).
 */
#ifdef CONFIG_PARAVIRT
#include <kernel.h>
#include <ktest.h>
#include <spinlock.h>
#include <string.h>
#include <task.h>
#include <asm/paravirt.h>
#include <asm/privileged.h>
#include <asm/timer.h>
#include <asm/smp.h>
#include <asm/stop_cpus.h>
#include "pv_switch_check.h"
#include "run_user.h"

/* The other backend of the pair, from the one running: trace, and the
 * one it wraps (native, or guest in a guest). */
static const char *other_than(const char *name)
{
	return strcmp(name, "trace") ? "trace" : paravirt_ring_backend();
}

KTEST(pv_switch_round_trip_restores_every_site)
{
	const char *boot = paravirt_ops.name;
	u32 before = sites_hash();

	KT_EXPECT(switch_to(other_than(boot)));
	KT_EXPECT(strcmp(paravirt_ops.name, boot) != 0);
	KT_EXPECT_EQ(paravirt_patch_pending(),
		     paravirt_patching_disabled() ? paravirt_patch_stats()->total : 0);
	if (!paravirt_patching_disabled())
		KT_EXPECT_EQ(sites_not_in_state(strcmp(boot, "trace") ? "direct" : "inline"), 0);
	else
		KT_EXPECT_EQ(sites_hash(), before);	/* only the table changed */
	KT_EXPECT(switch_to(boot));
	KT_EXPECT(!strcmp(paravirt_ops.name, boot));
	KT_EXPECT_EQ(sites_hash(), before);
	KT_EXPECT_EQ(paravirt_patch_pending(),
		     paravirt_patching_disabled() ? paravirt_patch_stats()->total : 0);
}

/* With other CPUs running, each switch stops them at a safe point
 * first (arch/x86/kernel/smp/stop_cpus.c): one stop per switch, none timed
 * out. */
KTEST(pv_switch_stops_the_other_cpus)
{
	const char *boot = paravirt_ops.name;
	unsigned long stops = stop_cpus_stats.stops, timeouts = stop_cpus_stats.timeouts;

	if (num_online_cpus() < 2)
		KT_SKIP("one CPU: nothing to stop");
	KT_EXPECT(switch_to(other_than(boot)));
	KT_EXPECT(switch_to(boot));
	KT_EXPECT_EQ(stop_cpus_stats.stops - stops, 2);
	KT_EXPECT_EQ(stop_cpus_stats.timeouts, timeouts);
}

KTEST(pv_switch_refuses_unknown_backend)
{
	const char *boot = paravirt_ops.name, *why = NULL;
	u32 before = sites_hash();

	KT_EXPECT_EQ(paravirt_switch_backend("no-such-backend", &why), -ENOENT);
	KT_EXPECT(why != NULL);
	KT_EXPECT(!strcmp(paravirt_ops.name, boot));
	KT_EXPECT_EQ(sites_hash(), before);
}

/* ---- the stress test ---- */

/* The full count takes 20 s under QEMU (each switch rewrites every site,
 * and QEMU retranslates the code around them): it runs alone, in a row
 * of tests/run of its own; every suite run does a short one. */
#define STRESS_SWITCHES	10000
#define SHORT_STRESS_SWITCHES	128
#define SWITCHES_PER_YIELD	8	/* then the user tasks run a little */
#define SURVIVOR_YIELDS	"400"	/* its system calls, each checked */
#define CALLS_PER_TRACE	3	/* test-site calls in each trace period */
#define BUSY_TRIES	8	/* a switch whose stop timed out, in a row */
#define MORE_ROUNDS	64	/* times the switches, until the clock ticked */
#define PROGRESS_EVERY	1000	/* switches between two lines of the long run */

struct stress {
	unsigned int traced;		/* periods spent under trace */
	unsigned int failed;		/* switches that returned an error */
	unsigned int busy;		/* stops that timed out, tried again */
	u32 site_before;
	unsigned long ticks_before, switches_before;
};

/*
 * A switch to name.  One whose stop timed out (-EBUSY: another CPU did
 * not come to a safe point in time) changed nothing, and is tried again:
 * on a host with fewer cores than vCPUs, the host may not run a CPU's
 * thread for longer than the stop waits (seen: "CPU 1 (running task 0,
 * idle/1) did not come to a safe point in time" on a loaded host).  The
 * other CPU's progress is waited for, not a time: BUSY_TRIES in a row,
 * and a CPU that never comes still fails the switch.
 */
static bool switch_retrying_busy(struct stress *st, const char *name)
{
	const char *why = NULL;
	int err, tries = 0;

	while ((err = paravirt_switch_backend(name, &why)) == -EBUSY && ++tries < BUSY_TRIES)
		st->busy++;
	if (err)
		printk("ktest:   pv use %s: error %d (%s), %d tries\n", name, err, why,
		       tries + (err != -EBUSY));
	return !err;
}

/* One switch to the other backend; under trace, CALLS_PER_TRACE calls
 * from the test site, which must all be counted in the end. */
static void stress_step(struct stress *st, unsigned int i)
{
	if (!switch_retrying_busy(st, other_than(paravirt_ops.name))) {
		st->failed++;
		return;
	}
	if (!strcmp(paravirt_ops.name, "trace")) {
		call_test_site(CALLS_PER_TRACE);
		st->traced++;
	}
	if (i % SWITCHES_PER_YIELD == 0)
		sched_yield();
}

static void stress(struct ktest_ctx *kt_ctx, unsigned int switches)
{
	const struct paravirt_patch_site *site = test_site();
	const char *boot = paravirt_ops.name;
	u32 before = sites_hash();
	struct stress st = { 0 };
	int survivor, spin;
	unsigned int i;

	KT_EXPECT(site != NULL);
	if (!site)
		return;
	raw_local_irq_enable();
	survivor = start_program("survivor", SURVIVOR_YIELDS);
	spin = start_program("spin", "1");
	st.site_before = paravirt_trace_site_calls(site);
	st.ticks_before = timer_ticks();
	st.switches_before = paravirt_switch_count();
	/* At least switches, and on until the clock has ticked: the switches
	 * must lose no tick, but where the host runs the clock's thread late
	 * (QEMU's timers, on a loaded host) 128 of them can all come between
	 * two ticks ("128 switches, 0 ticks").  Bounded: a clock the
	 * switches stopped still fails the tick check below. */
	for (i = 1; i <= switches || (timer_ticks() == st.ticks_before &&
				      i <= switches * MORE_ROUNDS); i++) {
		stress_step(&st, i);
		/* The long run says how far it is: a guest silent for its
		 * row's limit counts as hung, and on a loaded host thousands
		 * of switches take minutes. */
		if (switches > PROGRESS_EVERY && i % PROGRESS_EVERY == 0)
			printk("ktest:   %u of %u switches\n", i, switches);
	}
	if (strcmp(paravirt_ops.name, boot))	/* an odd count: once more */
		KT_EXPECT(switch_to(boot));
	KT_EXPECT_EQ(st.failed, 0);
	KT_EXPECT(paravirt_switch_count() - st.switches_before >= switches);
	KT_EXPECT_EQ(finish_program(survivor), 0);	/* every yield, intact */
	KT_EXPECT_EQ(finish_program(spin), 0);
	KT_EXPECT(timer_ticks() - st.ticks_before > 0);
	KT_EXPECT_EQ(paravirt_trace_site_calls(site) - st.site_before,
		     st.traced * CALLS_PER_TRACE);
	KT_EXPECT_EQ(sites_hash(), before);
	KT_EXPECT_EQ(paravirt_patch_pending(),
		     paravirt_patching_disabled() ? paravirt_patch_stats()->total : 0);
	printk("ktest:   %u switches, %lu ticks, %u periods traced, %u busy stops tried "
	       "again\n", i - 1, timer_ticks() - st.ticks_before, st.traced, st.busy);
}
KTEST(pv_switch_stress_short)
{
	stress(kt_ctx, SHORT_STRESS_SWITCHES);
}

/* ---- the stress with another CPU late ---- */

#define LATE_TICKS	(timer_hz() * 3 / 4)	/* longer than a stop waits */

static volatile bool hog_started;

/* A kernel thread in a long loop: its CPU comes to no safe point until
 * it ends, as a vCPU whose thread a loaded host does not run. */
static void hog_thread(void)
{
	unsigned long start = timer_ticks();

	hog_started = true;
	while (timer_ticks() - start < LATE_TICKS)
		cpu_relax();
}

/* The short stress with another CPU late for the first switch: its stop
 * times out (-EBUSY, nothing changed), and the switch must go through
 * once the CPU comes. */
KTEST(pv_switch_stress_with_a_cpu_late)
{
	unsigned long start;

	if (num_online_cpus() < 2)
		KT_SKIP("one CPU: no other to be late");
	hog_started = false;
	task_create_kernel("pvlate", hog_thread);
	start = timer_ticks();
	while (!hog_started && timer_ticks() - start < timer_hz())
		cpu_relax();		/* busy: this CPU takes no hog */
	KT_EXPECT(hog_started);
	stress(kt_ctx, SHORT_STRESS_SWITCHES);
}

KTEST_ALONE(pv_switch_stress)
{
	stress(kt_ctx, STRESS_SWITCHES);
}
#endif
