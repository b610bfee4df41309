/*
 * pipes.c - pipes and descriptors from ring 3 (kernel/pipe.c, kernel/fd.c):
 * one check per argument word, each printing a line per mismatch
 * ("pipes WORD: what: got X, expected Y"); the exit status is the number
 * of mismatches.  tests/kernel/test_pipes.c runs each word.
 *
 *   order    bytes come out intact and in order, around the ring's end
 *            many times, whatever the sizes of the writes and reads; a
 *            read takes what there is, a write of 0 and a read of 0 do
 *            nothing
 *   eof      once the write end is closed, the bytes left, then end of
 *            file (0), again and again
 *   epipe    once the read end is closed, a write fails with -EPIPE,
 *            bytes left inside or not
 *   wake     a reader waiting on an empty pipe is woken by a child that
 *            writes later (it inherited the write end at spawn), then
 *            reads end of file when the child exits; a writer waiting on
 *            a full pipe is woken by a child that drains it; a write of
 *            three pipes' worth goes through whole
 *   atomic   two children write 64-byte blocks into one pipe at once:
 *            every block comes out whole, never mixed with the other's
 *   badfd    descriptors out of range, not open, closed, or open on the
 *            other end: -EBADF from read, fdwrite and close
 *   badptr   bad pointers to pipe, read and fdwrite: -EFAULT and nothing
 *            changed (no descriptor taken, no byte lost or added); a
 *            buffer running off the heap moves its whole 128-byte pieces
 *   limits   a task's table holds NR_FDS descriptors: -EMFILE beyond,
 *            and the lowest free ones are given first
 *   thread   a thread starts with a copy of the table: it reads a pipe
 *            opened before it (woken by the main task's write), a pipe
 *            it opens is not the main task's, and its copy of a write
 *            end holds end of file back until it exits
 *   hog      not a check: opens pipes until refused, prints
 *            "pipes hog: N pipes, then error E", and waits on one of them
 *            for ever (the test kills it: the system's limit, a killed
 *            reader, and every pipe given back at its end)
 *
 * The children it spawns are itself, with "child ROLE FD": FD the one
 * of the descriptors it inherited that it uses; it closes the others.
 */
#include "lib/pv386.h"

#define PAGE		4096
#define KERNEL_ADDR	0x00100000u
#define UNMAPPED	0x80000000u
#define USER_END	0xc0000000u
#define WAIT_TICKS	5	/* a child's sleep before it acts: the
				   parent is waiting by then */
#define BLOCK		100	/* atomic's block: PIPE_BUF is no multiple of it */
#define BLOCKS		100	/* blocks per writer */
#define STACK_WORDS	512
#define DRAIN_BYTES	(4 * PIPE_BUF + 100)	/* wake's drain child reads */

static const char *word;
static int mismatches;
static char buf[3 * PIPE_BUF];
static char pattern_buf[3 * PIPE_BUF];

static void expect(const char *what, long got, long want)
{
	if (got == want)
		return;
	printf("pipes %s: %s: got %d, expected %d\n", word, what, (int)got, (int)want);
	mismatches++;
}

static void expect_true(const char *what, int ok)
{
	if (!ok) {
		printf("pipes %s: %s\n", word, what);
		mismatches++;
	}
}

/* The stream's byte at position i: never constant, not periodic in
 * the ring's size. */
static char pattern(unsigned long i)
{
	return (char)(i * 7 + i / 251 + 3);
}

static void fill_pattern(char *p, unsigned long from, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		p[i] = pattern(from + i);
}

static int is_pattern(const char *p, unsigned long from, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		if (p[i] != pattern(from + i))
			return 0;
	return 1;
}

static int new_pipe(int fds[2])
{
	int r = pipe(fds);

	expect("pipe()", r, 0);
	return r;
}

/* Spawn this program as "child ROLE FD": FD, in decimal, the one of
 * the descriptors it inherits that it uses, as a parent tells a child
 * (the library has no snprintf; FD is below 100). */
static int spawn_child(const char *role, int fd)
{
	char arg[32];
	size_t n = strlcpy(arg, "child ", sizeof(arg));
	int pid;

	n += strlcpy(arg + n, role, sizeof(arg) - n - 4);
	arg[n++] = ' ';
	arg[n++] = '0' + fd / 10;
	arg[n++] = '0' + fd % 10;
	arg[n] = '\0';
	pid = spawn("pipes", arg);
	expect("spawn of a child", pid > 0, 1);
	return pid;
}

