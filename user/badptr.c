/*
 * badptr.c - hands every system call that takes a pointer a bad one: a
 * kernel address, NULL, an address nothing is mapped at, a range running
 * off the end of user space or off the end of the heap, a read-only
 * page to write, a string with no end or too long.  Each call must
 * return the error named in the table (-EFAULT, -EINVAL, ...) and
 * change nothing; the kernel must not fault on its own account
 * (tests/kernel/test_isolation.c watches its console for that).
 *
 * Run it with the argument "all" (getarg's checks need a known length).
 * Each mismatch is printed; the exit status is the number of them.
 * With "refault" it checks one thing only: after a call answered
 * -EFAULT, its page mapped, the next call reads its own argument (it
 * prints "badptr: refault A"; DOSBox prints "Zadptr...": see
 * tests/suite/gaps/dosbox.py).
 */
#include "lib/pv386.h"

#define PAGE		4096
#define KERNEL_ADDR	0x00100000u	/* kernel text: mapped, supervisor */
#define KERNEL_DATA	0x00200000u
#define UNMAPPED	0x80000000u	/* user space, but nothing there */
#define USER_END	0xc0000000u

static int mismatches;

static void expect(const char *what, long got, long want)
{
	if (got == want)
		return;
	printf("badptr: %s: got %d, expected %d\n", what, (int)got, (int)want);
	mismatches++;
}

static long sys(long nr, long a, long b, long c)
{
	return syscall3(nr, a, b, c);
}

static const char text_string[] = "hello";	/* .rodata: a read-only page */

static void bad_write(char *heap_end)
{
	expect("write(kernel)", sys(SYS_write, KERNEL_ADDR, 8, 0), -EFAULT);
	expect("write(NULL)", sys(SYS_write, 0, 8, 0), -EFAULT);
	expect("write(unmapped)", sys(SYS_write, UNMAPPED, 8, 0), -EFAULT);
	expect("write(past user space)", sys(SYS_write, USER_END - 4, 8, 0), -EFAULT);
	expect("write(len -1)", sys(SYS_write, (long)text_string, -1, 0), -EINVAL);
	expect("write(len 4097)", sys(SYS_write, (long)text_string, 4097, 0), -EINVAL);
	/* 128 bytes, the first chunk, are readable; the next are not: the
	 * count of bytes written before the fault. */
	memset(heap_end - 128, '.', 127);
	memcpy(heap_end - 128, "badptr: a write off the heap ", 29);
	heap_end[-1] = '\n';
	expect("write(off the heap)", sys(SYS_write, (long)(heap_end - 128), 256, 0), 128);
}

static void bad_spawn(char *heap_end)
{
	char long_arg[80];

	memset(long_arg, 'a', sizeof(long_arg) - 1);
	long_arg[sizeof(long_arg) - 1] = '\0';
	memset(heap_end - 8, 'h', 8);		/* no NUL before the unmapped page */
	expect("spawn(kernel name)", sys(SYS_spawn, KERNEL_ADDR, 0, 0), -EFAULT);
	expect("spawn(NULL name)", sys(SYS_spawn, 0, 0, 0), -EFAULT);
	expect("spawn(unmapped name)", sys(SYS_spawn, UNMAPPED, 0, 0), -EFAULT);
	expect("spawn(endless name)", sys(SYS_spawn, (long)(heap_end - 8), 0, 0), -EFAULT);
	expect("spawn(long name)", sys(SYS_spawn, (long)"abcdefghijklmnopq", 0, 0), -EINVAL);
	expect("spawn(no such program)", sys(SYS_spawn, (long)"nosuch", 0, 0), -ENOENT);
	expect("spawn(kernel arg)", sys(SYS_spawn, (long)"hello", KERNEL_ADDR, 0), -EFAULT);
	expect("spawn(unmapped arg)", sys(SYS_spawn, (long)"hello", UNMAPPED, 0), -EFAULT);
	expect("spawn(long arg)", sys(SYS_spawn, (long)"hello", (long)long_arg, 0), -EINVAL);
}

