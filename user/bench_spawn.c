/*
 * bench_spawn.c - make bench's spawn and exit: a program started, run to
 * its end and waited for, per round.
 *
 * Each round is spawn (a task, a new address space: a page directory,
 * its tables, the program's segments loaded and mapped, a stack), the
 * child's whole life (bench_exit: crt0, a main that returns, exit, which
 * tears the address space down and frees it) and wait (the child's
 * slot and kernel stack freed): the page-table-heavy path, what a
 * fork and exec and exit cost together.  The child's few user
 * instructions are in the figure, the same in every kernel; the loop's
 * own are subtracted (an empty twin).  A first round, untimed, takes
 * the first-use costs.
 */
#include "bench_paths.h"

#define ROUNDS	64
#define CHILD	"bench_exit"

static unsigned int failures;	/* rounds whose child did not end with 0 */

static inline void spawn_and_wait(void)
{
	int status = -1, pid = spawn(CHILD, 0);

	if (pid < 0 || wait(pid, &status) != pid || status != 0)
		failures++;
}

BENCH_TIMED(spawn_loop, spawn_and_wait())
BENCH_TIMED(empty_loop, asm volatile(""))

int main(void)
{
	struct bench_counts counts;
	uint32_t ticks;

	spawn_loop(1);
	bench_counts_begin(&counts);
	ticks = spawn_loop(ROUNDS);
	bench_counts_end(&counts);
	if (failures) {
		printf("bench_spawn: %u of %u rounds did not run %s to a clean end\n",
		       failures, ROUNDS + 1, CHILD);
		return 1;
	}
	bench_print("spawn_exit", ticks - empty_loop(ROUNDS), ROUNDS);
	bench_print_counts("spawn_exit", &counts, ROUNDS);
	return 0;
}
