/*
 * bench_pipe.c - make bench's pipe ping-pong: two tasks bouncing a byte
 * through a pair of pipes (lmbench's lat_pipe), instructions per round
 * trip.
 *
 * The lead writes the byte into one pipe and reads it back from the
 * other; its partner (this program spawned with "partner" and the
 * numbers of the two ends it uses, of those it inherits) reads it from
 * the first and writes it into the second.  Nothing else is runnable
 * (bench_paths.h), so each read of an empty pipe sleeps and switches to
 * the other task: a round trip is two writes, two reads and two context
 * switches, each call by the best way in (sysenter where the kernel set
 * it up, else int $0x80), each read that sleeps woken by the other
 * task's write.
 *
 *   lead     loop(1)        the partner starts, reads the byte, answers
 *                           and sleeps in its next read: both are now
 *                           in their loops
 *            loop(rounds)   timed: each iteration the lead's write and
 *                           read, a switch, the partner's read
 *                           returning, its write, its next read
 *                           sleeping, a switch back
 *            loop(1)        the partner's last read answered, it exits
 *   partner  loop(rounds + 2)
 *
 * So the timed stretch holds exactly rounds round trips, whatever each
 * costs.  The empty twin is the loop with the calls' registers set and
 * no call, one per task.  Afterwards, untimed, the lead checks that the
 * byte came back and that nothing is left: with the partner gone, its
 * pipe reads end of file and the other refuses a write (-EPIPE).
 */
#include "bench_paths.h"

#define ROUNDS	2000	/* each one round trip */

static int read_fd, write_fd;	/* this task's ends */
static char byte;

/* A call of three arguments (EBX, ECX, EDX) by each way in, as bare as
 * bench_paths.h's, and the register set-up alone for the twin. */
static inline long call3_sysenter(long nr, long a, long b, long c)
{
	asm volatile("pushl %%ebp\n\t"
		     "pushl $1f\n\t"
		     "movl %%esp, %%ebp\n\t"
		     "sysenter\n"
		     "1:\tpopl %%ebp"
		     : "+a" (nr), "+c" (b), "+d" (c) : "b" (a) : "memory");
	return nr;
}

static inline long call3_sysenter_frame(long nr, long a, long b, long c)
{
	asm volatile("pushl %%ebp\n\tpopl %%ebp"
		     : "+a" (nr), "+c" (b), "+d" (c) : "b" (a) : "memory");
	return nr;
}

static inline long call3_int80(long nr, long a, long b, long c)
{
	asm volatile("int $0x80" : "+a" (nr) : "b" (a), "c" (b), "d" (c) : "memory");
	return nr;
}

static inline long call3_int80_frame(long nr, long a, long b, long c)
{
	asm volatile("" : "+a" (nr) : "b" (a), "c" (b), "d" (c) : "memory");
	return nr;
}

_Static_assert(NR_FDS <= 26, "a descriptor is a letter in the partner's argument");

/* The lead writes first, the partner reads first. */
#define LEAD(call)							\
	call(SYS_fdwrite, write_fd, (long)&byte, 1);			\
	call(SYS_read, read_fd, (long)&byte, 1)
#define PARTNER(call)							\
	call(SYS_read, read_fd, (long)&byte, 1);			\
	call(SYS_fdwrite, write_fd, (long)&byte, 1)

BENCH_TIMED(lead_sysenter, LEAD(call3_sysenter))
BENCH_TIMED(lead_int80, LEAD(call3_int80))
BENCH_TIMED(partner_sysenter, PARTNER(call3_sysenter))
BENCH_TIMED(partner_int80, PARTNER(call3_int80))
BENCH_TIMED(empty_sysenter, LEAD(call3_sysenter_frame))
BENCH_TIMED(empty_int80, LEAD(call3_int80_frame))

/*
 * The partner: "partner RW", its two ends as letters (descriptor 0 is
 * 'a'; the library has no snprintf): the lead-to-partner pipe's read
 * end, the partner-to-lead pipe's write end.  It closes every other
 * descriptor it inherited, so each pipe's ends are one task's each.
 * Its status: 0, or 1 if the byte was not the lead's.
 */
static int partner(const char *ends, int sep)
{
	int fd;

	read_fd = ends[0] - 'a';
	write_fd = ends[1] - 'a';
	for (fd = 0; fd < NR_FDS; fd++)
		if (fd != read_fd && fd != write_fd)
			close(fd);
	(sep ? partner_sysenter : partner_int80)(ROUNDS + 2);
	return byte != 'p';
}

/* The lead: the pipes, the partner, the loops; the figure printed, or
 * 1 after saying what went wrong. */
static int lead(int sep)
{
	bench_loop_t loop = sep ? lead_sysenter : lead_int80;
	int to_partner[2], to_lead[2], pid, status = -1;
	struct bench_counts counts;
	uint32_t ticks;
	char arg[] = "partner ..";
	long eof, epipe;

	if (pipe(to_partner) || pipe(to_lead)) {
		printf("bench_pipe: no pipes\n");
		return 1;
	}
	arg[8] = 'a' + to_partner[0];
	arg[9] = 'a' + to_lead[1];
	pid = spawn("bench_pipe", arg);
	if (pid < 0) {
		printf("bench_pipe: cannot spawn its partner: error %d\n", pid);
		return 1;
	}
	read_fd = to_lead[0], write_fd = to_partner[1];
	close(to_partner[0]);
	close(to_lead[1]);
	byte = 'p';
	loop(1);
	bench_counts_begin(&counts);
	ticks = loop(ROUNDS);
	bench_counts_end(&counts);
	loop(1);
	if (wait(pid, &status) != pid || status != 0) {
		printf("bench_pipe: the partner ended with status %d\n", status);
		return 1;
	}
	eof = read(read_fd, &byte, 1);
	epipe = fdwrite(write_fd, &byte, 1);
	if (byte != 'p' || eof != 0 || epipe != -EPIPE) {
		printf("bench_pipe: byte %c, then read %ld (0 expected), write %ld (-EPIPE)\n",
		       byte, eof, epipe);
		return 1;
	}
	ticks -= 2 * (sep ? empty_sysenter : empty_int80)(ROUNDS);
	bench_print("pipe_pingpong", ticks, ROUNDS);
	bench_print_counts("pipe_pingpong", &counts, ROUNDS);
	return 0;
}

int main(void)
{
	char arg[40];
	int sep = have_sysenter();

	if (getarg(arg, sizeof(arg)) >= 0 && !strncmp(arg, "partner ", 8))
		return partner(arg + 8, sep);
	return lead(sep);
}
