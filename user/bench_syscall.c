/*
 * bench_syscall.c - make bench's null system call: SYS_nop from ring 3
 * and back, once through int $0x80 and once through sysenter.
 *
 * Each loop is timed against an empty twin that does the same register
 * set-up without entering the kernel, so a figure is the round trip
 * alone: the entry instruction, the kernel's entry code, do_syscall and
 * the way out (iret or sysexit), plus, for sysenter, the two user
 * instructions its convention needs (bench_paths.h).
 */
#include "bench_paths.h"

#define CALLS	10000

BENCH_TIMED(int80_loop, bench_int80(SYS_nop))
BENCH_TIMED(int80_empty, bench_int80_frame(SYS_nop))
BENCH_TIMED(sysenter_loop, bench_sysenter(SYS_nop))
BENCH_TIMED(sysenter_empty, bench_sysenter_frame(SYS_nop))

int main(void)
{
	struct bench_counts counts;
	uint32_t ticks;

	bench_counts_begin(&counts);
	ticks = int80_loop(CALLS);
	bench_counts_end(&counts);
	bench_print("syscall_int80", ticks - int80_empty(CALLS), CALLS);
	bench_print_counts("syscall_int80", &counts, CALLS);
	/* crt0 learned from the kernel whether sysenter is set up: without
	 * SEP the instruction would raise #UD, so there is no figure. */
	if (have_sysenter()) {
		bench_counts_begin(&counts);
		ticks = sysenter_loop(CALLS);
		bench_counts_end(&counts);
		bench_print("syscall_sysenter", ticks - sysenter_empty(CALLS), CALLS);
		bench_print_counts("syscall_sysenter", &counts, CALLS);
	} else
		bench_print_absent("syscall_sysenter",
				   "the kernel did not set up sysenter: no SEP, or nosysenter");
	return 0;
}
