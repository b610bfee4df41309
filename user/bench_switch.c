/*
 * bench_switch.c - make bench's context switch: two tasks yielding to
 * each other (bench_pair in bench_paths.h), instructions per switch.
 *
 * A switch here is everything from one task's yield to the other task
 * being back in ring 3: the system call's way in (sysenter where the
 * kernel set it up, else int $0x80), schedule() and arch_switch_to()
 * (TSS esp0, %cr3, TLS, FPU ownership, the stacks) and the other task's
 * way out of its own yield.  Neither task touches the FPU, so no #NM is
 * in it; bench_mix has that.
 */
#include "bench_paths.h"

#define ROUNDS	2000	/* each one two switches */

BENCH_TIMED(yield_sysenter, bench_sysenter(SYS_yield))
BENCH_TIMED(empty_sysenter, bench_sysenter_frame(SYS_yield))
BENCH_TIMED(yield_int80, bench_int80(SYS_yield))
BENCH_TIMED(empty_int80, bench_int80_frame(SYS_yield))

int main(void)
{
	int sep = have_sysenter();
	struct bench_counts counts;
	uint32_t ticks;

	if (bench_pair("bench_switch", ROUNDS, sep ? yield_sysenter : yield_int80,
		       sep ? empty_sysenter : empty_int80, &ticks, &counts))
		return 1;
	bench_print("context_switch", ticks, 2 * ROUNDS);
	bench_print_counts("context_switch", &counts, 2 * ROUNDS);
	return 0;
}