static void expect_child(int pid, const char *role)
{
	int status = -1;

	if (pid <= 0)
		return;
	expect("wait for a child", wait(pid, &status), pid);
	if (status)
		printf("pipes %s: the %s child ended with status %d\n", word, role, status);
	mismatches += status != 0;
}

/* ---- order ---- */

static void check_order(void)
{
	static const unsigned int writes[] = { 1, 7, 128, 129, 1000, 4095, 4096, 300, 2 };
	static const unsigned int reads[] = { 1, 3, 4096, 127, 128, 129, 2000 };
	unsigned long written = 0, got = 0;
	unsigned int w, r = 0, round;
	int fds[2];
	long n;

	if (new_pipe(fds))
		return;
	expect("fdwrite of 0 bytes", fdwrite(fds[1], buf, 0), 0);
	expect("read of 0 bytes", read(fds[0], buf, 0), 0);
	for (round = 0; round < 4; round++) {
		for (w = 0; w < sizeof(writes) / sizeof(writes[0]); w++) {
			fill_pattern(pattern_buf, written, writes[w]);
			expect("fdwrite", fdwrite(fds[1], pattern_buf, writes[w]), writes[w]);
			written += writes[w];
			/* read until empty: each read takes what there is,
			 * up to its length */
			while (got < written) {
				unsigned int len = reads[r++ % (sizeof(reads) / sizeof(reads[0]))];
				unsigned long want = written - got < len ? written - got : len;

				n = read(fds[0], buf, len);
				expect("read", n, want);
				if (n != (long)want)
					return;
				if (!is_pattern(buf, got, n)) {
					expect_true("bytes out of order", 0);
					return;
				}
				got += n;
			}
		}
	}
	expect("fdwrite of PIPE_BUF", fdwrite(fds[1], pattern_buf, PIPE_BUF), PIPE_BUF);
	expect("read of all of it", read(fds[0], buf, sizeof(buf)), PIPE_BUF);
	expect("close read end", close(fds[0]), 0);
	expect("close write end", close(fds[1]), 0);
}

/* ---- eof, epipe ---- */

static void check_eof(void)
{
	int fds[2];

	if (new_pipe(fds))
		return;
	expect("fdwrite", fdwrite(fds[1], "abc", 3), 3);
	expect("close write end", close(fds[1]), 0);
	expect("read what was left", read(fds[0], buf, 100), 3);
	expect_true("the bytes left", !memcmp(buf, "abc", 3));
	expect("read at end of file", read(fds[0], buf, 100), 0);
	expect("read at end of file again", read(fds[0], buf, 1), 0);
	expect("close read end", close(fds[0]), 0);
}

static void check_epipe(void)
{
	int fds[2];

	if (new_pipe(fds))
		return;
	expect("close read end of an empty pipe", close(fds[0]), 0);
	expect("fdwrite with no reader", fdwrite(fds[1], "x", 1), -EPIPE);
	expect("close write end", close(fds[1]), 0);
	if (new_pipe(fds))
		return;
	expect("fdwrite", fdwrite(fds[1], "abc", 3), 3);
	expect("close read end of a pipe with bytes", close(fds[0]), 0);
	expect("fdwrite with no reader, bytes inside", fdwrite(fds[1], "x", 1), -EPIPE);
	expect("fdwrite of 0 bytes with no reader", fdwrite(fds[1], "x", 0), 0);
	expect("close write end", close(fds[1]), 0);
}

/* ---- wake ---- */

