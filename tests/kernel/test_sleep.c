/*
 * test_sleep.c - the sleep system call at the edges of its range
 * (user/sleep.c, which exits with the error number of a refused sleep).
 * Wake-up times are compared with the tick counter by their signed
 * difference, so no sleep may be 2^31 ticks or longer: such a sleep is
 * refused with -EINVAL, at once (uapi/syscalls.h: SLEEP_MAX_TICKS).  A
 * kernel that let them through slept about 2^31 ticks for 0x80000000
 * and one tick for 0x80000002.  And a sleep ends on its tick, not one
 * later (a wake-up tested with > for >= was not seen by any test).
 */
#include <ktest.h>
#include <task.h>
#include <asm/timer.h>
#include "run_user.h"

/* Half a second of ticks, whatever hz= set: a refused or short sleep
 * ends well within, on the slowest emulator here too. */
static unsigned long soon(void)
{
	return timer_hz() / 2;
}

static int sleep_for(const char *ticks)
{
	return finish_program_within(start_program("sleep", ticks), soon());
}

KTEST(sleep_past_the_longest_is_refused_at_once)
{
	KT_EXPECT_EQ(sleep_for("0x80000000"), EINVAL);
	KT_EXPECT_EQ(sleep_for("0x80000001"), EINVAL);
	KT_EXPECT_EQ(sleep_for("0x80000002"), EINVAL);
	KT_EXPECT_EQ(sleep_for("0xfffffffe"), EINVAL);
	KT_EXPECT_EQ(sleep_for("0xffffffff"), EINVAL);
}

/* The longest sleep is accepted and lasts: still asleep half a second
 * on, and then only kill ends it. */
KTEST(sleep_of_the_longest_span_sleeps)
{
	int pid = start_program("sleep", "0x7fffffff");
	struct task *t;

	sched_sleep_ticks(soon());
	t = task_by_pid(pid);
	KT_EXPECT(t && t->state == TASK_SLEEPING);
	KT_EXPECT_EQ(task_kill_pid(pid), 0);
	KT_EXPECT_EQ(finish_program(pid), EXIT_KILLED_BY_REQUEST);
}

/* 0 ticks yields and returns; N ticks returns after at least N. */
KTEST(sleep_short_spans)
{
	unsigned long start;

	KT_EXPECT_EQ(sleep_for("0"), 0);
	start = timer_ticks();
	KT_EXPECT_EQ(sleep_for("3"), 0);
	KT_EXPECT(timer_ticks() - start >= 3);
}

/*
 * N ticks end at the N-th tick, not one later: started just after a
 * tick (a sleep of 1 ends on one), a sleep of 3 lasts 3 ticks.  The
 * fewest of a few tries counts: a try another task or interrupt
 * delays can only come out longer, never shorter.
 */
KTEST(sleep_wakes_on_its_tick)
{
	unsigned long start, took, fewest = ~0ul;
	unsigned int i;

	for (i = 0; i < 5; i++) {
		sched_sleep_ticks(1);
		start = timer_ticks();
		sched_sleep_ticks(3);
		took = timer_ticks() - start;
		if (took < fewest)
			fewest = took;
	}
	KT_EXPECT_EQ(fewest, 3);
}
