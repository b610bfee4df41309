/*
 * syscalls.c - one C function per system call, over syscall3().
 */
#include "pv386.h"

extern long sysenter_ok;	/* crt0.S */

/* crt0.S fills entry_state by hand, at these offsets. */
_Static_assert(sizeof(struct entry_state) == 60, "crt0.S skips 60 bytes");
_Static_assert(offsetof(struct entry_state, eflags) == 32, "crt0.S: eflags at 32");
_Static_assert(offsetof(struct entry_state, cs) == 36, "crt0.S: cs at 36");
_Static_assert(offsetof(struct entry_state, ss) == 56, "crt0.S: ss at 56");

int have_sysenter(void)
{
	return sysenter_ok != 0;
}

long syscall3(long nr, long a, long b, long c)
{
	return sysenter_ok ? syscall_sysenter(nr, a, b, c) : syscall_int80(nr, a, b, c);
}

void exit(int status)
{
	syscall3(SYS_exit, status, 0, 0);
	for (;;)
		;
}

long write(const void *buf, size_t len)	{ return syscall3(SYS_write, (long)buf, len, 0); }
int getpid(void)			{ return syscall3(SYS_getpid, 0, 0, 0); }
void yield(void)			{ syscall3(SYS_yield, 0, 0, 0); }
long sleep_ticks(unsigned long ticks)	{ return syscall3(SYS_sleep, ticks, 0, 0); }
int iopl(int level)			{ return syscall3(SYS_iopl, level, 0, 0); }
int watch(void *addr, int len)		{ return syscall3(SYS_watch, (long)addr, len, 0); }
int getarg(char *buf, size_t size)	{ return syscall3(SYS_getarg, (long)buf, size, 0); }
int uptime(uint32_t out[4])		{ return syscall3(SYS_uptime, (long)out, 0, 0); }
int read_pmc_count(uint64_t *count)	{ return syscall3(SYS_pmc, (long)count, 0, 0); }
int host_counts(uint32_t out[2])	{ return syscall3(SYS_hostcounts, (long)out, 0, 0); }
long machine_counts(uint32_t *out, unsigned long n, int which)
{
	return syscall3(SYS_counts, (long)out, n, which);
}

int pipe(int fds[2])			{ return syscall3(SYS_pipe, (long)fds, 0, 0); }
int close(int fd)			{ return syscall3(SYS_close, fd, 0, 0); }

long read(int fd, void *buf, size_t len)
{
	return syscall3(SYS_read, fd, (long)buf, len);
}

long fdwrite(int fd, const void *buf, size_t len)
{
	return syscall3(SYS_fdwrite, fd, (long)buf, len);
}

uint32_t cpu_features(void)
{
	uint32_t info[2] = { 0, 0 };

	syscall3(SYS_cpuinfo, (long)info, 0, 0);
	return info[1];
}

int spawn(const char *program, const char *arg)
{
	return syscall3(SYS_spawn, (long)program, (long)arg, 0);
}

int wait(int pid, int *status)
{
	return syscall3(SYS_wait, pid, (long)status, 0);
}

int set_tls(int slot, const void *base, unsigned long limit)
{
	return syscall3(SYS_set_tls, slot, (long)base, limit);
}

int set_ldt(int slot, const void *base, unsigned long limit)
{
	return syscall3(SYS_set_ldt, slot, (long)base, limit);
}

void *brk(void *end)
{
	return (void *)syscall3(SYS_brk, (long)end, 0, 0);
}

/* What a new thread finds at the top of its stack: the function and its
 * argument, put there by thread_create. */
struct thread_start {
	void (*fn)(void *);
	void *arg;
};

/* Where every thread begins, start (the kernel passes it as the C
 * argument): the function, then the end of the thread. */
static void __attribute__((noreturn)) thread_entry(struct thread_start *start)
{
	start->fn(start->arg);
	exit(0);
}

int thread_create(void (*fn)(void *), void *arg, void *stack_top)
{
	struct thread_start *start = (struct thread_start *)stack_top - 1;

	start->fn = fn;
	start->arg = arg;
	return syscall3(SYS_thread, (long)thread_entry, (long)start, (long)start);
}

void *sbrk(long increment)
{
	char *old = brk(0);
	long r = (long)brk(old + increment);

	return r < 0 && r >= -SYSCALL_ERROR_MAX ? (void *)-1 : old;
}
