/*
 * bench_paths.h - what the bench_* programs share (make bench, the "paths"
 * figures): the time-stamp counter, the two ways into the kernel as bare
 * instructions, a loop that is timed, and the line each figure is
 * printed on.
 *
 * make bench runs QEMU with -icount shift=0, where the TSC advances by
 * exactly one per executed instruction, in ring 3 as in ring 0 (CR4.TSD
 * is clear, so rdtsc is allowed here).  A TSC difference is therefore an
 * instruction count, user and kernel instructions together.  The kernel's
 * bench option (kernel/bench.c) starts these programs one at a time with
 * the timer masked: nothing but the program (and the partner it spawns)
 * runs, and every context switch is one the program asked for.
 *
 * The system calls are issued inline, without the library's wrappers,
 * so that the only user instructions in a figure are the ones the calling
 * convention itself needs: the library's call and argument shuffling
 * would add the same count to all three kernels and blur their ratio.
 */
#ifndef PV386_USER_BENCH_PATHS_H
#define PV386_USER_BENCH_PATHS_H

#include "lib/pv386.h"

/* The low half is enough: no timed stretch comes near 2^32 instructions,
 * and a difference of low halves is exact modulo 2^32. */
static inline uint32_t bench_tsc(void)
{
	uint32_t low, high;

	asm volatile("rdtsc" : "=a" (low), "=d" (high));
	(void)high;
	return low;
}

/* int $0x80 and nothing else: the kernel restores every register but
 * EAX, the result. */
static inline long bench_int80(long nr)
{
	asm volatile("int $0x80" : "+a" (nr) : : "memory");
	return nr;
}

/*
 * sysenter with the two user instructions the convention requires
 * (uapi/syscalls.h): push the return address, leave the stack pointer
 * in EBP.  The kernel pops the return address and comes back with EBP
 * set to that stack pointer and ECX/EDX spent, so EBP is saved around
 * it; bench_sysenter_frame() is that saving alone, for subtraction.
 */
static inline long bench_sysenter(long nr)
{
	asm volatile("pushl %%ebp\n\t"
		     "pushl $1f\n\t"
		     "movl %%esp, %%ebp\n\t"
		     "sysenter\n"
		     "1:\tpopl %%ebp"
		     : "+a" (nr) : : "ecx", "edx", "memory");
	return nr;
}

static inline long bench_sysenter_frame(long nr)
{
	asm volatile("pushl %%ebp\n\tpopl %%ebp" : "+a" (nr) : : "memory");
	return nr;
}

/* The register set-up of a system call without the call, for the empty
 * loop of bench_int80(). */
static inline long bench_int80_frame(long nr)
{
	asm volatile("" : "+a" (nr) : : "memory");
	return nr;
}

/*
 * BENCH_TIMED(name, body) defines uint32_t name(unsigned int n): the
 * instructions that n runs of body take, the loop included.  noinline
 * keeps every loop a function of its own, so a loop and its empty twin
 * compile to the same shape and differ only by their bodies.  The body
 * sees the iteration number as i.
 */
#define BENCH_TIMED(name, body)						\
static __attribute__((noinline)) uint32_t name(unsigned int n)		\
{									\
	uint32_t start = bench_tsc();					\
	unsigned int i;							\
									\
	for (i = 0; i < n; i++) {					\
		body;							\
	}								\
	return bench_tsc() - start;					\
}

/* " W.HH": count / n with two decimals, rounded, in the format of the
 * kernel's own bench lines (tools/bench reads both).  Only 32-bit
 * arithmetic: user programs have no libgcc for 64-bit division. */
static inline void bench_print_per(uint32_t count, uint32_t n)
{
	uint32_t whole = count / n, rest = count % n;
	uint32_t hundredths = (rest * 100 + n / 2) / n;

	if (hundredths == 100)
		whole++, hundredths = 0;
	printf(" %u.%02u", (unsigned int)whole, (unsigned int)hundredths);
}

/*
 * "bench: path NAME W.HH": ticks per iteration.  A measured loop
 * cheaper than its empty twin means the measurement is broken: that is
 * printed as such rather than as a small figure.
 */
static inline void bench_print(const char *path, uint32_t ticks, uint32_t n)
{
	if ((int32_t)ticks < 0) {
		printf("bench: path %s broken (loop cheaper than its empty twin)\n", path);
		return;
	}
	printf("bench: path %s", path);
	bench_print_per(ticks, n);
	printf("\n");
}

/*
 * What the machine counted over the timed stretch (SYS_counts), printed
 * after the path's figure:
 *
 *   in a guest, what the path costs its host: "bench: exits NAME E H",
 *   the exits and the hypercalls among them per iteration, and the same
 *   whole, "bench: host totals NAME N EXITS HYPERCALLS" over N
 *   iterations, with a line for each count the host keeps that is not
 *   0, "bench: host count NAME INDEX COUNT" (the exits by reason and the
 *   interrupts injected: the kernel's lines "bench: host count name"
 *   say which is which, kernel/bench.c).  A guest's system call never
 *   leaves the guest, so reading them adds nothing;
 *
 *   under the trace backend, the padding instructions the patched
 *   native kernel's sites would have run: "bench: padding path NAME P"
 *   per iteration.  The reads' own system calls pass sites too, always
 *   the same ones: bench_counts_begin() measures them once, with
 *   nothing between two reads, and bench_counts_end() takes them off.
 *
 * Elsewhere (a PC, another backend) neither is counted, and no line.
 */
