/*
 * test_wait_keeps.c - a system call either succeeds or changes nothing,
 * wait() too: a status pointer that goes bad while the caller sleeps
 * in wait() (a thread of its own gives the page back) gets -EFAULT, and
 * the child is still there for the next wait() (user/waitkeep.c).
 */
#include <ktest.h>
#include <page_alloc.h>
#include <task.h>
#include "run_program.h"

KTEST(wait_that_fails_keeps_the_child)
{
	unsigned long pages;

	sched_sleep_ticks(1);		/* orphans of earlier tests collected */
	pages = pages_free_count();
	KT_EXPECT_EQ(run_program("waitkeep", ""), 0);
	sched_sleep_ticks(1);
	KT_EXPECT_EQ(pages_free_count(), pages);
}