static void check_wake(void)
{
	int fds[2], pid;
	unsigned long total = DRAIN_BYTES - PIPE_BUF - 100;

	/* A reader waiting, woken by a child's write. */
	if (new_pipe(fds))
		return;
	pid = spawn_child("writer", fds[1]);
	expect("close own write end", close(fds[1]), 0);
	expect("read, woken by the child", read(fds[0], buf, 100), 4);
	expect_true("the child's bytes", !memcmp(buf, "wake", 4));
	expect("read after the child's exit: end of file", read(fds[0], buf, 100), 0);
	expect_child(pid, "writer");
	expect("close read end", close(fds[0]), 0);

	/* A writer waiting on a full pipe, woken by a child that drains it;
	 * then a write of three pipes' worth, whole. */
	if (new_pipe(fds))
		return;
	fill_pattern(pattern_buf, 0, PIPE_BUF);
	expect("fdwrite filling the pipe", fdwrite(fds[1], pattern_buf, PIPE_BUF), PIPE_BUF);
	pid = spawn_child("drain", fds[0]);
	expect("close own read end", close(fds[0]), 0);
	fill_pattern(pattern_buf, PIPE_BUF, 100);
	expect("fdwrite to a full pipe, woken by the reader",
	       fdwrite(fds[1], pattern_buf, 100), 100);
	fill_pattern(pattern_buf, PIPE_BUF + 100, total);
	expect("fdwrite of three pipes' worth", fdwrite(fds[1], pattern_buf, total), total);
	expect_child(pid, "drain");
	expect("fdwrite after the reader's exit", fdwrite(fds[1], "x", 1), -EPIPE);
	expect("close write end", close(fds[1]), 0);
}

/* ---- atomic ---- */

static void check_atomic(void)
{
	int fds[2], pid_a, pid_b, count[2] = { 0, 0 }, i, j;
	long n;

	if (new_pipe(fds))
		return;
	pid_a = spawn_child("blocks-a", fds[1]);
	pid_b = spawn_child("blocks-b", fds[1]);
	expect("close own write end", close(fds[1]), 0);
	/* the pipe fills, both writers waiting with a block that does not
	 * fit whole, again and again */
	for (i = 0; (n = read(fds[0], buf, BLOCK)) > 0; i++) {
		if (i % (PIPE_BUF / BLOCK / 2) == 0)
			sleep_ticks(1);
		expect("read of a block", n, BLOCK);
		for (j = 1; j < n && buf[j] == buf[0]; j++)
			;
		expect_true("a block mixed with another", j == n);
		if (buf[0] == 'a' || buf[0] == 'b')
			count[buf[0] - 'a']++;
	}
	expect("read at the end", n, 0);
	expect("blocks of a", count[0], BLOCKS);
	expect("blocks of b", count[1], BLOCKS);
	expect_child(pid_a, "blocks-a");
	expect_child(pid_b, "blocks-b");
	expect("close read end", close(fds[0]), 0);
}

/* ---- badfd ---- */

static void check_badfd(void)
{
	static const int bad[] = { -1, NR_FDS, NR_FDS + 1, 1000, 0x7fffffff, (int)0x80000000 };
	unsigned int i;
	int fds[2];

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		expect("read(bad fd)", read(bad[i], buf, 1), -EBADF);
		expect("fdwrite(bad fd)", fdwrite(bad[i], buf, 1), -EBADF);
		expect("close(bad fd)", close(bad[i]), -EBADF);
	}
	expect("read(fd never opened)", read(0, buf, 1), -EBADF);
	expect("close(fd never opened)", close(NR_FDS - 1), -EBADF);
	if (new_pipe(fds))
		return;
	expect("the first pipe's fds", fds[0] * 100 + fds[1], 1);
	expect("read(write end)", read(fds[1], buf, 1), -EBADF);
	expect("fdwrite(read end)", fdwrite(fds[0], "x", 1), -EBADF);
	expect("close", close(fds[1]), 0);
	expect("close again", close(fds[1]), -EBADF);
	expect("fdwrite(closed)", fdwrite(fds[1], "x", 1), -EBADF);
	expect("close", close(fds[0]), 0);
	expect("read(closed)", read(fds[0], buf, 1), -EBADF);
}

/* ---- badptr ---- */

static const char text_string[] = "hello";	/* .rodata: read-only */

