/*
 * spawnbomb.c - takes what the kernel has until it says no, and checks
 * that it says so with an error rather than by crashing.
 *
 *   chain N  tasks: each link (N = its depth) spawns the next and waits
 *            for it, until spawn fails; the last link exits with the
 *            error number, and every link passes its child's status up.
 *            The kernel's table of tasks is fixed: -EAGAIN.
 *   memory   RAM: heap pages are taken and touched while at least SPARE
 *            pages stay free (brk refuses a request larger than the free
 *            RAM, which tells how much is left); then a spawn, which
 *            needs more than that, must fail with -ENOMEM, and so must a
 *            brk asking for more.
 *   (none)   both, one after the other.
 *
 * Exit status: 0 the kernel refused with the errors above; 1 the chain
 * ended with another error; 2 the heap could not grow at all; 3 spawn
 * or brk succeeded when memory was gone, or failed with another error.
 * A chain link exits with the error number its spawn got, or with its
 * child's status.
 */
#include "lib/pv386.h"

#define PAGE		4096
#define SPARE		4	/* free pages left: fewer than any spawn needs */
#define STRIDE		64	/* pages taken at a time while plenty are free */

static void chain_arg(char *buf, int depth)
{
	memcpy(buf, "chain ", 6);
	buf[6] = '0' + depth / 10;
	buf[7] = '0' + depth % 10;
	buf[8] = '\0';
}

static int chain_link(int depth)
{
	char arg[16];
	int pid, status;

	chain_arg(arg, depth + 1);
	pid = spawn("spawnbomb", arg);
	if (pid < 0) {
		printf("spawnbomb: link %d: spawn failed with %d\n", depth, pid);
		return -pid;
	}
	if (wait(pid, &status) != pid)
		return 99;
	return status;
}

static int exhaust_tasks(void)
{
	int status = chain_link(0);

	printf("spawnbomb: the chain ended with %d\n", status);
	return status == EAGAIN ? 0 : 1;
}

/* At least n more pages free?  Ask brk for them, then give them back. */
static int pages_free_at_least(char *end, unsigned long n)
{
	long r = (long)brk(end + n * PAGE);

	if (r < 0 && r >= -SYSCALL_ERROR_MAX)
		return 0;
	brk(end);
	return 1;
}

/* Grow the heap by n pages and touch them; the new end. */
static char *take_pages(char *end, unsigned long n)
{
	char *p = end;

	brk(end + n * PAGE);
	for (; p < end + n * PAGE; p += PAGE)
		*(volatile char *)p = 1;
	return p;
}

static int exhaust_memory(void)
{
	char *start = brk(0), *end = start;
	long r;
	int pid;

	while (pages_free_at_least(end, STRIDE + SPARE))
		end = take_pages(end, STRIDE);
	while (pages_free_at_least(end, SPARE + 1))
		end = take_pages(end, 1);
	if (end == start)
		return 2;
	printf("spawnbomb: took %u KiB of heap\n",
	       (unsigned int)((end - start) / 1024));
	pid = spawn("hello", "");
	r = (long)brk(end + (SPARE + 1) * PAGE);
	printf("spawnbomb: with memory gone, spawn gives %d, brk %d\n", pid, (int)r);
	if (pid >= 0)
		wait(pid, NULL);
	return pid == -ENOMEM && r == -ENOMEM ? 0 : 3;
}

int main(void)
{
	char arg[16];
	int status;

	getarg(arg, sizeof(arg));
	if (arg[0] == 'c')		/* "chain N" */
		return chain_link(atoi(arg + 6));
	if (!strcmp(arg, "memory"))
		return exhaust_memory();
	status = exhaust_tasks();
	return status ? status : exhaust_memory();
}
