/*
 * ktest.c - runs the in-kernel tests (see ktest.h) and reports.
 *
 * The report is meant for machines as much as people: tests/run reads
 * the PASS/FAIL/SKIP lines and the final count from the serial port, and
 * QEMU's exit status says pass or fail even if the serial log is lost.
 */
#include <kernel.h>
#include <cmdline.h>
#include <ktest.h>
#include <panic.h>
#include <string.h>
#include <task.h>
#include <asm/machine.h>
#include <asm/privileged.h>
#include <asm/timer.h>

extern const struct ktest __start_ktests[], __stop_ktests[];
extern const struct ktest_scenario __start_ktest_scenarios[], __stop_ktest_scenarios[];

static bool requested;
static char filter[64];		/* the option's text is gone after parsing */

static const struct ktest_scenario *find_scenario(const char *name)
{
	const struct ktest_scenario *s;

	for (s = __start_ktest_scenarios; s < __stop_ktest_scenarios; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

static int parse_test(const char *value)
{
	const struct ktest_scenario *scenario = value ? find_scenario(value) : NULL;

	if (scenario) {
		scenario->setup();
		if (!scenario->tests)
			return 0;	/* on to the shell */
		value = scenario->tests;
	}
	requested = true;
	paravirt_count_start();		/* op coverage, from the first op on */
	if (value)
		strlcpy(filter, value, sizeof(filter));
	return 0;
}
/* Early: kmain must know before the first op runs (op coverage). */
early_boot_option("test", parse_test, "run the in-kernel tests (test=word: only matching)");

/*
 * Tests, or cases of a test, that must not run on this machine: an
 * emulator that aborts on what one does (DOSBox on an iret to a bad
 * stack segment) would end the whole run.  Each is still named when it
 * is left out, so a check is never silently missing; tests/run says
 * which and why.  A test is named by its name, a case by
 * program:argument (crash:null_ss).
 */
static char left_out[256];

static int parse_notest(const char *value)
{
	if (!value || strlen(value) >= sizeof(left_out))
		return -EINVAL;
	strlcpy(left_out, value, sizeof(left_out));
	return 0;
}
boot_option("notest", parse_notest,
	    "in-kernel tests or cases not to run: name or program:arg,...");

bool ktest_left_out(const char *name)
{
	if (!list_has_word(left_out, name))
		return false;
	printk("ktest:   %s: left out by notest=\n", name);
	return true;
}

bool ktest_requested(void)
{
	return requested;
}

void ktest_expect(struct ktest_ctx *t, bool ok, const char *what,
		  const char *file, int line)
{
	if (ok)
		return;
	t->failures++;
	printk("ktest:   %s:%d: expected %s\n", file, line, what);
}

void ktest_expect_eq(struct ktest_ctx *t, u64 a, u64 b, const char *as,
		     const char *bs, const char *file, int line)
{
	if (a == b)
		return;
	t->failures++;
	printk("ktest:   %s:%d: expected %s == %s, got 0x%llx and 0x%llx\n",
	       file, line, as, bs, a, b);
}

/*
 * After a whole run: how many ops of paravirt_ops the kernel's features
 * reached.  With nopatch every call goes through the table, so an op
 * never reached is an op no feature uses: a failure.
 */
static bool op_coverage_ok(void)
{
#ifdef CONFIG_PARAVIRT
	if (!paravirt_coverage_report() && paravirt_patching_disabled()) {
		printk("ktest: FAIL op_coverage: with nopatch every op the CPU has "
		       "must be reached\n");
		return false;
	}
#else
	printk("op coverage: no table (PARAVIRT=n): every op is inline\n");
#endif
	return true;
}

/* Returns 1 for a pass, 0 for a failure, -1 for a skip. */
static int run_one(const struct ktest *test)
{
	struct ktest_ctx ctx = { .name = test->name };

	if (ktest_left_out(test->name))
		ctx.skip_reason = "left out by notest=";
	else
		test->fn(&ctx);
	if (ctx.failures) {
		printk("ktest: FAIL %s\n", test->name);
		return 0;
	}
	if (ctx.skip_reason) {
		printk("ktest: SKIP %s: %s\n", test->name, ctx.skip_reason);
		return -1;
	}
	printk("ktest: PASS %s\n", test->name);
	return 1;
}

static bool selected(const struct ktest *test, const char *word)
{
	if (test->alone)
		return !strcmp(test->name, word);
	return !word[0] || strstr(test->name, word);
}

/* A test that panics ends the run: leave the emulator with a failure
 * status at once, rather than halt and leave tests/run to time out. */
static void ktest_panicked(void)
{
	emulator_exit(EMU_EXIT_FAIL);
}

struct ktest_counts {
	int passed, failed, skipped;
};

/* ktestcost: each test's busy TSC counts after its result, for make
 * bench to compare a guest's run with a native one test by test. */
static bool print_test_costs;

static int parse_ktestcost(const char *value)
{
	(void)value;
	print_test_costs = true;
	return 0;
}
boot_option("ktestcost", parse_ktestcost, "print each in-kernel test's busy TSC counts");

/* TSC counts now, less those spent idle so far (0 without a TSC). */
static u64 busy_clock(void)
{
	u64 now;

	return clock_tsc(&now) ? now - sched_idle_tsc() : 0;
}

/* One test, its cost printed if asked for. */
static int run_costed(const struct ktest *test)
{
	u64 before = busy_clock();
	int result = run_one(test);

	if (print_test_costs)
		printk("ktest: cost %s %llu\n", test->name, busy_clock() - before);
	return result;
}

/* Every test word selects, in section order; the counts of how they went. */
static struct ktest_counts run_selected(const char *word)
{
	struct ktest_counts n = { 0, 0, 0 };
	const struct ktest *test;

	for (test = __start_ktests; test < __stop_ktests; test++) {
		if (!selected(test, word))
			continue;
		switch (run_costed(test)) {
		case 1: n.passed++; break;
		case 0: n.failed++; break;
		default: n.skipped++; break;
		}
	}
	return n;
}

static void print_counts(const struct ktest_counts *n)
{
	if (n->skipped)
		printk("ktest: %d skipped\n", n->skipped);
	printk("ktest: %d passed, %d failed\n", n->passed, n->failed);
}

/* What the run cost the machine, in TSC counts, and how many of them
 * were not idle: under QEMU's -icount the busy ones are instructions
 * (make bench compares a guest's with a native run's). */
static void print_cost(bool timed, u64 start, u64 idle_before)
{
	u64 end;

	if (timed && clock_tsc(&end))
		printk("ktest: the run took %llu TSC counts, %llu of them busy\n", end - start,
		       end - start - (sched_idle_tsc() - idle_before));
}

void ktest_run_all(void)
{
	const struct ktest *test;
	unsigned int chosen = 0, alone = 0;
	struct ktest_counts n;
	u64 start = 0, idle;
	bool timed;

	panic_set_hook(ktest_panicked);
	for (test = __start_ktests; test < __stop_ktests; test++) {
		chosen += selected(test, filter);
		alone += test->alone;
	}
	/* tests/run checks that an unfiltered run chose all but these. */
	printk("ktest: running %u of %u tests (%u only when named)%s%s\n", chosen,
	       (unsigned int)(__stop_ktests - __start_ktests), alone,
	       filter[0] ? " matching " : "", filter);
	timed = clock_tsc(&start);
	idle = sched_idle_tsc();
	n = run_selected(filter);
	if (!filter[0] && !op_coverage_ok())
		n.failed++;
	print_cost(timed, start, idle);
	print_counts(&n);
	panic_set_hook(NULL);
	emulator_exit(n.failed || !n.passed ? EMU_EXIT_FAIL : EMU_EXIT_PASS);
}

/*
 * From the shell: the tests whose names contain word (all with ""),
 * never one that panics on purpose; the machine stays up.  Op coverage is
 * a boot-time measure (counting starts with the first op) and is not
 * reported here.  Returns the number of failures, or -EINVAL for a test
 * that panics on purpose.
 */
int ktest_run_matching(const char *word)
{
	const struct ktest *test;
	struct ktest_counts n;

	for (test = __start_ktests; test < __stop_ktests; test++) {
		if (test->alone && !strcmp(test->name, word)) {
			printk("ktest: %s panics on purpose: it runs only at boot "
			       "(test=%s)\n", word, word);
			return -EINVAL;
		}
	}
	panic_set_hook(ktest_panicked);	/* a test that panics still ends the run */
	n = run_selected(word);
	panic_set_hook(NULL);
	print_counts(&n);
	return n.failed;
}
