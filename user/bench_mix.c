/*
 * bench_mix.c - make bench's user workload: two tasks taking turns
 * (bench_pair in bench_paths.h), each iteration of each task being
 *
 *   two system calls    getpid and nop, by the best way in (sysenter
 *                       where the kernel set it up, else int $0x80)
 *   an FPU hand-over    a few x87 instructions after the other task's
 *                       (arch/x86/kernel/fpu.c): lazily (natively) the
 *                       switch in set CR0.TS, so the first one raises #NM
 *                       and the kernel saves the owner's registers and
 *                       loads ours; eagerly (a guest) the switch in did
 *                       that already
 *   a page fault        every FAULT_EVERY iterations, a write to a heap
 *                       page not yet mapped (demand-zero)
 *   a yield             a context switch to the other task
 *
 * One iteration of the mix, as printed, is one of each task: four system
 * calls, two yields and switches, two hand-overs, 2 / FAULT_EVERY faults.
 * A fault costs dozens of times what the rest does, almost all of it in
 * zeroing the page, the same work in every kernel; one per iteration
 * would drown the rest, so faults come at the rate of an occasional heap
 * growth.  The loop itself is subtracted (an empty twin per task); the
 * body's few user instructions are part of the mix.
 */
#include "bench_paths.h"

#define ROUNDS		1024
#define FAULT_EVERY	32
#define PAGE_BYTES	4096
#define HEAP_PAGES	((ROUNDS + 2) / FAULT_EVERY + 1)	/* partner's loop included */

static volatile char *heap;
static unsigned int iterations, pages_touched;	/* across the loops' calls */
static double fpu_value = 1.0;

/* Every FAULT_EVERY-th iteration of this task writes to the next fresh
 * heap page.  Counted across calls, not by the loop's i: the lead's
 * warm-up and timed loops both start at i = 0. */
static inline void maybe_fault(void)
{
	if (iterations++ % FAULT_EVERY == 0)
		heap[pages_touched++ * PAGE_BYTES] = 1;
}

/* One x87 load, add and store of a value that stays in this task. */
static inline void use_fpu(void)
{
	asm volatile("fldl %0\n\tfaddl %0\n\tfstpl %0" : "+m" (fpu_value));
}

#define MIX_BODY(call)							\
	call(SYS_getpid);						\
	call(SYS_nop);							\
	use_fpu();							\
	maybe_fault();							\
	call(SYS_yield)

BENCH_TIMED(mix_sysenter, MIX_BODY(bench_sysenter))
BENCH_TIMED(mix_int80, MIX_BODY(bench_int80))
BENCH_TIMED(empty_sysenter, bench_sysenter_frame(SYS_yield))
BENCH_TIMED(empty_int80, bench_int80_frame(SYS_yield))

int main(void)
{
	int sep = have_sysenter();
	struct bench_counts counts;
	uint32_t ticks;

	heap = sbrk(HEAP_PAGES * PAGE_BYTES);
	if (heap == (void *)-1) {
		printf("bench_mix: sbrk(%u pages) refused\n", HEAP_PAGES);
		return 1;
	}
	if (bench_pair("bench_mix", ROUNDS, sep ? mix_sysenter : mix_int80,
		       sep ? empty_sysenter : empty_int80, &ticks, &counts))
		return 1;
	bench_print("user_workload", ticks, ROUNDS);
	bench_print_counts("user_workload", &counts, ROUNDS);
	return 0;
}
