/*
 * tlbshoot.c - threads share one address space, and a page one thread
 * gives back is gone at once for the others, whichever CPU they run on:
 * the TLB shootdown (docs/smp.md).
 *
 * Two parts, one line each:
 *
 *   tlbshoot: threads: N ok            THREADS threads, on stacks of
 *                                      their own, each write a word the
 *                                      main task reads back; each is
 *                                      collected by wait() with status 0.
 *   tlbshoot: reads after brk: R, reader status S
 *                                      a reader thread reads a heap page
 *                                      in a loop (on another CPU, where
 *                                      there is one: its TLB then holds
 *                                      the page), counting each read; the
 *                                      main task waits for the reads to
 *                                      run, gives the page back with brk,
 *                                      and from then on counts the
 *                                      reader's reads.  The reader's next
 *                                      read must fault: at most one read
 *                                      (one that began before brk
 *                                      returned) may be counted after
 *                                      it, and the reader must end killed
 *                                      by the page fault.  A stale TLB
 *                                      entry on the reader's CPU would
 *                                      let it go on reading the freed
 *                                      frame: R grows, and told to stop
 *                                      it exits with status 0.
 *
 * Exit status 0 when both parts hold, 1 if not.
 *
 * With the argument "orphan" it does something else: starts one thread
 * that writes a fresh heap page and sleeps a few ticks, and exits at once
 * (status 0) without waiting for it.  The thread runs on in the address
 * space its creator left; the space and its pages go when the thread
 * ends (tests/kernel/test_tlb.c checks that every page comes back).
 */
#include "lib/pv386.h"

#define PAGE		4096
#define THREADS		3
#define STACK_WORDS	512
#define MAGIC		0x7b1f00d5u
#define READS_BEFORE	2000	/* the reader has surely loaded the page */
#define WAIT_TICKS	10	/* after brk: time for many stale reads */
#define PF_VECTOR	14
#define KILLED_BY_PF	(-EXIT_KILLED_BASE - PF_VECTOR)

static uint32_t stacks[THREADS][STACK_WORDS] __attribute__((aligned(16)));
static volatile uint32_t results[THREADS];

static volatile uint32_t *victim;	/* the page the reader reads */
static volatile uint32_t reads, stop, wrong;

/* ---- part 1: threads share memory ---- */

static void writer(void *arg)
{
	uint32_t i = (uint32_t)arg;

	results[i] = MAGIC + i;
}

static int threads_share_memory(void)
{
	int pids[THREADS], i, ok = 0, status;

	for (i = 0; i < THREADS; i++)
		pids[i] = thread_create(writer, (void *)i, stacks[i] + STACK_WORDS);
	for (i = 0; i < THREADS; i++) {
		if (pids[i] < 0) {
			printf("tlbshoot: thread %d not created: %d\n", i, pids[i]);
			continue;
		}
		if (wait(pids[i], &status) != pids[i] || status != 0)
			printf("tlbshoot: thread %d: status %d\n", i, status);
		else
			ok += results[i] == MAGIC + (uint32_t)i;
	}
	printf("tlbshoot: threads: %d ok\n", ok);
	return ok == THREADS;
}

/* ---- part 2: a page given back faults at once elsewhere ---- */

/* Reads the page for ever: only its fault, or stop, ends it. */
static void reader(void *arg)
{
	(void)arg;
	for (;;) {
		if (*victim != MAGIC)
			wrong++;
		reads++;
		if (stop)
			exit(0);
	}
}

static int page_gone_for_the_reader(void)
{
	char *heap = sbrk(2 * PAGE);	/* the reader's stack, then the page */
	uint32_t after;
	int pid, status = 0;

	if (heap == (void *)-1) {
		printf("tlbshoot: no heap\n");
		return 0;
	}
	victim = (volatile uint32_t *)(heap + PAGE);
	*victim = MAGIC;
	pid = thread_create(reader, 0, heap + PAGE);
	if (pid < 0) {
		printf("tlbshoot: reader not created: %d\n", pid);
		return 0;
	}
	while (reads < READS_BEFORE)
		;
	brk(heap + PAGE);		/* the page goes back */
	after = reads;
	sleep_ticks(WAIT_TICKS);
	after = reads - after;
	stop = 1;
	wait(pid, &status);
	printf("tlbshoot: reads after brk: %u, reader status %d\n", after, status);
	if (wrong)
		printf("tlbshoot: the reader saw %u wrong values\n", wrong);
	return after <= 1 && status == KILLED_BY_PF && !wrong;
}

/* ---- orphan: a thread outlives the task that made it ---- */

static void sleeper(void *arg)
{
	*(volatile uint32_t *)arg = MAGIC;	/* a page of the space's own */
	sleep_ticks(WAIT_TICKS);
}

static int leave_a_thread(void)
{
	char *heap = sbrk(2 * PAGE);	/* its stack, then its page */

	if (heap == (void *)-1)
		return 1;
	return thread_create(sleeper, heap + PAGE, heap + PAGE) < 0;
}

int main(void)
{
	char arg[16];
	int threads_ok, shot_ok;

	if (getarg(arg, sizeof(arg)) >= 0 && !strcmp(arg, "orphan"))
		return leave_a_thread();
	threads_ok = threads_share_memory();
	shot_ok = page_gone_for_the_reader();

	return threads_ok && shot_ok ? 0 : 1;
}
