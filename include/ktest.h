/*
 * ktest.h - the in-kernel test suite.
 *
 * A test is a function declared with KTEST(name); it lands in the .ktests
 * section and runs when the kernel is booted with the `test` option
 * (`test=word` runs only the tests whose names contain word; a
 * KTEST_ALONE test only when word is its whole name).  Each test
 * prints one line, PASS, FAIL or SKIP, and the run ends with
 *
 *     ktest: N passed, M failed
 *
 * after which the kernel leaves the emulator with a pass or fail status.
 * `test=name` of a KTEST_SCENARIO (below) first boots the machine the
 * scenario's way, for tests that need it booted so.
 */
#ifndef PV386_KTEST_H
#define PV386_KTEST_H

#include <types.h>
#include <asm/processor.h>

struct ktest_ctx {
	const char *name;
	int failures;
	const char *skip_reason;
};

struct ktest {
	const char *name;
	void (*fn)(struct ktest_ctx *ctx);
	bool alone;		/* runs only when test= names it exactly */
};

#define __KTEST(tname, run_alone)					\
	static void ktest_##tname(struct ktest_ctx *kt_ctx);			\
	static const struct ktest __ktest_##tname			\
	__section(".ktests") __used __attribute__((aligned(4))) =	\
		{ #tname, ktest_##tname, run_alone };			\
	static void ktest_##tname(struct ktest_ctx *kt_ctx)

#define KTEST(tname)	__KTEST(tname, false)

/*
 * A test that ends the run on purpose - it panics, so that tests/run can
 * check the panic report from outside - or one too long for every run
 * (the 10,000-switch stress of test_pv_switch.c) runs only when booted
 * with `test=tname` exactly, never in a full or filtered run.
 */
#define KTEST_ALONE(tname)	__KTEST(tname, true)

/*
 * A scenario: the machine booted in a way no boot option gives - a CPU
 * that never answers its start-up, one that answers too late - for
 * tests that must see the kernel cope.  `test=sname`, sname a
 * scenario's whole name, runs its body as the option is read, before
 * the kernel has done anything the body changes; the body only sets a
 * test hook the kernel exposes for it (asm/smp.h's smp_start_hooks).
 * Then the tests whose names contain tests_word run, as with
 * `test=tests_word`; with tests_word NULL none do, and the kernel boots
 * on to its shell, for tests/run to look at from outside.
 */
struct ktest_scenario {
	const char *name;
	void (*setup)(void);
	const char *tests;
};

#define KTEST_SCENARIO(sname, tests_word)				\
	static void scenario_##sname(void);				\
	static const struct ktest_scenario __ktest_scenario_##sname	\
	__section(".ktest_scenarios") __used __attribute__((aligned(4))) = \
		{ #sname, scenario_##sname, tests_word };		\
	static void scenario_##sname(void)

/* Record a failure (and go on) unless cond holds. */
#define KT_EXPECT(cond) \
	ktest_expect(kt_ctx, (cond), #cond, __FILE__, __LINE__)

/* Like KT_EXPECT(a == b), but prints both values on failure. */
#define KT_EXPECT_EQ(a, b) \
	ktest_expect_eq(kt_ctx, (u64)(a), (u64)(b), #a, #b, __FILE__, __LINE__)

/* The test cannot run here (say why); it counts neither way. */
#define KT_SKIP(reason) do { kt_ctx->skip_reason = (reason); return; } while (0)
/* A test of what a guest of a pv386 host cannot have (it runs at ring 1:
 * docs/guest.md): named as left out, with the reason, never silent. */
#define KT_NOT_IN_GUEST(reason) \
	do { if (current_ring() != 0) KT_SKIP("left out in a guest: " reason); } while (0)

void ktest_expect(struct ktest_ctx *t, bool ok, const char *what,
		  const char *file, int line);
void ktest_expect_eq(struct ktest_ctx *t, u64 a, u64 b, const char *as,
		     const char *bs, const char *file, int line);

bool ktest_requested(void);
/* Whether notest= names this test or case (then it says so). */
bool ktest_left_out(const char *name);
void ktest_run_all(void);
/* The tests matching word, from a running kernel (the shell): failures,
 * or -EINVAL if word names a test that panics on purpose. */
int ktest_run_matching(const char *word);

#endif