/* A bad status pointer must leave the child to be waited for. */
static void bad_wait(void)
{
	int status = 12345, pid = spawn("hello", "");

	expect("wait(no child, kernel)", sys(SYS_wait, 9999, KERNEL_ADDR, 0), -EFAULT);
	expect("wait(kernel status)", sys(SYS_wait, pid, KERNEL_ADDR, 0), -EFAULT);
	expect("wait(NULL status)", sys(SYS_wait, pid, 1, 0), -EFAULT);
	expect("wait(unmapped status)", sys(SYS_wait, pid, UNMAPPED, 0), -EFAULT);
	expect("wait(read-only status)", sys(SYS_wait, pid, (long)text_string, 0), -EFAULT);
	expect("wait(good status) after the bad ones", wait(pid, &status), pid);
	expect("its status", status, 0);
	expect("wait(no child left)", wait(-1, &status), -ECHILD);
}

static void bad_getarg(void)
{
	char buf[8];

	expect("getarg(kernel)", sys(SYS_getarg, KERNEL_DATA, 64, 0), -EFAULT);
	expect("getarg(NULL)", sys(SYS_getarg, 0, 64, 0), -EFAULT);
	expect("getarg(unmapped)", sys(SYS_getarg, UNMAPPED, 64, 0), -EFAULT);
	expect("getarg(read-only)", sys(SYS_getarg, (long)text_string, 64, 0), -EFAULT);
	/* "all" and its NUL would run 2 bytes past the end of user space
	 * (the top of this program's stack: a write there would land). */
	expect("getarg(past user space)", sys(SYS_getarg, USER_END - 2, 64, 0), -EFAULT);
	expect("getarg(size 0)", sys(SYS_getarg, (long)buf, 0, 0), -EINVAL);
	expect("getarg(size 3)", sys(SYS_getarg, (long)buf, 3, 0), -EINVAL);
	expect("getarg(size 4)", getarg(buf, 4), 3);
	expect("getarg's text", strcmp(buf, "all"), 0);
}

/* A call whose first argument is an array of `bytes` it writes (b and
 * c its others): every bad place gives -EFAULT, or good_result if not 0. */
static void bad_out_array(long nr, const char *name, long good_result, long b, long c,
			  unsigned int bytes)
{
	char what[40];
	uint32_t out[4];
	long want = good_result ? good_result : -EFAULT;
	const char *cases[] = { "kernel", "NULL", "unmapped", "read-only",
				"past user space" };
	/* USER_END - 4: the 8 or 16 bytes would run past the end of user
	 * space (and the word there is the top of this program's stack);
	 * one word would fit there, so for it USER_END - 2 */
	long addr[] = { KERNEL_DATA, 0, UNMAPPED, (long)text_string,
			USER_END - (bytes > 4 ? 4 : 2) };
	unsigned int i;

	(void)out;
	for (i = 0; i < 5; i++) {
		unsigned int n = strlen(name), m = strlen(cases[i]);

		memcpy(what, name, n);
		what[n] = '(';
		memcpy(what + n + 1, cases[i], m);
		what[n + 1 + m] = ')';
		what[n + 2 + m] = '\0';
		expect(what, sys(nr, addr[i], b, c), want);
	}
}

/* read and fdwrite on a pipe: a bad buffer moves no byte (the one
 * inside is still there for a good read). */
static void bad_pipe_buffers(void)
{
	long bad[] = { KERNEL_DATA, 0, UNMAPPED, USER_END - 2 };
	int fds[2];
	unsigned int i;
	char c = 0;

	expect("pipe", pipe(fds), 0);
	expect("fdwrite", fdwrite(fds[1], "p", 1), 1);
	for (i = 0; i < 4; i++) {
		expect("read(bad buffer)", sys(SYS_read, fds[0], bad[i], 4), -EFAULT);
		expect("fdwrite(bad buffer)", sys(SYS_fdwrite, fds[1], bad[i], 4), -EFAULT);
	}
	expect("read(read-only)", sys(SYS_read, fds[0], (long)text_string, 1), -EFAULT);
	expect("read after the bad ones", read(fds[0], &c, 1), 1);
	expect("the byte", c, 'p');
	close(fds[0]);
	close(fds[1]);
}