#define BENCH_HOST_WORDS	64	/* the kernel's HOST_COUNTS_MAX */

struct bench_counts {
	uint32_t host[BENCH_HOST_WORDS];	/* exits, hypercalls, by reason... */
	long host_words;			/* how many; <= 0: no host */
	uint32_t padding;
	int padded;				/* counted: the trace backend */
};

static inline void bench_counts_read(struct bench_counts *c)
{
	c->host_words = machine_counts(c->host, BENCH_HOST_WORDS, COUNTS_HOST);
	if (c->host_words > BENCH_HOST_WORDS)
		c->host_words = -1;		/* more than this program knows */
	c->padded = machine_counts(&c->padding, 1, COUNTS_PADDING) == 1;
}

/* c minus an earlier read of the same counts. */
static inline void bench_counts_since(struct bench_counts *c, const struct bench_counts *before)
{
	long i;

	if (c->host_words != before->host_words)
		c->host_words = -1;
	for (i = 0; i < c->host_words; i++)
		c->host[i] -= before->host[i];
	c->padded = c->padded && before->padded;
	c->padding -= before->padding;
}

/* The reads' own padding, measured at the first begin. */
static uint32_t bench_read_padding;
static int bench_read_padding_known;

static inline void bench_counts_begin(struct bench_counts *c)
{
	if (!bench_read_padding_known) {
		struct bench_counts first, second;

		bench_counts_read(&first);
		bench_counts_read(&second);
		bench_counts_since(&second, &first);
		bench_read_padding = second.padding;
		bench_read_padding_known = 1;
	}
	bench_counts_read(c);
}

/* c: the counts of the stretch since bench_counts_begin(). */
static inline void bench_counts_end(struct bench_counts *c)
{
	struct bench_counts before = *c;

	bench_counts_read(c);
	bench_counts_since(c, &before);
	c->padding -= bench_read_padding;
}

#define BENCH_HOST_TOTALS	2	/* exits, hypercalls: then the host's counts */

static inline void bench_print_host(const char *path, const struct bench_counts *c,
				    uint32_t n)
{
	long i;

	printf("bench: exits %s", path);
	bench_print_per(c->host[0], n);
	bench_print_per(c->host[1], n);
	printf("\nbench: host totals %s %u %u %u\n", path, (unsigned int)n,
	       (unsigned int)c->host[0], (unsigned int)c->host[1]);
	for (i = BENCH_HOST_TOTALS; i < c->host_words; i++)
		if (c->host[i])
			printf("bench: host count %s %ld %u\n", path, i - BENCH_HOST_TOTALS,
			       (unsigned int)c->host[i]);
}

static inline void bench_print_counts(const char *path, const struct bench_counts *c,
				      uint32_t n)
{
	if (c->host_words >= BENCH_HOST_TOTALS)
		bench_print_host(path, c, n);
	if (c->padded) {
		printf("bench: padding path %s", path);
		bench_print_per(c->padding, n);
		printf("\n");
	}
}

/* A path the CPU cannot take: shown as such, never as a figure. */
static inline void bench_print_absent(const char *path, const char *why)
{
	printf("bench: path %s absent (%s)\n", path, why);
}

/*
 * Two tasks taking turns, for the figures that need switches: this
 * program (the lead) spawns itself with the argument "partner", and both
 * run the same timed loop, each iteration of which ends in a yield.
 * Nothing else is runnable (the kernel's boot thread is waiting for the
 * lead, the idle task runs only when nobody else can, the timer is
 * masked), so every yield switches to the other task:
 *
 *   lead    loop(1)          the partner starts, runs its first
 *                            iteration (with the first-use costs) and
 *                            yields back: both are now in the loop
 *           loop(rounds)     timed: each of the lead's iterations is
 *                            the lead's body, a switch, the partner's
 *                            body, a switch back
 *   partner loop(rounds + 1) its last yield hands the lead back, and it
 *                            ends while the lead waits for it
 *
 * So the timed stretch holds exactly 2 * rounds switches and 2 * rounds
 * loop iterations (rounds of each task), whatever the iterations cost.
 * *ticks is the timed loop's instructions less two empty loops (one per
 * task), *counts what the machine counted meanwhile (bench_counts).  Returns
 * 0, or -1 after printing why the pair did not run.
 */
typedef uint32_t (*bench_loop_t)(unsigned int n);

static inline int bench_is_partner(void)
{
	char arg[16];

	return getarg(arg, sizeof(arg)) >= 0 && !strcmp(arg, "partner");
}

static inline int bench_pair(const char *program, unsigned int rounds,
			     bench_loop_t loop, bench_loop_t empty, uint32_t *ticks,
			     struct bench_counts *counts)
{
	int pid, status = -1;

	if (bench_is_partner()) {
		loop(rounds + 1);
		exit(0);
	}
	pid = spawn(program, "partner");
	if (pid < 0) {
		printf("%s: cannot spawn its partner: error %d\n", program, pid);
		return -1;
	}
	loop(1);
	bench_counts_begin(counts);
	*ticks = loop(rounds);
	bench_counts_end(counts);
	if (wait(pid, &status) != pid || status != 0) {
		printf("%s: the partner ended with status %d\n", program, status);
		return -1;
	}
	*ticks -= 2 * empty(rounds);
	return 0;
}

#endif
