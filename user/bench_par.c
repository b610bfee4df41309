/*
 * bench_par.c - make bench's parallel user workload (kernel/bench_smp.c
 * runs one copy per CPU at once, with -smp 1, 2 and 4): each round is
 *
 *   a system call   getpid (the task table's lock is not taken: a
 *                   read of the caller's own task)
 *   a yield         schedule() on this CPU: the one run queue's lock,
 *                   which every copy takes, so on N CPUs the copies
 *                   contend for it
 *   a page fault    every FAULT_EVERY rounds, a write to a fresh heap
 *                   page: the page allocator's lock, shared too
 *
 * It times nothing itself: with -icount the TSC is the machine's
 * instruction count, every CPU's (docs/cost.md), so the kernel measures
 * the whole run from outside.  The argument is the rounds (default 2048).
 */
#include "lib/pv386.h"

#define FAULT_EVERY	32
#define PAGE_BYTES	4096

int main(void)
{
	char arg[16];
	unsigned long rounds, i;
	volatile char *heap;

	getarg(arg, sizeof(arg));
	rounds = arg[0] ? strtoul(arg, NULL, 10) : 2048;
	heap = sbrk((rounds / FAULT_EVERY + 1) * PAGE_BYTES);
	if (heap == (void *)-1)
		return 1;
	for (i = 0; i < rounds; i++) {
		getpid();
		yield();
		if (i % FAULT_EVERY == 0)
			heap[i / FAULT_EVERY * PAGE_BYTES] = 1;
	}
	return 0;
}