/* Values that are not pointers but must stay inside user space. */
static void bad_segments_and_watch(void)
{
	expect("set_tls(kernel base)", sys(SYS_set_tls, 0, KERNEL_ADDR, 4096), -EINVAL);
	expect("set_ldt(kernel base)", sys(SYS_set_ldt, 0, KERNEL_ADDR, 4096), -EINVAL);
	expect("set_ldt(past user space)", sys(SYS_set_ldt, 0, USER_END - 4096, 8192),
	       -EINVAL);
	expect("watch(kernel)", sys(SYS_watch, KERNEL_DATA, 4, 0), -EINVAL);
	expect("brk(kernel)", sys(SYS_brk, KERNEL_DATA, 0, 0), -EINVAL);
	expect("brk(stack)", sys(SYS_brk, USER_END - PAGE, 0, 0), -EINVAL);
	expect("the first unknown system call", sys(NR_SYSCALLS, 0, 0, 0), -ENOSYS);
	expect("system call -1", sys(-1, 0, 0, 0), -ENOSYS);
}

/*
 * write() from the page above the heap (-EFAULT: the kernel's read of
 * it faults, and its exception table answers), then that page made the
 * heap's and written, then write() of a line from elsewhere: the line
 * must come out as it is, with nothing of the old address in it.
 */
static int refault(void)
{
	static const char line[] = "badptr: refault A\n";
	char *page = sbrk(0);

	expect("write(above the heap)", sys(SYS_write, (long)page + 16, 1, 0), -EFAULT);
	if (sbrk(PAGE) != page)
		return 1;
	page[16] = 'Z';
	write(line, sizeof(line) - 1);
	return mismatches;
}

int main(void)
{
	char arg[16];
	char *heap_end;
	uint64_t count;
	uint32_t counts[2];
	int pmc_result, host_result;

	if (getarg(arg, sizeof(arg)) >= 0 && !strcmp(arg, "refault"))
		return refault();
	sbrk(PAGE);
	heap_end = sbrk(0);		/* the page above is not the heap's */
	bad_write(heap_end);
	bad_spawn(heap_end);
	bad_wait();
	bad_getarg();
	bad_out_array(SYS_uptime, "uptime", 0, 0, 0, 16);
	/* Where there is no counter, every pmc call gives -ENODEV first. */
	pmc_result = read_pmc_count(&count);
	bad_out_array(SYS_pmc, "pmc", pmc_result == -ENODEV ? -ENODEV : 0, 0, 0, 8);
	/* The same on bare hardware, where there is no host to count. */
	host_result = host_counts(counts);
	bad_out_array(SYS_hostcounts, "hostcounts", host_result == -ENODEV ? -ENODEV : 0,
		      0, 0, 8);
	/* And where the machine counts neither (no host; not the trace
	 * backend, whose padding count is one word). */
	bad_out_array(SYS_counts, "counts host", machine_counts(counts, 0, COUNTS_HOST) ==
		      -ENODEV ? -ENODEV : 0, 2, COUNTS_HOST, 8);
	bad_out_array(SYS_counts, "counts padding", machine_counts(counts, 0, COUNTS_PADDING) ==
		      -ENODEV ? -ENODEV : 0, 1, COUNTS_PADDING, 4);
	expect("counts(no such which)", machine_counts(counts, 2, COUNTS_PADDING + 1), -EINVAL);
	bad_out_array(SYS_pipe, "pipe", 0, 0, 0, 8);
	bad_pipe_buffers();
	bad_segments_and_watch();
	printf("badptr: %d mismatches\n", mismatches);
	return mismatches;
}
