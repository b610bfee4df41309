/*
 * test_return_to_user.c - the way back to user mode survives a user
 * segment that went bad in the kernel (user/iretfault.c): a bad data
 * selector is replaced by the null one, a bad stack segment makes the
 * iret fault and kills that task alone.  The suite runs this patched
 * (the iret inlined at the INTERRUPT_RETURN site) and with nopatch (the
 * out-of-line native_iret): both need their exception-table entry.
 */
#include <ktest.h>
#include <task.h>
#include <asm/traps.h>
#include "run_program.h"

KTEST(return_to_user_with_freed_data_segment)
{
	KT_EXPECT_EQ(run_program("iretfault", "fs"), 0);
}

KTEST(return_to_user_with_freed_stack_segment_kills_task)
{
	unsigned long gp = trap_count(X86_TRAP_GP);

	KT_EXPECT_EQ(run_program("iretfault", "ss"), EXIT_KILLED(X86_TRAP_GP));
	KT_EXPECT_EQ(trap_count(X86_TRAP_GP), gp + 1);
	/* and the kernel goes on running programs */
	KT_EXPECT_EQ(run_program("hello", ""), 0);
}
