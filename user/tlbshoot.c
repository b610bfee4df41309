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
 * With the argument "apart" (tests/kernel/test_tlb.c gives it where more
 * than one CPU runs) the same, but the page goes back only once the
 * reader has been seen reading on another CPU than the main task's: a
 * shootdown is then needed, and the test checks that one was asked.
 * Without it the reader may have run only by turns with the main task
 * on one CPU (a loaded host runs the other CPU's thread late), where
 * the page faults without one.  Never seen within APART_TICKS: "the
 * reader never read on another CPU while this one ran", status 1.
 *
 * With the argument "orphan" it does something else: starts one thread
 * that writes a fresh heap page and sleeps a few ticks, and exits at once
 * (status 0) without waiting for it.  The thread runs on in the address
 * space its creator left; the space and its pages go when the thread
 * ends (tests/kernel/test_tlb.c checks that every page comes back).
 *
 * Three more arguments, each a load or a check of its own:
 *
 *   storm[N]   shootdowns one after another: STORM_READERS threads read a
 *              page that stays (so the space is loaded on every CPU they
 *              run on) while the main task takes a page and gives it
 *              back N times (default STORM_SHRINKS), each time a
 *              shootdown to those CPUs.  One line, "tlbshoot: storm: ..."
 *              (tests/suite/hammer.py types at the shell meanwhile).
 *   reuse      frames given back must not be read by anyone after they
 *              are someone else's.  Round after round, REUSE_READERS
 *              threads (one per CPU on four) read the first of REUSE_PAGES
 *              heap pages over and over while the main task gives them all back with
 *              one brk, and a second program ("refill", spawned at the
 *              start) takes frames and writes its own mark in them as
 *              fast as it can.  A reader must read only this program's
 *              MAGIC until its read faults: a brk that freed the frames
 *              before the shootdown lets a reader on another CPU read the
 *              other program's mark (or the zeroes of its fresh page)
 *              through its stale TLB entry.  Every reader must end killed
 *              by #PF.  One line: "tlbshoot: reuse: R rounds, S stale
 *              reads ...".
 *   refill[T]  that second program: for T ticks, takes REUSE_PAGES heap
 *              pages, marks each with REFILL_MARK, and gives them back.
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
#define APART_TICKS	1000	/* "apart": at most, for the CPUs to differ */
#define APART_SPINS	100000	/* a look at the reader's reads */

static uint32_t stacks[THREADS][STACK_WORDS] __attribute__((aligned(16)));
static volatile uint32_t results[THREADS];

static volatile uint32_t *victim;	/* the page the reader reads */
static volatile uint32_t reads, stop, wrong;
static volatile uint32_t reader_cpu;	/* the APIC id of its last read's CPU */
static int apart;			/* "apart": wait until the CPUs differ */

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

/* The APIC id of the CPU this runs on now: CPUID leaf 1, EBX bits
 * 31-24, unprivileged (the kernel numbers QEMU's CPUs in APIC-id
 * order).  The CPU may change right after it. */
static unsigned int apic_id(void)
{
	uint32_t a = 1, b, c = 0, d;

	asm volatile("cpuid" : "+a" (a), "=b" (b), "+c" (c), "=d" (d));
	return b >> 24;
}

/* Reads the page for ever: only its fault, or stop, ends it. */
static void reader(void *arg)
{
	(void)arg;
	for (;;) {
		if (apart)
			reader_cpu = apic_id();
		if (*victim != MAGIC)
			wrong++;
		reads++;
		if (stop)
			exit(0);
	}
}

static uint32_t ticks_now(void);

/*
 * "apart": until the reader is seen reading on another CPU while this
 * one runs (its reads go on between two looks from the same CPU, the
 * last on another): that CPU's TLB then holds the page, and brk must
 * ask it to flush.  Counted in the reader's progress, not in time: on a
 * host with fewer cores than vCPUs the other CPU's thread may not run
 * for a long while, and the reader meanwhile takes turns with this task
 * on this CPU, where no shootdown is needed.  Bounded, for a machine
 * whose other CPUs never run it.
 */
static int reading_elsewhere(void)
{
	uint32_t start = ticks_now(), before;
	unsigned int me;
	int spins;

	do {
		me = apic_id();
		before = reads;
		for (spins = 0; spins < APART_SPINS && reads - before < 2; spins++)
			;
		if (reads - before >= 2 && reader_cpu != me && apic_id() == me)
			return 1;
	} while (ticks_now() - start < APART_TICKS);
	return 0;
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
	if (apart && !reading_elsewhere()) {
		printf("tlbshoot: the reader never read on another CPU while this one ran\n");
		stop = 1;
		wait(pid, &status);
		return 0;
	}
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

/* ---- storm: a shootdown after another, readers on every CPU ---- */

#define MAX_READERS	4
#define STORM_READERS	3
#define STORM_SHRINKS	2000
#define START_TICKS	200	/* a thread not running by then is late */

static uint32_t reader_stacks[MAX_READERS][STACK_WORDS] __attribute__((aligned(16)));
static volatile uint32_t reader_reads[MAX_READERS];
static volatile uint32_t *steady;	/* storm: a page that stays */

static uint32_t ticks_now(void)
{
	uint32_t up[4] = { 0 };

	uptime(up);
	return up[0];
}

/* Until each of n readers has read at least `reads` times, or the ticks
 * run out: whether they all did. */
static int readers_reading(int n, uint32_t reads)
{
	uint32_t start = ticks_now();
	int i, ready;

	do {
		for (i = 0, ready = 0; i < n; i++)
			ready += reader_reads[i] >= reads;
		if (ready == n)
			return 1;
		yield();
	} while (ticks_now() - start < START_TICKS);
	return 0;
}

static void steady_reader(void *arg)
{
	uint32_t i = (uint32_t)arg;

	while (!stop) {
		if (*steady != MAGIC)
			wrong++;
		reader_reads[i]++;
	}
}

static int storm(unsigned long shrinks)
{
	int pids[STORM_READERS], i, ok = 0, status;
	unsigned long done = 0;
	volatile uint32_t *page;

	steady = sbrk(PAGE);
	if (steady == (void *)-1) {
		printf("tlbshoot: no heap\n");
		return 1;
	}
	*steady = MAGIC;
	for (i = 0; i < STORM_READERS; i++)
		pids[i] = thread_create(steady_reader, (void *)i,
					reader_stacks[i] + STACK_WORDS);
	readers_reading(STORM_READERS, READS_BEFORE);
	for (; done < shrinks; done++) {
		page = sbrk(PAGE);
		if (page == (void *)-1)
			break;
		*page = done;		/* a frame of its own, then given back */
		sbrk(-PAGE);
	}
	stop = 1;
	for (i = 0; i < STORM_READERS; i++)
		ok += pids[i] > 0 && wait(pids[i], &status) == pids[i] && status == 0;
	printf("tlbshoot: storm: %lu pages given back, %d of %d readers ok, %u wrong reads\n",
	       done, ok, STORM_READERS, wrong);
	return done == shrinks && ok == STORM_READERS && !wrong ? 0 : 1;
}

/* ---- reuse: a frame given back is never read through a stale entry ---- */

#define REUSE_READERS	4
#define REUSE_PAGES	8
#define REUSE_TICKS	500	/* the rounds, and the refiller's life */
#define REUSE_ROUNDS	400	/* at most */
#define REUSE_READS	100	/* each reader's reads before the brk */
#define REFILL_MARK	0x0dd0da7au
#define WORDS_PER_PAGE	(PAGE / 4)
#define STRING(x)	#x
#define TICKS_ARG(x)	STRING(x)	/* a number as spawn's text */

static volatile uint32_t *reuse_base;	/* this round's pages */
static volatile uint32_t stale_reads, stale_value;

/* Reads the round's first page for ever: only its fault ends it.  That
 * page's frame is the lowest of the round's (they were touched in
 * order, and the allocator gives the lowest free frame), so it is the
 * one the refiller's next page takes. */
static void reuse_reader(void *arg)
{
	uint32_t i = (uint32_t)arg, v;

	for (;;) {
		v = reuse_base[0];
		if (v != MAGIC) {
			stale_value = v;
			stale_reads++;
		}
		reader_reads[i]++;
	}
}

/* One round: pages, readers on them, all given back by one brk; the
 * number of readers killed by their page fault, as they must be. */
static int reuse_round(void)
{
	char *base = sbrk(REUSE_PAGES * PAGE);
	int pids[REUSE_READERS], i, killed = 0, status;

	if (base == (void *)-1)
		return -1;
	reuse_base = (volatile uint32_t *)base;
	for (i = 0; i < REUSE_PAGES; i++)
		reuse_base[i * WORDS_PER_PAGE] = MAGIC;
	for (i = 0; i < REUSE_READERS; i++) {
		reader_reads[i] = 0;
		pids[i] = thread_create(reuse_reader, (void *)i, reader_stacks[i] + STACK_WORDS);
	}
	readers_reading(REUSE_READERS, REUSE_READS);
	brk(base);			/* every page goes back at once */
	for (i = 0; i < REUSE_READERS; i++)
		killed += pids[i] > 0 && wait(pids[i], &status) == pids[i] &&
			  status == KILLED_BY_PF;
	return killed;
}

static int reuse(void)
{
	uint32_t start = ticks_now();
	int refiller, rounds = 0, killed = 0, k, status = -1;

	refiller = spawn("tlbshoot", "refill" TICKS_ARG(REUSE_TICKS));
	if (refiller < 0)
		printf("tlbshoot: refiller not started: %d\n", refiller);
	while (rounds < REUSE_ROUNDS && ticks_now() - start < REUSE_TICKS) {
		if ((k = reuse_round()) < 0)
			break;
		killed += k;
		rounds++;
	}
	if (refiller > 0)
		wait(refiller, &status);
	printf("tlbshoot: reuse: %d rounds, %u stale reads (the last %08x), "
	       "%d of %d readers killed by #PF, refiller status %d\n", rounds, stale_reads,
	       stale_value, killed, rounds * REUSE_READERS, status);
	return rounds > 0 && !stale_reads && killed == rounds * REUSE_READERS &&
	       status == 0 ? 0 : 1;
}

/* The other program: frames taken, marked as its own, given back. */
static int refill(unsigned long ticks)
{
	uint32_t start = ticks_now();
	volatile uint32_t *p;
	int i;

	while (ticks_now() - start < ticks) {
		p = sbrk(REUSE_PAGES * PAGE);
		if (p == (void *)-1)
			return 1;
		for (i = 0; i < REUSE_PAGES; i++)
			p[i * WORDS_PER_PAGE] = REFILL_MARK;
		sbrk(-REUSE_PAGES * PAGE);
	}
	return 0;
}

/* The number after a word (storm2000), or dflt if none. */
static unsigned long number_after(const char *arg, size_t len, unsigned long dflt)
{
	return arg[len] ? strtoul(arg + len, NULL, 10) : dflt;
}

int main(void)
{
	char arg[16] = "";
	int threads_ok, shot_ok;

	getarg(arg, sizeof(arg));
	apart = !strcmp(arg, "apart");
	if (!strcmp(arg, "orphan"))
		return leave_a_thread();
	if (!strncmp(arg, "storm", 5))
		return storm(number_after(arg, 5, STORM_SHRINKS));
	if (!strcmp(arg, "reuse"))
		return reuse();
	if (!strncmp(arg, "refill", 6))
		return refill(number_after(arg, 6, REUSE_TICKS));
	threads_ok = threads_share_memory();
	shot_ok = page_gone_for_the_reader();

	return threads_ok && shot_ok ? 0 : 1;
}
