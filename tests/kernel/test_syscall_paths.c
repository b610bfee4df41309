/*
 * test_syscall_paths.c - user programs that check the ways in and out
 * of the kernel from the user side: system calls entered with odd
 * EFLAGS (user/flags.c) and a heap that grows on demand and gives
 * memory back (user/heap.c).  Each exits 0 when all it saw was right.
 */
#include <ktest.h>
#include <page_alloc.h>
#include <task.h>
#include "run_program.h"

KTEST(syscalls_with_nt_ac_df_tf_set)
{
	KT_EXPECT_EQ(run_program("flags", ""), 0);
}

/* Free pages once the idle task has collected the orphans earlier tests
 * left (their kernel stacks come back then): a tick's sleep lets it run. */
static unsigned long free_pages_settled(void)
{
	sched_sleep_ticks(1);
	return pages_free_count();
}

KTEST(heap_pages_on_demand_and_given_back)
{
	unsigned long free_before = free_pages_settled();

	KT_EXPECT_EQ(run_program("heap", ""), 0);
	/* everything the task had, page tables and kernel stack included,
	 * went back to the allocator */
	KT_EXPECT_EQ(free_pages_settled(), free_before);
}
