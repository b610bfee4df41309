/*
 * sysfuzz.c - a system-call fuzzer: thousands of calls with random
 * numbers and arguments biased to the values where kernels break, each
 * result checked against what that call must return.
 *
 * badptr.c hands each call a few bad pointers from a table; this
 * program draws every argument from a pool for its kind (pointer,
 * length, string, slot, pid, ticks, level, ...): 0, -1, kernel
 * addresses, the edges of user space, unaligned pointers, ranges that
 * cross into the kernel or off the heap, lengths that wrap, a scratch
 * area in its heap, random values.  A quarter of the numbers are
 * outside the table (-1, NR_SYSCALLS, NR_SYSCALLS + 1, 0x80000000,
 * 0xffffffff, random ones).  The calls alternate between int $0x80 and
 * sysenter (where the kernel offers it), so both ways in see every
 * call.  A seed fixes the whole run: a mismatch can be replayed.
 *
 * Results are checked, not just survived: each must be >= 0 or a known
 * -errno, and where the arguments decide the answer, exactly that
 * answer (the rules of kernel/syscall.c, arch/x86/mm/uaccess.c,
 * task_segments.c, hw_breakpoint.c, in the order the kernel applies
 * them).  After each set_tls and set_ldt the slot's descriptor is read
 * back from ring 3 with lar and lsl: a present, writable data segment
 * of DPL 3 that ends below 0xc0000000, or nothing once freed; where its
 * base is in the heap, a marker is read through %fs to prove the base.
 *
 * To stay predictable it keeps to what it can model: it exits only at
 * the end, sleeps at most 2 ticks (or asks for a sleep the kernel must
 * refuse), spawns only `sleep` with a short argument and reaps every
 * child, and gives a call that writes user memory (wait, getarg,
 * uptime, pmc, cpuinfo, hostcounts, counts) or prints it (write) no
 * pointer into its own data, bss or stack: a pointer that would land
 * there is moved into the heap, which it keeps as scratch.  brk is fuzzed too, so the model
 * of the heap follows it.  thread is given hostile entry points and
 * stacks; the one it may accept starts a thread that exits at once, on
 * a stack of its own, one such thread alive at a time (a child like a
 * spawned one, reaped by wait).  Watchpoints go only where nothing of this
 * program writes.
 *
 * After every BATCH calls, and at the end, it checks that the kernel
 * still reaches its own memory as the CPU does, whatever the calls did
 * to the address space (threads started and killed, brk): a call that
 * writes a buffer on its stack and one in its heap, one that reads a
 * name from each, a wait whose status is on its stack; at the very end,
 * once every child is collected, a program spawned and waited for, its
 * status on the stack.  These calls are not counted in the summary.
 *
 * Pipes are modelled as well: which descriptors name which pipe's ends,
 * the bytes inside each (and, where it holds the read end, what they
 * are: a read must give back the bytes written, in order), and which
 * ends another task may hold: a child or counted thread holds every end
 * it started with until it is collected, a wild thread to the end.  It
 * never makes a call that would wait: a read of an empty pipe whose
 * write end some task may hold is made of 0 bytes, a write is cut to
 * the room there is.  At the end, every child collected, each pipe's
 * write ends are closed and its read end must give what it holds, then
 * end of file (calls not counted either).
 *
 * Argument, comma-separated words:
 *   seed=S      the generator's seed (default 1), decimal or 0x-hex
 *   calls=N     how many calls (default 1000)
 *   seconds=T   instead of calls=: call until T seconds have passed
 *   edges       only each number outside the table, each way in:
 *               every one must give -ENOSYS
 *   wild        threads as a hostile program makes them: any number
 *               alive, on hostile entries and stacks, some killed by a
 *               fault, none waited for by the model; waits for any pid
 *               collect them at random (their results only checked to
 *               be known errors).  At the end every child is collected,
 *               each wait's status on the stack, then the spawn and wait.
 * At the end one line,
 *   sysfuzz: seed S, N calls (I int80, E sysenter), M mismatches
 * (`edges` in place of `seed S` for edges), after at most 20 lines
 * naming a mismatch each.  Exit status: the number of mismatches, at
 * most 100; 0 when every result was right.  tests/kernel/test_sysfuzz.c
 * runs it; `make fuzz-syscalls` runs it longer.
 */
#include "lib/pv386.h"

#define PAGE		4096u
#define USER_BASE	0x40000000u
#define USER_END	0xc0000000u
#define STACK_BOTTOM	(USER_END - 256 * 1024)	/* exec.h: USER_STACK_MAX */
#define BRK_LIMIT	(STACK_BOTTOM - PAGE)	/* brk must end below this */
#define WRITE_MAX	4096u			/* kernel/syscall.c */
#define WRITE_CHUNK	128u
#define NAME_SIZE	16	/* a task's name with its NUL (TASK_NAME_LEN) */
#define ARG_SIZE	64	/* a task's argument with its NUL */
#define TLS_SLOTS	3
#define TLS_SELECTOR(i)	((7 + (i)) * 8 + 3)	/* GDT entries 7-9, RPL 3 */
#define LDT_SLOTS	8
#define LDT_SELECTOR(i)	((i) * 8 + 4 + 3)	/* TI (the LDT), RPL 3 */
#define WATCHPOINTS	4
#define ONE_MIB		0x100000u	/* up to here a segment's limit is in bytes */

#define MAX_CHILDREN	3
#define HEAP_SCRATCH	(2 * PAGE)	/* the heap at the start */
#define HEAP_KEEP	(256 * PAGE)	/* a larger heap is shrunk back after the call */
#define SHOWN_MISMATCHES 20
#define MAX_STATUS	100

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PICK(a)		((a)[below(ARRAY_SIZE(a))])

/* ---- the run's state ---- */

static uint32_t rng;			/* xorshift32: never 0 */
static uint32_t heap_start, heap_end;	/* the heap as brk left it */
static int my_pid;
static char my_arg[ARG_SIZE];
static uint32_t arg_len;
static uint32_t hz, last_ticks, cpu_family, cpu_feature_bits;
static int pmc_absent;			/* pmc gives -ENODEV whatever it is passed */
static int no_host;			/* hostcounts too: not a guest */
static uint32_t host_count[2];		/* the host's counts last seen */
static long counts_words[2];		/* SYS_counts' words by which, or -ENODEV */
static uint32_t counts_seen[2];		/* the first word of each, last seen */
static int children[MAX_CHILDREN], nr_children;
static int watches;			/* watchpoints armed: they stay */
static int wild;			/* the `wild` word */

/* What a segment slot should hold; limit 0: free. */
struct segment {
	uint32_t base, limit;
};
static struct segment tls[TLS_SLOTS], ldt[LDT_SLOTS];

/*
 * A pipe this program holds an end of, as the kernel must see it: its
 * ends in our table, the bytes inside (and, for one whose read end we
 * hold, what they are, from data[head] on, a ring), and whether a wild
 * thread may hold an end too.  A spawned child or a counted thread holds
 * every end we held when it started, until it is collected
 * (child_ends).  Slots by pipe: at most NR_FDS pipes have an end here.
 */
struct pipe_model {
	int used;
	int read_fd, write_fd;		/* -1: closed here */
	uint32_t held, head;
	int wild_reader, wild_writer;
	char data[PIPE_BUF];
};
static struct pipe_model pipes[NR_FDS];
static int fd_pipe[NR_FDS];		/* the pipe a descriptor names, or -1 */
static uint32_t child_ends[MAX_CHILDREN][2];	/* bit i: pipe i's read, write end */

static unsigned long iteration, int80_calls, sysenter_calls, mismatches;

/* The call being checked, for the mismatch line. */
static struct {
	const char *name;
	uint32_t nr, a, b, c;
	int by_sysenter;
	long result;
} cur;

/* ---- the generator: xorshift32, so a seed fixes the run ---- */

