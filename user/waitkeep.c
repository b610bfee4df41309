/*
 * waitkeep.c - a wait() that fails changes nothing: the child it would
 * have collected stays, and the next wait() collects it.
 *
 * The status pointer is good when wait() is called and bad when the
 * child ends: the main task waits for a `sleep` child with its status
 * in a heap page, and meanwhile a thread of its own gives that page
 * back (brk).  The kernel must find the place gone before it lets the
 * child go: -EFAULT, and the child still there for a second wait() with
 * a good pointer, which must give its pid and status 0 (not -ECHILD).
 *
 * One line,
 *   waitkeep: first wait W, second wait P (pid C), status S
 * and exit status 0 when W is -EFAULT, P is C and S is 0; 1 if not.
 */
#include "lib/pv386.h"

#define PAGE		4096
#define STACK_WORDS	512
#define CHILD_TICKS	"50"	/* the child's sleep: the thread's brk comes first */
#define THREAD_TICKS	5

static uint32_t stack[STACK_WORDS] __attribute__((aligned(16)));
static void *heap_start;

/* Sleeps a little, so that the main task is asleep in wait(), then
 * gives the heap page back. */
static void shrink(void *arg)
{
	(void)arg;
	sleep_ticks(THREAD_TICKS);
	brk(heap_start);
}

int main(void)
{
	int *status_in_heap, status = -1, first, second, child, thread;

	heap_start = brk(0);
	status_in_heap = sbrk(PAGE);
	if (status_in_heap == (void *)-1) {
		printf("waitkeep: no heap\n");
		exit(1);
	}
	*status_in_heap = 0;		/* mapped and writable now */
	child = spawn("sleep", CHILD_TICKS);
	thread = thread_create(shrink, 0, stack + STACK_WORDS);
	if (child < 0 || thread < 0) {
		printf("waitkeep: spawn %d, thread %d\n", child, thread);
		exit(1);
	}
	first = wait(child, status_in_heap);
	second = wait(child, &status);
	wait(thread, 0);
	printf("waitkeep: first wait %d, second wait %d (pid %d), status %d\n",
	       first, second, child, status);
	exit(first == -EFAULT && second == child && status == 0 ? 0 : 1);
}