static void check_badptr(void)
{
	/* not USER_END - 4: a byte there is the top of our stack, good */
	static const uint32_t bad[] = { KERNEL_ADDR, 0, UNMAPPED, 0xfffffffc };
	char *heap = sbrk(PAGE), *heap_end = heap + PAGE;
	int fds[2];
	unsigned int i;

	if (heap == (void *)-1) {
		expect_true("sbrk refused", 0);
		return;
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect("pipe(bad pointer)", syscall3(SYS_pipe, bad[i], 0, 0), -EFAULT);
	expect("pipe(past user space)", syscall3(SYS_pipe, USER_END - 4, 0, 0), -EFAULT);
	expect("pipe(read-only)", syscall3(SYS_pipe, (long)text_string, 0, 0), -EFAULT);
	expect("pipe(off the heap)", syscall3(SYS_pipe, (long)(heap_end - 4), 0, 0), -EFAULT);
	if (new_pipe(fds))
		return;
	expect("no descriptor taken by the failed ones", fds[0] * 100 + fds[1], 1);

	fill_pattern(pattern_buf, 0, 256);
	expect("fdwrite", fdwrite(fds[1], pattern_buf, 256), 256);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect("read(bad pointer)", read(fds[0], (void *)bad[i], 1), -EFAULT);
	expect("read(read-only)", read(fds[0], (void *)text_string, 1), -EFAULT);
	expect("read(past user space)", read(fds[0], (void *)(USER_END - 100), 200), -EFAULT);
	/* one piece fits before the heap's end: it alone is read */
	expect("read(off the heap)", read(fds[0], heap_end - 128, 256), 128);
	expect_true("the piece read", is_pattern(heap_end - 128, 0, 128));
	expect("read of the rest", read(fds[0], buf, sizeof(buf)), 128);
	expect_true("the rest, after the failed reads", is_pattern(buf, 128, 128));

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect("fdwrite(bad pointer)", fdwrite(fds[1], (void *)bad[i], 1), -EFAULT);
	expect("fdwrite(past user space)", fdwrite(fds[1], (void *)(USER_END - 100), 200),
	       -EFAULT);
	fill_pattern(heap_end - 128, 0, 128);
	expect("fdwrite(off the heap)", fdwrite(fds[1], heap_end - 128, 256), 128);
	expect("read what it wrote", read(fds[0], buf, sizeof(buf)), 128);
	expect_true("the piece written", is_pattern(buf, 0, 128));
	expect("close", close(fds[0]), 0);
	expect("close", close(fds[1]), 0);
}

/* ---- limits ---- */

static void check_limits(void)
{
	int fds[2], i, r;

	for (i = 0; i < NR_FDS / 2; i++) {
		fds[0] = fds[1] = -1;
		expect("pipe() while the table has room", pipe(fds), 0);
		expect("lowest free descriptors", fds[0] * 100 + fds[1], 2 * i * 100 + 2 * i + 1);
	}
	expect("pipe() with the table full", pipe(fds), -EMFILE);
	expect("close", close(5), 0);
	expect("pipe() with one slot free", pipe(fds), -EMFILE);
	expect("close", close(2), 0);
	fds[0] = fds[1] = -1;
	expect("pipe() with two slots free", pipe(fds), 0);
	expect("the two freed slots", fds[0] * 100 + fds[1], 2 * 100 + 5);
	for (i = 0; i < NR_FDS; i++)
		if ((r = close(i)))
			expect("close of every slot", r, 0);
}

/* ---- thread ---- */

static uint32_t thread_stack[STACK_WORDS] __attribute__((aligned(16)));
static int go_fds[2], back_fds[2];	/* opened before the thread */
static volatile int thread_fds[2] = { -1, -1 };	/* the pipe it opens */
static volatile long thread_read = -100, thread_write = -100;

/* Opens a pipe of its own, waits on go for the main task's byte, and
 * answers on back (through its copy of back's write end, which the main
 * task has closed in its own table meanwhile). */
static void thread_fn(void *arg)
{
	int fds[2];
	char c;

	(void)arg;
	if (pipe(fds) == 0) {
		thread_fds[0] = fds[0];
		thread_fds[1] = fds[1];
	}
	thread_read = read(go_fds[0], &c, 1);
	thread_write = fdwrite(back_fds[1], "t", 1);
}

static void check_thread(void)
{
	int pid, status = -1;

	if (new_pipe(go_fds) || new_pipe(back_fds))
		return;
	pid = thread_create(thread_fn, 0, thread_stack + STACK_WORDS);
	expect("thread_create", pid > 0, 1);
	if (pid <= 0)
		return;
	while (thread_fds[1] < 0)
		yield();
	/* its pipe took the lowest free numbers of its own table, which
	 * are free in ours too */
	expect("the thread's pipe", thread_fds[0] * 100 + thread_fds[1], 4 * 100 + 5);
	expect("read(the thread's descriptor)", read(thread_fds[0], buf, 1), -EBADF);
	expect("close our copy of back's write end", close(back_fds[1]), 0);
	expect("fdwrite, waking the thread", fdwrite(go_fds[1], "g", 1), 1);
	expect("read the thread's answer", read(back_fds[0], buf, 1), 1);
	expect_true("the answer", buf[0] == 't');
	/* end of file once the thread, the last holder of back's write
	 * end, has exited */
	expect("read after the thread's exit: end of file", read(back_fds[0], buf, 1), 0);
	expect("wait for the thread", wait(pid, &status), pid);
	expect("its status", status, 0);
	expect("the thread's read", thread_read, 1);
	expect("the thread's fdwrite, on its own copy", thread_write, 1);
	expect("close", close(go_fds[0]), 0);
	expect("close", close(go_fds[1]), 0);
	expect("close", close(back_fds[0]), 0);
}

/* ---- hog ---- */

static int hog(void)
{
	int fds[2], first = -1, n = 0, r;

	while ((r = pipe(fds)) == 0) {
		if (first < 0)
			first = fds[0];
		n++;
	}
	printf("pipes hog: %d pipes, then error %d\n", n, r);
	if (first >= 0)
		read(first, buf, 1);	/* its own write end is open: for ever */
	return 1;
}

/* ---- the children ---- */

static int child_writer(int w)
{
	sleep_ticks(WAIT_TICKS);
	return fdwrite(w, "wake", 4) != 4;
}

/* Reads DRAIN_BYTES of the pattern, the first after a wait (the parent
 * has filled the pipe and waits for room meanwhile), and ends. */
static int child_drain(int r)
{
	unsigned long got = 0;
	long len;

	sleep_ticks(WAIT_TICKS);
	while (got < DRAIN_BYTES) {
		len = read(r, buf, DRAIN_BYTES - got < sizeof(buf) ? DRAIN_BYTES - got : sizeof(buf));
		if (len <= 0 || !is_pattern(buf, got, len))
			return 1;
		got += len;
	}
	return 0;
}

static int child_blocks(int w, char c)
{
	char block[BLOCK];
	int i;

	memset(block, c, sizeof(block));
	for (i = 0; i < BLOCKS; i++) {
		if (fdwrite(w, block, sizeof(block)) != BLOCK)
			return 1;
		yield();	/* the other writer's turn: either meets a full pipe */
	}
	return 0;
}

/* "ROLE FD": the descriptor it was told of kept, every other closed,
 * as a child should, so that its copies hold no end open for nothing. */
static int child(char *arg)
{
	char *role = arg, *p = strstr(arg, " ");
	int fd, other;

	if (!p)
		return 100;
	*p = '\0';
	fd = strtoul(p + 1, NULL, 10);
	for (other = 0; other < NR_FDS; other++)
		if (other != fd)
			close(other);
	if (!strcmp(role, "writer"))
		return child_writer(fd);
	if (!strcmp(role, "drain"))
		return child_drain(fd);
	if (!strcmp(role, "blocks-a"))
		return child_blocks(fd, 'a');
	if (!strcmp(role, "blocks-b"))
		return child_blocks(fd, 'b');
	return 100;
}

static const struct {
	const char *word;
	void (*check)(void);
} checks[] = {
	{ "order", check_order }, { "eof", check_eof }, { "epipe", check_epipe },
	{ "wake", check_wake }, { "atomic", check_atomic }, { "badfd", check_badfd },
	{ "badptr", check_badptr }, { "limits", check_limits }, { "thread", check_thread },
};

int main(void)
{
	static char arg[64];
	unsigned int i;

	getarg(arg, sizeof(arg));
	if (!strncmp(arg, "child ", 6))
		return child(arg + 6);
	if (!strcmp(arg, "hog"))
		return hog();
	word = arg;
	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
		if (!strcmp(arg, checks[i].word))
			break;
	if (i == sizeof(checks) / sizeof(checks[0])) {
		printf("pipes: no check '%s'\n", arg);
		return 100;
	}
	checks[i].check();
	return mismatches < 100 ? mismatches : 100;
}