static uint32_t random32(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static uint32_t below(uint32_t n)
{
	return random32() % n;
}

static void seed_generator(uint32_t seed)
{
	rng = seed * 2654435761u ^ 0x5bd1e995u;	/* spread small seeds */
	if (!rng)
		rng = 1;
}

/* ---- reporting ---- */

static void report(const char *fmt, ...)
{
	char why[120];
	va_list ap;

	if (++mismatches > SHOWN_MISMATCHES)
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	printf("sysfuzz: call %lu by %s: %s(%x, %x, %x) [nr %x] = %d: %s\n", iteration,
	       cur.by_sysenter ? "sysenter" : "int80", cur.name, (unsigned int)cur.a,
	       (unsigned int)cur.b, (unsigned int)cur.c, (unsigned int)cur.nr,
	       (int)cur.result, why);
}

static void expect(long want)
{
	if (cur.result != want)
		report("expected %d", (int)want);
}

static int is_error(long r)
{
	return (uint32_t)r >= (uint32_t)-SYSCALL_ERROR_MAX;
}

static int known_errno(long r)
{
	switch (-r) {
	case EPERM: case ENOENT: case ESRCH: case EINTR: case EAGAIN: case ENOMEM:
	case EFAULT: case EBUSY: case EINVAL: case ENOSYS: case ECHILD: case ENODEV:
	case EBADF: case ENFILE: case EMFILE: case EPIPE:
		return 1;
	}
	return 0;
}

/* ---- the ways in ---- */

static long enter_by(int by_sysenter, const char *name, uint32_t nr, uint32_t a,
		     uint32_t b, uint32_t c)
{
	cur.name = name;
	cur.nr = nr, cur.a = a, cur.b = b, cur.c = c;
	cur.by_sysenter = by_sysenter;
	if (by_sysenter) {
		sysenter_calls++;
		cur.result = syscall_sysenter(nr, a, b, c);
	} else {
		int80_calls++;
		cur.result = syscall_int80(nr, a, b, c);
	}
	if (is_error(cur.result) && !known_errno(cur.result))
		report("not a known error number");
	return cur.result;
}

/* Odd calls by sysenter where there is one: each way gets half. */
static long enter(const char *name, uint32_t nr, uint32_t a, uint32_t b, uint32_t c)
{
	return enter_by(have_sysenter() && (iteration & 1), name, nr, a, b, c);
}

/* ---- the model of this program's address space ---- */

static int user_range_ok(uint32_t p, uint32_t n)
{
	return p >= USER_BASE && p < USER_END && n <= USER_END - p;
}

/* Whether [p, p + n) meets [start, end); p + n must not wrap. */
static int overlaps(uint32_t p, uint32_t n, uint32_t start, uint32_t end)
{
	return n && p < end && p + n > start;
}

enum outcome { DONE, FAULT, AVOID };

/*
 * What the kernel meets writing n > 0 bytes at p: DONE (all in the
 * heap), FAULT (outside user space, read-only text, or running off the
 * heap into unmapped pages), or AVOID: it would land on our own data or
 * stack, which a fuzzer must not let it do.
 */
static enum outcome write_outcome(uint32_t p, uint32_t n)
{
	if (!user_range_ok(p, n))
		return FAULT;
	if (overlaps(p, n, STACK_BOTTOM, USER_END))
		return AVOID;
	if (p + n <= USER_BASE + PAGE)	/* text or rodata: data starts on a later page */
		return FAULT;
	if (overlaps(p, n, USER_BASE, heap_start))
		return AVOID;
	if (p >= heap_start && p + n <= heap_end)
		return DONE;
	return FAULT;
}

/* How many bytes from p on the kernel can read, at most n, for a range
 * user_range_ok allows; -1 if it would read our image or stack (write
 * would print them). */
static int readable(uint32_t p, uint32_t n)
{
	if (overlaps(p, n, USER_BASE, heap_start) || overlaps(p, n, STACK_BOTTOM, USER_END))
		return -1;
	if (p >= heap_start && p < heap_end)
		return n < heap_end - p ? (int)n : (int)(heap_end - p);
	return 0;
}

/* ---- argument pools ---- */

/* A place in the heap for n bytes, unaligned as often as not; the
 * heap's end (unmapped beyond) if it has no room. */
static uint32_t scratch_pointer(uint32_t n)
{
	uint32_t room = heap_end - heap_start;

	if (room < n)
		return heap_end;
	room -= n;
	if (below(2))
		return heap_end - n - below(room < 64 ? room + 1 : 64);
	return heap_start + below(room < 64 ? room + 1 : 64);
}

/* A pointer for an access of n bytes: mostly scratch, often one the
 * kernel must refuse. */
static uint32_t pick_pointer(uint32_t n)
{
	static const uint32_t fixed[] = {
		0, 1, 0xfff, 0x100000, 0x200000, 0x3ffffffc, 0x3fffffff, /* kernel */
		USER_BASE, USER_BASE + 1, USER_BASE + 2, USER_BASE + PAGE - 1, /* text */
		0x7fffffff, 0x80000000, BRK_LIMIT, STACK_BOTTOM - 4,	/* unmapped */
		0xbffffffc, 0xbffffffd, 0xbfffffff,			/* the top */
		USER_END, USER_END + 1, 0xfffffffc, 0xffffffff,		/* past it */
	};

	if (!n)
		n = 1;
	switch (below(8)) {
	case 0: case 1: return PICK(fixed);
	case 2: return USER_END - 1 - below(n);		/* crosses into the kernel */
	case 3: return random32();
	case 4: return heap_end - 1 - below(n);		/* runs off the heap */
	default: return scratch_pointer(n);
	}
}

/* A pointer the kernel will write n bytes at: from the pool, but moved
 * into the heap if it would land on our data or stack. */
static uint32_t out_pointer(uint32_t n)
{
	uint32_t p = pick_pointer(n);

	return write_outcome(p, n) == AVOID ? scratch_pointer(n) : p;
}

/* A length for a range at p: around the chunk and the limit, to the
 * end of user space and one past it, wrapping past 2^32. */
static uint32_t pick_length(uint32_t p)
{
	static const uint32_t fixed[] = {
		0, 1, 2, 3, 4, 127, 128, 129, 255, 256, 4095, 4096, 4097,
		0x7fffffff, 0x80000000, 0xfffffffc, 0xffffffff,
	};

	switch (below(6)) {
	case 0: case 1: return PICK(fixed);
	case 2: return USER_END - p - 1 + below(3);
	case 3: return 0u - p + below(3);
	case 4: return random32();
	default: return below(300);
	}
}

/* A value the call ignores or takes as a plain number: the ones a
 * kernel might treat specially, or any. */
static uint32_t pick_plain(void)
{
	static const uint32_t fixed[] = {
		0, 1, -1, 2, 0x7fffffff, 0x80000000, USER_BASE, USER_END, 0xfffff000,
	};

	return below(2) ? PICK(fixed) : random32();
}

/* ---- the calls, each with its oracle ---- */

/* A range that starts well inside user space and ends a few bytes past
 * it: the kernel must refuse it whole, not print the chunks before the
 * edge and stop at the first unmapped byte. */
static void pick_range_past_the_top(uint32_t *p, uint32_t *len)
{
	*p = USER_END - 1 - below(WRITE_MAX - 8);
	*len = USER_END - *p + 1 + below(8);
}

static void fuzz_write(void)
{
	uint32_t p = pick_pointer(64), len = pick_length(p);
	int reads, r;

	if (!below(8))
		pick_range_past_the_top(&p, &len);
	reads = len <= WRITE_MAX && user_range_ok(p, len);
	if (reads && readable(p, len) < 0) {	/* keep the length, move into the heap */
		p = heap_end - (len < heap_end - heap_start ? len : heap_end - heap_start);
		reads = user_range_ok(p, len);
	}
	r = reads ? readable(p, len) : 0;
	memset((void *)p, 0, r);	/* a NUL ends printk's %s: nothing shows */
	enter("write", SYS_write, p, len, pick_plain());
	if (len > WRITE_MAX)
		expect(-EINVAL);
	else if (!user_range_ok(p, len))
		expect(-EFAULT);
	else if (r == (int)len)
		expect(len);
	else	/* whole chunks until the one that faults */
		expect(r >= (int)WRITE_CHUNK ? r / (int)WRITE_CHUNK * (int)WRITE_CHUNK : -EFAULT);
}

static void fuzz_getpid(void)
{
	enter("getpid", SYS_getpid, pick_plain(), pick_plain(), pick_plain());
	expect(my_pid);
}

static void fuzz_yield(void)
{
	enter("yield", SYS_yield, pick_plain(), pick_plain(), pick_plain());
	expect(0);
}

static void fuzz_nop(void)
{
	enter("nop", SYS_nop, pick_plain(), pick_plain(), pick_plain());
	expect(0);
}

/* Mostly 0 (a yield) or a length the kernel must refuse; 1-2 ticks now
 * and then, so the run stays short. */
static void fuzz_sleep(void)
{
	static const uint32_t refused[] = { 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff };
	uint32_t ticks;

	switch (below(16)) {
	case 0: ticks = 1 + below(2); break;
	case 1: case 2: case 3: case 4: case 5: case 6: ticks = 0; break;
	case 7: ticks = random32() | 0x80000000; break;
	default: ticks = PICK(refused); break;
	}
	enter("sleep", SYS_sleep, ticks, pick_plain(), pick_plain());
	expect(ticks > SLEEP_MAX_TICKS ? -EINVAL : 0);
}

/* A string at the very end of the heap, its NUL (if terminated) the
 * last byte: the kernel reads up to there and no further.  The heap's
 * end, where nothing is mapped, if it has no room. */
static uint32_t at_heap_end(const char *s, int terminated)
{
	uint32_t n = strlen(s) + (terminated ? 1 : 0);

	if (heap_end - heap_start < n)
		return heap_end;
	memcpy((void *)(heap_end - n), s, n);
	return heap_end - n;
}

static uint32_t bad_string_pointer(void)
{
	static const uint32_t bad[] = {
		0x100000, 0x3fffffff, 0x80000000, BRK_LIMIT, USER_END, 0xffffffff,
	};

	return PICK(bad);
}

static const char nosuch[] = "nosuch", longest_name[] = "abcdefghijklmno",
	too_long_name[] = "abcdefghijklmnop";

/* A program name for spawn: its pointer; *err the error reading it
 * gives (0: none), *program whether it names a program that runs. */
static uint32_t pick_name(int *err, int *program)
{
	uint32_t p;

	*err = 0;
	*program = 0;
	switch (below(8)) {
	case 0: *program = 1; return (uint32_t)"sleep";
	case 1: p = at_heap_end("sleep", 1); break;
	case 2: p = at_heap_end("sleep", 0); *err = -EFAULT; return p;
	case 3: return (uint32_t)nosuch;
	case 4: return (uint32_t)longest_name;
	case 5: *err = -EINVAL; return (uint32_t)too_long_name;
	case 6: return (uint32_t)"";
	default: *err = -EFAULT; return below(3) ? bad_string_pointer() : 0;
	}
	if (p == heap_end)
		*err = -EFAULT;
	*program = !*err;
	return p;
}

#define A8	"aaaaaaaa"
static const char arg_longest[] = A8 A8 A8 A8 A8 A8 A8 "aaaaaaa";	/* 63 */
static const char arg_too_long[] = A8 A8 A8 A8 A8 A8 A8 A8;		/* 64 */

/* An argument for spawn, as pick_name; sleep reads each as 0-2 ticks
 * (strtoul stops at the first 'a'), or 10 for none.  Not at the heap's
 * end if the name is already there (name_at), which it would spoil. */
static uint32_t pick_spawn_arg(int *err, uint32_t name_at)
{
	static const char *const shorts[] = { "0", "1", "2" };
	uint32_t p, choice = below(8);

	*err = 0;
	if ((choice == 4 || choice == 5) && name_at >= heap_end - NAME_SIZE &&
	    name_at <= heap_end)
		choice = 7;
	switch (choice) {
	case 0: return below(4) ? (uint32_t)PICK(shorts) : 0;	/* 0: no argument */
	case 1: return (uint32_t)PICK(shorts);
	case 2: return (uint32_t)arg_longest;
	case 3: *err = -EINVAL; return (uint32_t)arg_too_long;
	case 4: p = at_heap_end("1", 1); break;
	case 5: p = at_heap_end("1", 0); *err = -EFAULT; return p;
	default: *err = -EFAULT; return bad_string_pointer();
	}
	if (p == heap_end)
		*err = -EFAULT;
	return p;
}

static int child_index(long pid)
{
	int i;

	for (i = 0; i < nr_children; i++)
		if (children[i] == pid)
			return i;
	return -1;
}

/* The ends a new child starts with: ours, all of them. */
static void note_child_ends(int i)
{
	int p;

	child_ends[i][0] = child_ends[i][1] = 0;
	for (p = 0; p < NR_FDS; p++) {
		if (pipes[p].used && pipes[p].read_fd >= 0)
			child_ends[i][0] |= 1u << p;
		if (pipes[p].used && pipes[p].write_fd >= 0)
			child_ends[i][1] |= 1u << p;
	}
}

static void add_child(int pid)
{
	children[nr_children] = pid;
	note_child_ends(nr_children++);
}

static void forget_child(int i)
{
	children[i] = children[--nr_children];
	child_ends[i][0] = child_ends[nr_children][0];
	child_ends[i][1] = child_ends[nr_children][1];
}

/*
 * After an answer that was wrong, the model follows what the kernel did,
 * so that one wrong answer is reported once and not again at every later
 * wait: a spawn or thread that should have failed but made a child (a
 * pid came back), a wait that should have failed but collected one.
 * Seen under DOSBox, which ignores CR0.WP: a thread whose stack is the
 * read-only code, a wait whose status is there, both succeed
 * (tests/suite/gaps/dosbox.py).
 */
static void follow_unexpected_child(void)
{
	if (!is_error(cur.result) && cur.result > my_pid && child_index(cur.result) < 0 &&
	    nr_children < MAX_CHILDREN)
		add_child(cur.result);
}

static void follow_unexpected_collect(void)
{
	int i = is_error(cur.result) ? -1 : child_index(cur.result);

	if (i >= 0)
		forget_child(i);
}

/*
 * The answer to a spawn or thread call: err (not 0) when its arguments
 * are bad, else a new child's pid, which is remembered - or a refusal
 * for want of room, which is right too.  Returns the new pid, or 0.
 */
static int check_new_child(int err)
{
	if (err) {
		expect(err);
		follow_unexpected_child();
		return 0;
	}
	if (cur.result == -EAGAIN || cur.result == -ENOMEM)
		return 0;	/* the machine is full: a right answer */
	if (cur.result <= my_pid || child_index(cur.result) >= 0) {
		report("expected a new pid");
		return 0;
	}
	add_child(cur.result);
	return cur.result;
}

static void fuzz_spawn(void)
{
	int name_err, arg_err, program;
	uint32_t name = pick_name(&name_err, &program), arg = pick_spawn_arg(&arg_err, name);

	if (program && nr_children == MAX_CHILDREN) {	/* keep task slots for others */
		name = (uint32_t)nosuch;
		program = 0;
	}
	enter("spawn", SYS_spawn, name, arg, pick_plain());
	check_new_child(name_err ? name_err : arg_err ? arg_err : !program ? -ENOENT : 0);
}

static uint32_t pick_pid(void)
{
	static const uint32_t fixed[] = { -1, -1, 0, 1, -2, 0x7fffffff, 0x80000000 };

	switch (below(6)) {
	case 0: case 1: return PICK(fixed);
	case 2: return my_pid;
	case 3: return random32();
	default: return nr_children ? (uint32_t)children[below(nr_children)] : (uint32_t)-1;
	}
}

/* A status pointer: first checked by reading and writing back what is
 * there; the status is written once a child is collected (a sleep's: 0). */
static void fuzz_wait(void)
{
	uint32_t pid = pick_pid(), status = below(4) ? out_pointer(4) : 0;
	enum outcome o = status ? write_outcome(status, 4) : DONE;
	int i, any;

	if (status && o == DONE)
		*(volatile int *)status = 0x5a5a5a5a;
	enter("wait", SYS_wait, pid, status, pick_plain());
	if (o == FAULT) {
		expect(-EFAULT);
		follow_unexpected_collect();
		return;
	}
	any = (int)pid == -1 && nr_children;
	if (!any && child_index(pid) < 0) {
		expect(-ECHILD);
		return;
	}
	i = child_index(cur.result);
	if (i < 0 || (!any && cur.result != (long)pid)) {
		report("expected the pid of a child");
		return;
	}
	forget_child(i);
	if (status && *(volatile int *)status != 0)
		report("status %d, expected 0", *(volatile int *)status);
}

/* ---- segments: set_tls and set_ldt ---- */

static uint32_t pick_slot(uint32_t slots)
{
	static const uint32_t bad[] = { 8, 3, -1, 0x80000000, 0x100 };

	switch (below(8)) {
	case 0: return PICK(bad);
	case 1: return slots + below(2);
	case 2: return random32();
	default: return below(slots);
	}
}

static uint32_t pick_base(void)
{
	static const uint32_t fixed[] = {
		0, 0x100000, 0x3ffff000, 0x3fffffff, USER_BASE, USER_BASE + 1,
		0x80000000, 0xbfff0000, 0xbffff000, 0xbfffffff, USER_END, 0xfffff000,
	};

	switch (below(4)) {
	case 0: return PICK(fixed);
	case 1: return random32();
	default: return scratch_pointer(8);
	}
}

/* Byte limits, 4 KiB ones past 1 MiB, and those that end exactly at
 * the end of user space, one short, one past, or wrap. */
static uint32_t pick_limit(uint32_t base)
{
	static const uint32_t fixed[] = {
		0, 1, 4, 8, 0xfff, 0x1000, 0xfffff, ONE_MIB, ONE_MIB + 1, ONE_MIB + 0xfff,
		ONE_MIB + 0x1000, 0x7fffffff, 0x80000000, 0xffffffff,
	};

	switch (below(6)) {
	case 0: case 1: return PICK(fixed);
	case 2: return USER_END - base - 1 + below(3);
	case 3: return (USER_END - base) & ~(PAGE - 1);
	case 4: return 0u - base + below(2);
	default: return random32();
	}
}

/* The kernel's rule (task_segments.c): inside user space, not empty. */
static int segment_allowed(uint32_t base, uint32_t limit)
{
	return limit && base >= USER_BASE && base < USER_END && limit <= USER_END - base;
}

/* lar and lsl: what ring 3 may know of the descriptor sel names; 0 if
 * the CPU says nothing (no such descriptor, or not visible from here). */
static int lar(uint32_t sel, uint32_t *rights)
{
	uint32_t r = 0;
	uint8_t ok;

	asm volatile("lar %2, %0\n\tsetz %1" : "+r" (r), "=q" (ok) : "r" (sel) : "cc");
	*rights = r;
	return ok;
}

static int lsl(uint32_t sel, uint32_t *limit)
{
	uint32_t l = 0;
	uint8_t ok;

	asm volatile("lsl %2, %0\n\tsetz %1" : "+r" (l), "=q" (ok) : "r" (sel) : "cc");
	*limit = l;
	return ok;
}

/* Read the word at the segment's base through %fs, then put %fs back. */
static uint32_t read_through_fs(uint32_t sel)
{
	uint32_t saved, v;

	asm volatile("movl %%fs, %0" : "=r" (saved));
	asm volatile("movl %0, %%fs" : : "r" (sel));
	v = read_fs(0);
	asm volatile("movl %0, %%fs" : : "r" (saved));
	return v;
}

/* A marker written at the base must read back at offset 0. */
static void check_base(uint32_t sel, const struct segment *s, uint32_t seg_limit)
{
	uint32_t marker = random32() | 1;

	if (s->base < heap_start || s->base > heap_end - 4 || heap_end - heap_start < 4 ||
	    seg_limit < 3)
		return;
	memcpy((void *)s->base, &marker, 4);
	if (read_through_fs(sel) != marker)
		report("%%fs:0 does not read the word at the base %x", (unsigned int)s->base);
}

/*
 * The descriptor as the CPU sees it must be what the model says: a
 * freed slot invisible to lar; else a present data segment, DPL 3,
 * writable, expand-up (type 001x), with the limit asked (4 KiB units
 * past 1 MiB, so rounded down), inside user space.  Only then is the
 * base read through %fs: a wrong base might not be mapped.
 */
static void check_descriptor(uint32_t sel, const struct segment *s)
{
	unsigned long before = mismatches;
	uint32_t rights, limit;

	if (!s->limit) {
		if (lar(sel, &rights))
			report("lar sees a freed slot %x: rights %x", (unsigned int)sel,
			       (unsigned int)rights);
		return;
	}
	if (!lar(sel, &rights) || !lsl(sel, &limit)) {
		report("lar/lsl refuse selector %x", (unsigned int)sel);
		return;
	}
	if ((rights >> 8 & 0xfe) != 0xf2)
		report("selector %x: access %x, not a DPL 3 writable data segment",
		       (unsigned int)sel, (unsigned int)(rights >> 8 & 0xff));
	if (limit + 1 != s->limit && !(s->limit > ONE_MIB && limit + 1 == (s->limit & ~(PAGE - 1))))
		report("selector %x: lsl %x for a limit of %x bytes", (unsigned int)sel,
		       (unsigned int)limit, (unsigned int)s->limit);
	if (s->base < USER_BASE || limit > USER_END - 1 - s->base)
		report("selector %x: base %x + lsl %x is not inside user space",
		       (unsigned int)sel, (unsigned int)s->base, (unsigned int)limit);
	if (mismatches == before)
		check_base(sel, s, limit);
}

/* set_tls or set_ldt: a selector, or -EINVAL with the slot unchanged.
 * The model follows what the kernel answered, right or wrong, so that
 * the descriptor check shows what a wrong answer let through. */
static void fuzz_segment(const char *name, uint32_t nr, struct segment *slots,
			 uint32_t nr_slots, uint32_t (*selector)(uint32_t))
{
	uint32_t slot = pick_slot(nr_slots), base = 0, limit = 0;

	if (below(6)) {		/* else base = limit = 0: free the slot */
		base = pick_base();
		limit = pick_limit(base);
	}
	enter(name, nr, slot, base, limit);
	if (slot >= nr_slots || ((base || limit) && !segment_allowed(base, limit)))
		expect(-EINVAL);
	else
		expect(selector(slot));
	if (slot >= nr_slots)
		return;
	if (cur.result == (long)selector(slot)) {
		slots[slot].base = base;
		slots[slot].limit = limit;
	}
	check_descriptor(selector(slot), &slots[slot]);
}

static uint32_t tls_selector(uint32_t slot)
{
	return TLS_SELECTOR(slot);
}

static uint32_t ldt_selector(uint32_t slot)
{
	return LDT_SELECTOR(slot);
}

static void fuzz_set_tls(void)
{
	fuzz_segment("set_tls", SYS_set_tls, tls, TLS_SLOTS, tls_selector);
}

static void fuzz_set_ldt(void)
{
	fuzz_segment("set_ldt", SYS_set_ldt, ldt, LDT_SLOTS, ldt_selector);
}

/* ---- iopl, brk, watch ---- */

static uint32_t iopl_in_eflags(void)
{
	uint32_t flags;

	asm volatile("pushfl; popl %0" : "=r" (flags));
	return flags >> 12 & 3;
}

/* sysfuzz is not among the programs iopl= allows: only 0 is granted. */
static void fuzz_iopl(void)
{
	static const uint32_t levels[] = { 0, 0, 3, 3, 1, 2, 4, -1, 0x80000003 };
	uint32_t level = below(4) ? PICK(levels) : random32();

	enter("iopl", SYS_iopl, level, pick_plain(), pick_plain());
	expect(level ? -EPERM : 0);
	if (iopl_in_eflags())
		report("IOPL %u in EFLAGS", (unsigned int)iopl_in_eflags());
}

static uint32_t pick_brk(void)
{
	const uint32_t fixed[] = {
		0, 0, heap_end, heap_end + 1, heap_end - 1, heap_end + PAGE,
		heap_end + 3 * PAGE + 5, heap_end - PAGE, heap_start, heap_start + 1,
		heap_start - 1, USER_BASE, 0x100000, BRK_LIMIT - 1, BRK_LIMIT,
		STACK_BOTTOM, 0xbfffffff, USER_END, 0xfffff001, 0xffffffff,
	};

	return below(6) ? PICK(fixed) : random32();
}

/* A grown heap may be refused for want of RAM; else the end asked,
 * rounded up to a page.  The model then asks the kernel where the end
 * is, so one wrong answer does not spoil every check after it. */
static void fuzz_brk(void)
{
	uint32_t end = pick_brk(), rounded = (end + PAGE - 1) & ~(PAGE - 1);

	enter("brk", SYS_brk, end, pick_plain(), pick_plain());
	if (!end)
		expect(heap_end);
	else if (end < heap_start || end >= BRK_LIMIT)
		expect(-EINVAL);
	else if (!(rounded > heap_end && cur.result == -ENOMEM))
		expect(rounded);
	heap_end = (uint32_t)brk(0);
}

/* A valid address to watch must be one nothing here writes: the text,
 * the word crt0's call to main left at the top of the stack (main
 * never returns), unmapped pages past any heap we keep. */
static uint32_t pick_watch_address(void)
{
	static const uint32_t fixed[] = {
		USER_BASE, USER_BASE + 1, USER_BASE + 2, USER_BASE + 4, USER_BASE + PAGE - 4,
		0x80000000, BRK_LIMIT, 0xbffffffc, 0xbffffffe, 0xbfffffff,
		0, 0x100000, 0x3ffffffc, USER_END, 0xfffffffc,
	};
	uint32_t a = random32();

	if (below(3))
		return PICK(fixed);
	if (a >= USER_BASE + PAGE && a < heap_start + HEAP_KEEP + PAGE)
		return USER_BASE + (a & (PAGE - 1));
	if (a >= STACK_BOTTOM && a < USER_END - 4)
		return USER_END - 4;
	return a;
}

static void fuzz_watch(void)
{
	static const uint32_t lens[] = { 1, 2, 4, 1, 2, 4, 0, 3, 8, -1 };
	uint32_t addr = pick_watch_address(), len = below(5) ? PICK(lens) : random32();

	enter("watch", SYS_watch, addr, len, pick_plain());
	if ((len != 1 && len != 2 && len != 4) || addr % len || addr < USER_BASE ||
	    addr >= USER_END)
		expect(-EINVAL);
	else if (watches == WATCHPOINTS)
		expect(-EBUSY);
	else if (cur.result == watches)
		watches++;	/* the next free slot: the right answer */
	else
		expect(watches);
}

/* ---- the calls that write what they report ---- */

static void fuzz_getarg(void)
{
	uint32_t n = arg_len + 1;
	uint32_t sizes[] = { 0, arg_len, n, n, n + 1, ARG_SIZE, 0x7fffffff, 0x80000000,
			     0xffffffff, below(80) };
	uint32_t size = below(6) ? PICK(sizes) : random32(), buf = out_pointer(n);
	enum outcome o = write_outcome(buf, n);

	enter("getarg", SYS_getarg, buf, size, pick_plain());
	if (size < n)
		expect(-EINVAL);
	else if (o == FAULT)
		expect(-EFAULT);
	else if (cur.result == (long)arg_len && memcmp((void *)buf, my_arg, n))
		report("the argument read back differs");
	else
		expect(arg_len);
}

static void fuzz_uptime(void)
{
	uint32_t p = out_pointer(16);
	enum outcome o = write_outcome(p, 16);
	const volatile uint32_t *v = (const volatile uint32_t *)p;

	enter("uptime", SYS_uptime, p, pick_plain(), pick_plain());
	expect(o == FAULT ? -EFAULT : 0);
	if (o != DONE || cur.result)
		return;
	if (v[1] != hz || (int32_t)(v[0] - last_ticks) < 0)
		report("ticks %u at %u Hz, before: %u at %u Hz", (unsigned int)v[0],
		       (unsigned int)v[1], (unsigned int)last_ticks, (unsigned int)hz);
	last_ticks = v[0];
}

static void fuzz_pmc(void)
{
	uint32_t p = out_pointer(8);

	enter("pmc", SYS_pmc, p, pick_plain(), pick_plain());
	if (pmc_absent)
		expect(-ENODEV);
	else
		expect(write_outcome(p, 8) == FAULT ? -EFAULT : 0);
}

static void fuzz_cpuinfo(void)
{
	uint32_t p = out_pointer(8);
	enum outcome o = write_outcome(p, 8);
	const volatile uint32_t *v = (const volatile uint32_t *)p;

	enter("cpuinfo", SYS_cpuinfo, p, pick_plain(), pick_plain());
	expect(o == FAULT ? -EFAULT : 0);
	if (o == DONE && !cur.result && (v[0] != cpu_family || v[1] != cpu_feature_bits))
		report("family %u features %x, before %u %x", (unsigned int)v[0],
		       (unsigned int)v[1], (unsigned int)cpu_family,
		       (unsigned int)cpu_feature_bits);
}

/* In a guest the host's counts only grow. */
static void fuzz_hostcounts(void)
{
	uint32_t p = out_pointer(8);
	enum outcome o = write_outcome(p, 8);
	const volatile uint32_t *v = (const volatile uint32_t *)p;

	enter("hostcounts", SYS_hostcounts, p, pick_plain(), pick_plain());
	if (no_host) {
		expect(-ENODEV);
		return;
	}
	expect(o == FAULT ? -EFAULT : 0);
	if (o != DONE || cur.result)
		return;
	if ((int32_t)(v[0] - host_count[0]) < 0 || (int32_t)(v[1] - host_count[1]) < 0)
		report("host counts %u %u, before: %u %u", (unsigned int)v[0],
		       (unsigned int)v[1], (unsigned int)host_count[0],
		       (unsigned int)host_count[1]);
	host_count[0] = v[0];
	host_count[1] = v[1];
}

/* What the machine counts for measuring programs: as many words as it
 * said at the start, or -ENODEV throughout; the first word (the exits,
 * the padding) only grows. */
static void fuzz_counts(void)
{
	uint32_t which = below(4) ? below(2) : pick_plain();
	uint32_t n = below(2) ? below(40) : pick_plain();
	long words = which < 2 ? counts_words[which] : -EINVAL;
	uint32_t bytes = words > 0 ? 4 * (n < (uint32_t)words ? n : (uint32_t)words) : 0;
	uint32_t p = bytes ? out_pointer(bytes) : pick_pointer(4);
	enum outcome o = bytes ? write_outcome(p, bytes) : DONE;
	const volatile uint32_t *v = (const volatile uint32_t *)p;

	enter("counts", SYS_counts, p, n, which);
	if (words < 0) {
		expect(words);
		return;
	}
	expect(o == FAULT ? -EFAULT : words);
	if (o != DONE || cur.result != words || !bytes)
		return;
	if ((int32_t)(v[0] - counts_seen[which]) < 0)
		report("count %u, before: %u", (unsigned int)v[0],
		       (unsigned int)counts_seen[which]);
	counts_seen[which] = v[0];
}

/* ---- thread ---- */

#define THREAD_STACK_WORDS	256
#define UNMAPPED_USER		0x90000000u	/* page-aligned, far above the heap */

/* The one thread this fuzzer may start at a time: it only exits, on its
 * own stack, so it touches nothing of the run. */
static uint32_t thread_stack[THREAD_STACK_WORDS] __attribute__((aligned(16)));
static int thread_pid;

/*
 * The bodies of the threads this fuzzer starts read nothing from their
 * stacks, which may be the heap's scratch or shared by many threads: a
 * body that did (a return address, or a system-call number passed on
 * the stack) could be sent anywhere by what another writes there, even
 * into the fuzzer's own loop beside it.  So: naked, and int $0x80 only
 * (sysenter comes back through the stack).
 */
#define STR(x)		#x
#define XSTR(x)		STR(x)

static void __attribute__((naked, noreturn)) thread_exits(void)
{
	asm("movl $" XSTR(SYS_exit) ", %eax\n\t"
	    "xorl %ebx, %ebx\n\t"
	    "int $0x80\n\t"
	    "ud2");
}

/* An entry point: mostly outside user space (kernel text, the edges,
 * high addresses), else the function above; *valid says which. */
static uint32_t pick_thread_entry(int *valid)
{
	static const uint32_t bad[] = {
		0, 0x100000, USER_BASE - 1, USER_END, USER_END + 0x1000, 0xffffffff,
	};

	*valid = below(2);
	return *valid ? (uint32_t)thread_exits : PICK(bad);
}

/* A stack top and the answer it alone would get: misaligned, below or
 * past user space (-EINVAL), unmapped and not the heap's or read-only
 * (-EFAULT: the kernel writes the argument there), or
 * the thread's own stack (0: the call may succeed). */
static uint32_t pick_thread_stack(int *err)
{
	static const uint32_t bad[] = {
		0, 4, USER_BASE, USER_BASE + 4, USER_END + 4, 0xfffffffc,
	};
	uint32_t own = (uint32_t)(thread_stack + THREAD_STACK_WORDS);

	switch (below(5)) {
	case 0: *err = -EINVAL; return PICK(bad);
	case 1: *err = -EINVAL; return own - 1 - below(3);	/* misaligned */
	case 2: *err = -EFAULT; return UNMAPPED_USER;
	case 3: *err = -EFAULT; return USER_BASE + 8;	/* the code: read-only */
	default: *err = 0; return own;
	}
}

static void fuzz_thread(void)
{
	int valid_entry, stack_err;
	uint32_t entry = pick_thread_entry(&valid_entry);
	uint32_t stack = pick_thread_stack(&stack_err);
	int alive = thread_pid && child_index(thread_pid) >= 0;
	int pid;

	/* One thread at a time on the one stack, and task slots kept. */
	if (valid_entry && !stack_err && (alive || nr_children == MAX_CHILDREN))
		entry = USER_END;
	enter("thread", SYS_thread, entry, stack, random32());
	pid = check_new_child(entry < USER_BASE || entry >= USER_END ? -EINVAL : stack_err);
	if (pid)
		thread_pid = pid;
}

/* ---- wild threads ---- */

#define WILD_FATAL_MAX	48	/* threads started to die: each prints a line */

static unsigned long wild_fatal;	/* such threads started so far */

/* A wild thread that ends by a fault (a write to kernel memory), its
 * first instruction. */
static void __attribute__((noreturn)) thread_faults(void)
{
	*(volatile uint32_t *)USER_END = 0;
	exit(0);
}

static void __attribute__((naked, noreturn)) thread_yields_and_exits(void)
{
	asm("movl $" XSTR(SYS_yield) ", %eax\n\t"
	    "int $0x80\n\t"
	    "movl $" XSTR(SYS_yield) ", %eax\n\t"
	    "int $0x80\n\t"
	    "movl $" XSTR(SYS_exit) ", %eax\n\t"
	    "xorl %ebx, %ebx\n\t"
	    "int $0x80\n\t"
	    "ud2");
}

/* A wild thread's entry: one that ends at once, or a few calls later,
 * or one that dies (a fault, or an entry nothing is mapped at), or one
 * the kernel must refuse.  Never our own code elsewhere: a thread that
 * ran the fuzzer's loop beside it would make the run unrepeatable.
 * *fatal: the thread is meant to die. */
static uint32_t pick_wild_entry(int *fatal)
{
	static const uint32_t refused[] = { 0, 0x100000, USER_BASE - 1, USER_END, 0xffffffff };

	*fatal = 0;
	switch (below(6)) {
	case 0: return PICK(refused);
	case 1: *fatal = 1; return (uint32_t)thread_faults;
	case 2: *fatal = 1; return UNMAPPED_USER;
	case 3: return (uint32_t)thread_yields_and_exits;
	default: return (uint32_t)thread_exits;
	}
}

/* What a thread's frames take below its stack top, at most. */
#define WILD_FRAMES	64

/* A wild thread's stack: a pointer from the pools, or the one thread
 * stack, shared by every wild thread alive.  The kernel writes a frame
 * below it (a return address and the argument): a pointer whose frame
 * would land on our own data or stack is moved to the shared one.  The
 * bodies never read their stacks, so none is fatal, not even one in the
 * heap that a brk takes away. */
static uint32_t pick_wild_stack(void)
{
	uint32_t p = pick_pointer(8), own = (uint32_t)(thread_stack + THREAD_STACK_WORDS);

	if (below(4))
		p &= ~3u;
	if (below(2) || (p > USER_BASE + PAGE && p < heap_start + WILD_FRAMES) ||
	    (p > STACK_BOTTOM && p <= USER_END))
		p = own;
	return p;
}

/* A wild thread started with a copy of our descriptors: it may hold
 * each end until the end of the run, for all the model knows. */
static void wild_thread_holds_our_ends(void)
{
	int p;

	for (p = 0; p < NR_FDS; p++) {
		pipes[p].wild_reader |= pipes[p].used && pipes[p].read_fd >= 0;
		pipes[p].wild_writer |= pipes[p].used && pipes[p].write_fd >= 0;
	}
}

/* Any number of threads alive: the kernel must keep each, and the
 * space they share, whole until the last one goes.  Past the budget of
 * fatal ones, only threads that end by themselves on their own stack. */
static void fuzz_wild_thread(void)
{
	int fatal;
	uint32_t entry = pick_wild_entry(&fatal);
	uint32_t stack = pick_wild_stack();

	if (fatal && wild_fatal >= WILD_FATAL_MAX) {
		entry = (uint32_t)thread_exits;
		stack = (uint32_t)(thread_stack + THREAD_STACK_WORDS);
	}
	enter("thread", SYS_thread, entry, stack, random32());
	if (!is_error(cur.result) && fatal)
		wild_fatal++;
	if (!is_error(cur.result))
		wild_thread_holds_our_ends();
}

/* A wait for any pid: a wild thread, a spawned child, -1, nonsense. */
static void fuzz_wild_wait(void)
{
	uint32_t status = below(4) ? out_pointer(4) : 0;
	int i;

	enter("wait", SYS_wait, below(2) ? (uint32_t)-1 : pick_pid(), status, pick_plain());
	if (!is_error(cur.result) && (i = child_index(cur.result)) >= 0)
		forget_child(i);
}

/* ---- pipes and descriptors: pipe, read, fdwrite, close ---- */

#define PIECE	128u	/* read and fdwrite move buf in pieces (kernel/pipe.c) */

/* Whether a task other than this one may hold pipe p's read end (0) or
 * write end (1): a child not yet collected that started while we held
 * it, or a wild thread. */
static int others_hold(int p, int write)
{
	int i;

	if (write ? pipes[p].wild_writer : pipes[p].wild_reader)
		return 1;
	for (i = 0; i < nr_children; i++)
		if (child_ends[i][write] & 1u << p)
			return 1;
	return 0;
}

/* The pipe fd names here if it is open on that end (write: its write
 * end); else -1. */
static int pipe_of(uint32_t fd, int write)
{
	int p = fd < NR_FDS ? fd_pipe[fd] : -1;

	if (p < 0 || (uint32_t)(write ? pipes[p].write_fd : pipes[p].read_fd) != fd)
		return -1;
	return p;
}

/* The lowest free descriptor from `from` on, or -1. */
static int free_fd(int from)
{
	int fd;

	for (fd = from; fd < NR_FDS; fd++)
		if (fd_pipe[fd] < 0)
			return fd;
	return -1;
}

/* The kernel's answer for n bytes moved at a place where the first
 * `ok` bytes can be: n, or its whole pieces before the one that faults
 * (-EFAULT if none). */
static long pieces(uint32_t ok, uint32_t n)
{
	if (ok >= n)
		return n;
	return ok >= PIECE ? (long)(ok / PIECE * PIECE) : -EFAULT;
}

/* How many bytes from p on the kernel can write, at most n: the heap's,
 * for a place write_outcome does not call AVOID. */
static uint32_t writable(uint32_t p, uint32_t n)
{
	if (p < heap_start || p >= heap_end)
		return 0;
	return n < heap_end - p ? n : heap_end - p;
}

/* A buffer for read or fdwrite: half the time a plain one in the heap,
 * so that bytes flow, else one from the pools. */
static void pick_io(uint32_t *buf, uint32_t *len)
{
	if (below(2)) {
		*len = below(4) ? below(300) : below(PIPE_BUF + 1);
		*buf = scratch_pointer(*len);
	} else {
		*buf = pick_pointer(64);
		*len = pick_length(*buf);
	}
}

/* A descriptor: mostly one of ours of the end wanted, else any slot
 * (free, closed, the other end), the edges, anything. */
static uint32_t pick_fd(int write)
{
	static const uint32_t bad[] = { -1, NR_FDS, NR_FDS + 1, 0x7fffffff, 0x80000000 };
	uint32_t mine[NR_FDS], fd;
	int n = 0;

	for (fd = 0; fd < NR_FDS; fd++)
		if (pipe_of(fd, write) >= 0)
			mine[n++] = fd;
	switch (below(8)) {
	case 0: return PICK(bad);
	case 1: return random32();
	case 2: case 3: return below(NR_FDS);
	default: return n ? mine[below(n)] : below(NR_FDS);
	}
}

static void open_in_model(int read_fd, int write_fd)
{
	int p;

	for (p = 0; pipes[p].used; p++)
		;
	memset(&pipes[p], 0, sizeof(pipes[p]) - sizeof(pipes[p].data));
	pipes[p].used = 1;
	pipes[p].read_fd = read_fd;
	pipes[p].write_fd = write_fd;
	fd_pipe[read_fd] = fd_pipe[write_fd] = p;
}

/* fd closed here; the pipe leaves the model with our last end (no one
 * else's holding of it matters to us then). */
static void close_in_model(uint32_t fd)
{
	int p = fd_pipe[fd], i;

	if (pipes[p].read_fd == (int)fd)
		pipes[p].read_fd = -1;
	else
		pipes[p].write_fd = -1;
	fd_pipe[fd] = -1;
	if (pipes[p].read_fd >= 0 || pipes[p].write_fd >= 0)
		return;
	pipes[p].used = 0;
	for (i = 0; i < nr_children; i++)
		child_ends[i][0] &= ~(1u << p), child_ends[i][1] &= ~(1u << p);
}

/* n bytes written from src: kept, if we hold the read end to check
 * them (not under `wild`, whose threads may write the heap meanwhile). */
static void bytes_in(int p, const char *src, uint32_t n)
{
	struct pipe_model *m = &pipes[p];
	uint32_t i;

	for (i = 0; i < n && m->read_fd >= 0 && !wild; i++)
		m->data[(m->head + m->held + i) % PIPE_BUF] = src[i];
	m->held += n;
}

/* n bytes read to dst: they must be the ones written, in order. */
static void bytes_out(int p, const char *dst, uint32_t n)
{
	struct pipe_model *m = &pipes[p];
	uint32_t i;

	for (i = 0; i < n && !wild; i++)
		if (dst[i] != m->data[(m->head + i) % PIPE_BUF]) {
			report("byte %u read is not the one written", (unsigned int)i);
			break;
		}
	m->head = (m->head + n) % PIPE_BUF;
	m->held -= n;
}

/* A pipe in the two lowest free slots, their numbers written at p:
 * -EFAULT before anything for a range outside user space, -EMFILE with
 * fewer than two free, -EFAULT (nothing kept) where p cannot take them.
 * Only `wild` threads can hold enough pipes to leave none (-ENFILE). */
static void fuzz_pipe(void)
{
	uint32_t p = out_pointer(8);
	int lo = free_fd(0), hi = lo < 0 ? -1 : free_fd(lo + 1);
	const volatile int *fds = (const volatile int *)p;

	enter("pipe", SYS_pipe, p, pick_plain(), pick_plain());
	if (!user_range_ok(p, 8))
		expect(-EFAULT);
	else if (hi < 0)
		expect(-EMFILE);
	else if (cur.result == -ENOMEM || (wild && cur.result == -ENFILE))
		return;		/* the machine is full: a right answer */
	else
		expect(write_outcome(p, 8) == FAULT ? -EFAULT : 0);
	if (cur.result || hi < 0)
		return;
	if (fds[0] != lo || fds[1] != hi)
		report("descriptors %d %d, expected %d %d", fds[0], fds[1], lo, hi);
	open_in_model(lo, hi);
}

static void fuzz_close(void)
{
	uint32_t fd = pick_fd(below(2));
	int open = fd < NR_FDS && fd_pipe[fd] >= 0;

	enter("close", SYS_close, fd, pick_plain(), pick_plain());
	expect(open ? 0 : -EBADF);
	if (open && !cur.result)
		close_in_model(fd);
}

/*
 * What the pipe holds, up to len; end of file (0) when it is empty and
 * no task holds its write end.  A read that would wait - empty, a write
 * end open here (for ever) or perhaps in a child - is made of 0 bytes.
 */
static void fuzz_read(void)
{
	uint32_t fd = pick_fd(0), buf, len, n;
	int p = pipe_of(fd, 0);
	struct pipe_model *m = p >= 0 ? &pipes[p] : 0;

	pick_io(&buf, &len);
	if (m && !m->held && (m->write_fd >= 0 || others_hold(p, 1)))
		len = 0;
	n = m && len < m->held ? len : m ? m->held : 0;
	if (n && user_range_ok(buf, len) && write_outcome(buf, n) == AVOID)
		buf = scratch_pointer(n);
	enter("read", SYS_read, fd, buf, len);
	if (!m)
		expect(-EBADF);
	else if (!user_range_ok(buf, len))
		expect(-EFAULT);
	else
		expect(n ? pieces(writable(buf, n), n) : 0);
	if (m && cur.result > 0 && (uint32_t)cur.result <= m->held)
		bytes_out(p, (const char *)buf, cur.result);
}

/*
 * The bytes written: -EPIPE when no task holds the read end, else all
 * of them, or the whole pieces that could be read.  A write that would
 * wait for room is cut to the room there is.  With our read end closed
 * and a child perhaps holding its own, -EPIPE is right too (it may have
 * ended).  Our image and stack are never written out (as write's).
 */
static void fuzz_fdwrite(void)
{
	uint32_t fd = pick_fd(1), buf, len;
	int p = pipe_of(fd, 1), readers = 0, ok;
	struct pipe_model *m = p >= 0 ? &pipes[p] : 0;

	pick_io(&buf, &len);
	if (!below(8))
		pick_range_past_the_top(&buf, &len);
	if (m) {
		readers = m->read_fd >= 0 || others_hold(p, 0);
		if (readers && user_range_ok(buf, len) && len > PIPE_BUF - m->held)
			len = PIPE_BUF - m->held;
	}
	if (user_range_ok(buf, len) && readable(buf, len) < 0)
		buf = heap_end - (len < heap_end - heap_start ? len : heap_end - heap_start);
	ok = user_range_ok(buf, len) ? readable(buf, len) : 0;
	enter("fdwrite", SYS_fdwrite, fd, buf, len);
	if (!m)
		expect(-EBADF);
	else if (!user_range_ok(buf, len))
		expect(-EFAULT);
	else if (!len)
		expect(0);
	else if (!readers)
		expect(-EPIPE);
	else if (!(m->read_fd < 0 && cur.result == -EPIPE))
		expect(pieces(ok < 0 ? 0 : ok, len));
	if (m && cur.result > 0 && (uint32_t)cur.result <= PIPE_BUF - m->held)
		bytes_in(p, (const char *)buf, cur.result);
}

/* ---- numbers outside the table ---- */

static const uint32_t unknown_edges[] = {
	-1, NR_SYSCALLS, NR_SYSCALLS + 1, 0x80000000, 0xffffffff,
};

/* The edges, and numbers that a kernel masking or sign-extending the
 * number would take for a real call (SYS_write with high bits set). */
static uint32_t pick_unknown_number(void)
{
	static const uint32_t more[] = {
		0x7fffffff, 0x80000001, 0x100, 0x10000 + SYS_write, 0u - NR_SYSCALLS,
		0x80000000 + SYS_getpid,
	};
	uint32_t nr;

	switch (below(4)) {
	case 0: return PICK(unknown_edges);
	case 1: return PICK(more);
	case 2: return NR_SYSCALLS + below(64);
	default:
		nr = random32();
		return nr < NR_SYSCALLS ? nr + NR_SYSCALLS : nr;
	}
}

static void fuzz_unknown(void)
{
	enter("unknown", pick_unknown_number(), pick_pointer(8), pick_length(USER_BASE),
	      random32());
	expect(-ENOSYS);
}

/* ---- after each batch: the kernel still reaches our own memory ---- */

#define BATCH		1000	/* calls between two checks */
#define SPAWNED_TICKS	"1"	/* the end's own child: sleep's argument */

static unsigned long own_checks;	/* calls made by the checks: not counted */

/* One call of a check, by each way in in turn, outside the count of
 * calls. */
static long own_call(const char *name, uint32_t nr, uint32_t a, uint32_t b, uint32_t c)
{
	cur.name = name;
	cur.nr = nr, cur.a = a, cur.b = b, cur.c = c;
	cur.by_sysenter = have_sysenter() && (own_checks++ & 1);
	cur.result = cur.by_sysenter ? syscall_sysenter(nr, a, b, c) : syscall_int80(nr, a, b, c);
	return cur.result;
}

/* A mismatch line like any, naming what was checked. */
static void check_call(const char *name, uint32_t nr, uint32_t a, uint32_t b, long want)
{
	if (own_call(name, nr, a, b, 0) != want)
		report("expected %d: the kernel cannot reach this program's own %s",
		       (int)want, name);
}

/*
 * What the CPU lets this program read and write, the kernel must reach
 * too, after whatever the calls before did to the address space (threads
 * started and killed on hostile entries and stacks, brk, ...): a call
 * that writes a buffer on the stack and in the heap (cpuinfo, known
 * values), one that reads a name from each (spawn of no such program:
 * -ENOENT, not -EFAULT), and a wait whose status is on the stack (for
 * ourselves, no child: -ECHILD, not -EFAULT).  Each checked from here too.
 */
static void check_own_memory(void)
{
	volatile uint32_t info[2] = { ~0u, ~0u };
	char name[sizeof(nosuch)];
	volatile int status = 0x5a5a5a5a;
	uint32_t heap = heap_start;

	memcpy(name, nosuch, sizeof(name));
	check_call("stack (cpuinfo)", SYS_cpuinfo, (uint32_t)info, 0, 0);
	if (info[0] != cpu_family || info[1] != cpu_feature_bits)
		report("cpuinfo wrote %x %x on the stack", (unsigned int)info[0],
		       (unsigned int)info[1]);
	check_call("stack (spawn)", SYS_spawn, (uint32_t)name, 0, -ENOENT);
	check_call("stack (wait)", SYS_wait, my_pid, (uint32_t)&status, -ECHILD);
	if (status != 0x5a5a5a5a)
		report("wait changed a status on the stack to %x", (unsigned int)status);
	if (heap_end - heap_start < 2 * sizeof(name) + 8)
		return;			/* brk left no heap to check */
	memcpy((void *)heap, nosuch, sizeof(name));
	check_call("heap (spawn)", SYS_spawn, heap, 0, -ENOENT);
	*(volatile uint32_t *)(heap + 8) = ~0u;
	check_call("heap (cpuinfo)", SYS_cpuinfo, heap + 8, 0, 0);
	if (*(volatile uint32_t *)(heap + 8) != cpu_family)
		report("cpuinfo wrote %x in the heap", *(volatile unsigned int *)(heap + 8));
}

/* At the end, every child collected: a program spawned now and waited
 * for, its status on the stack, gives its pid and status 0. */
static void check_spawn_and_wait(void)
{
	volatile int status = -1;
	int pid = spawn("sleep", SPAWNED_TICKS);

	if (pid < 0) {
		report("spawn at the end: %d", pid);
		return;
	}
	check_call("stack (wait for a child)", SYS_wait, pid, (uint32_t)&status, pid);
	if (cur.result == pid && status != 0)
		report("status %d on the stack from the child's wait", status);
	if (cur.result != pid)
		wait(pid, 0);
}

/* At the end, every other task collected: each pipe's write ends closed
 * here, its read end must give the bytes written, in order, then end of
 * file; then closed too.  Calls not counted, as the memory checks'. */
static void check_pipes_at_the_end(void)
{
	static char drained[PIPE_BUF + 1];
	int p, fd;

	for (fd = 0; fd < NR_FDS; fd++)
		if (fd_pipe[fd] >= 0 && pipes[fd_pipe[fd]].write_fd == fd) {
			if (own_call("close (the end)", SYS_close, fd, 0, 0))
				report("expected 0 closing a write end at the end");
			close_in_model(fd);
		}
	for (p = 0; p < NR_FDS; p++) {
		if (!pipes[p].used)
			continue;
		fd = pipes[p].read_fd;
		if (own_call("read (the end)", SYS_read, fd, (uint32_t)drained,
			     sizeof(drained)) != (long)pipes[p].held)
			report("expected the %u bytes left", (unsigned int)pipes[p].held);
		else
			bytes_out(p, drained, cur.result);
		if (own_call("read (end of file)", SYS_read, fd, (uint32_t)drained, 1) != 0)
			report("expected end of file");
		own_call("close (the end)", SYS_close, fd, 0, 0);
		close_in_model(fd);
	}
}

/* Every call but exit (which would end the run). */
static void (*const fuzzers[NR_SYSCALLS])(void) = {
	[SYS_write] = fuzz_write,	[SYS_getpid] = fuzz_getpid,
	[SYS_yield] = fuzz_yield,	[SYS_sleep] = fuzz_sleep,
	[SYS_spawn] = fuzz_spawn,	[SYS_wait] = fuzz_wait,
	[SYS_set_tls] = fuzz_set_tls,	[SYS_iopl] = fuzz_iopl,
	[SYS_brk] = fuzz_brk,		[SYS_watch] = fuzz_watch,
	[SYS_set_ldt] = fuzz_set_ldt,	[SYS_getarg] = fuzz_getarg,
	[SYS_uptime] = fuzz_uptime,	[SYS_pmc] = fuzz_pmc,
	[SYS_nop] = fuzz_nop,		[SYS_cpuinfo] = fuzz_cpuinfo,
	[SYS_hostcounts] = fuzz_hostcounts,	[SYS_thread] = fuzz_thread,
	[SYS_counts] = fuzz_counts,
	[SYS_pipe] = fuzz_pipe,		[SYS_read] = fuzz_read,
	[SYS_fdwrite] = fuzz_fdwrite,	[SYS_close] = fuzz_close,
};

/* A heap grown past HEAP_KEEP goes back to its first size, so the pages
 * the kernel touches stay few whatever brk was given (and watchpoints
 * far past it stay where nothing writes). */
static void keep_heap_small(void)
{
	if (heap_end - heap_start <= HEAP_KEEP)
		return;
	brk((void *)(heap_start + HEAP_SCRATCH));
	heap_end = (uint32_t)brk(0);
}

static void one_call(void)
{
	uint32_t nr = 1 + below(NR_SYSCALLS - 1);

	if (below(4) == 0 || !fuzzers[nr])
		fuzz_unknown();
	else if (wild && nr == SYS_thread)
		fuzz_wild_thread();
	else if (wild && nr == SYS_wait)
		fuzz_wild_wait();
	else
		fuzzers[nr]();
	keep_heap_small();
}

/* ---- the run ---- */

static uint32_t now_ticks(void)
{
	uint32_t v[4];

	uptime(v);
	return v[0];
}

static void fuzz(unsigned long calls, unsigned long seconds)
{
	uint32_t deadline = now_ticks() + seconds * hz;

	for (iteration = 0; seconds ? (int32_t)(now_ticks() - deadline) < 0 : iteration < calls;
	     iteration++) {
		one_call();
		if (iteration % BATCH == BATCH - 1)
			check_own_memory();
	}
	check_own_memory();
}

/* Each number outside the table, with plain and with random arguments,
 * by each way in there is: -ENOSYS. */
static void edges(void)
{
	unsigned int i, way;

	for (i = 0; i < ARRAY_SIZE(unknown_edges); i++) {
		for (way = 0; way < 2; way++) {
			if (way && !have_sysenter())
				continue;
			enter_by(way, "unknown", unknown_edges[i], 0, 0, 0);
			expect(-ENOSYS);
			enter_by(way, "unknown", unknown_edges[i], random32(), random32(),
				 random32());
			expect(-ENOSYS);
			iteration++;
		}
	}
}

/* Wild threads as well: each wait, its status on the stack, gives a
 * pid until none is left; the spawned ones end with status 0. */
static void reap_wild_children(void)
{
	volatile int status = 0;
	long pid;
	int i;

	while ((pid = own_call("stack (wait for any child)", SYS_wait, -1,
			       (uint32_t)&status, 0)) > 0) {
		i = child_index(pid);
		if (i >= 0 && status != 0)
			report("a spawned child's status %d", status);
		if (i >= 0)
			forget_child(i);
	}
	if (pid != -ECHILD || nr_children)
		report("wait at the end gave %d with %d children left", (int)pid, nr_children);
}

/* Every child collected: none may be left, none unknown. */
static void reap_children(void)
{
	int status, pid;

	while ((pid = wait(-1, &status)) > 0) {
		if (child_index(pid) < 0 || status != 0)
			report("wait at the end: pid %d, status %d", pid, status);
		else
			forget_child(child_index(pid));
	}
	if (pid != -ECHILD || nr_children)
		report("wait at the end gave %d with %d children left", pid, nr_children);
}

/* What the checks compare with, from calls made before the run. */
static void learn_the_machine(void)
{
	uint32_t info[2] = { 0, 0 }, up[4];
	uint64_t count;
	int i, fd;

	for (fd = 0; fd < NR_FDS; fd++)
		fd_pipe[fd] = -1;
	getarg(my_arg, sizeof(my_arg));
	arg_len = strlen(my_arg);
	my_pid = getpid();
	heap_start = (uint32_t)brk(0);
	sbrk(HEAP_SCRATCH);
	heap_end = (uint32_t)brk(0);
	syscall3(SYS_cpuinfo, (long)info, 0, 0);
	cpu_family = info[0];
	cpu_feature_bits = info[1];
	uptime(up);
	last_ticks = up[0];
	hz = up[1];
	pmc_absent = read_pmc_count(&count) == -ENODEV;
	no_host = host_counts(host_count) == -ENODEV;
	for (i = 0; i < 2; i++) {
		counts_words[i] = machine_counts(NULL, 0, i);
		if (counts_words[i] > 0)
			machine_counts(&counts_seen[i], 1, i);
	}
}

static int parse_arg(uint32_t *seed, unsigned long *calls, unsigned long *seconds,
		     int *edges_only)
{
	char *s = my_arg, *end;

	while (*s) {
		if (!strncmp(s, "seed=", 5))
			*seed = strtoul(s + 5, &end, 0);
		else if (!strncmp(s, "calls=", 6))
			*calls = strtoul(s + 6, &end, 0);
		else if (!strncmp(s, "seconds=", 8))
			*seconds = strtoul(s + 8, &end, 0);
		else if (!strncmp(s, "edges", 5))
			*edges_only = 1, end = s + 5;
		else if (!strncmp(s, "wild", 4))
			wild = 1, end = s + 4;
		else
			return -1;
		if (*end != ',' && *end)
			return -1;
		s = *end ? end + 1 : end;
	}
	return 0;
}

int main(void)
{
	uint32_t seed = 1;
	unsigned long calls = 1000, seconds = 0;
	int edges_only = 0;

	learn_the_machine();
	if (parse_arg(&seed, &calls, &seconds, &edges_only)) {
		printf("sysfuzz: bad argument '%s': seed=S,calls=N | seed=S,seconds=T | edges"
		       " (and wild)\n",
		       my_arg);
		exit(MAX_STATUS);
	}
	seed_generator(seed);
	if (edges_only) {
		edges();
		printf("sysfuzz: edges, ");
	} else {
		fuzz(calls, seconds);
		if (wild)
			reap_wild_children();
		else
			reap_children();
		check_pipes_at_the_end();
		check_spawn_and_wait();
		printf("sysfuzz: seed %u, ", (unsigned int)seed);
	}
	printf("%lu calls (%lu int80, %lu sysenter), %lu mismatches\n",
	       int80_calls + sysenter_calls, int80_calls, sysenter_calls, mismatches);
	/* exit, not return: crt0 would push main's result over the word at
	 * the top of the stack that a watchpoint may cover */
	exit(mismatches < MAX_STATUS ? (int)mismatches : MAX_STATUS);
}
