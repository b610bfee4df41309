/*
 * test_syscall_paths.c - user programs that check the ways in and out
 * of the kernel from the user side: system calls entered with odd
 * EFLAGS (user/flags.c) and a heap that grows on demand and gives
 * memory back (user/heap.c).  Each exits 0 when all it saw was right.
 */
#include <ktest.h>
#include <page_alloc.h>
#include "run_program.h"

KTEST(syscalls_with_nt_ac_df_tf_set)
{
	KT_EXPECT_EQ(run_program("flags", ""), 0);
}

KTEST(heap_pages_on_demand_and_given_back)
{
	unsigned long free_before = pages_free_count();

	KT_EXPECT_EQ(run_program("heap", ""), 0);
	/* everything the task had, page tables and kernel stack included,
	 * went back to the allocator */
	KT_EXPECT_EQ(pages_free_count(), free_before);
}
