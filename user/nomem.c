/*
 * nomem.c - what a system call answers when the page it must touch has
 * no RAM behind it: -ENOMEM, and nothing changed.  The address is the
 * program's own (its heap, its stack), so -EFAULT ("bad address") would
 * be a lie that sends its author after a bug that is not there.
 *
 * It starts a child (sleep), grows its heap far past RAM and lets the
 * kernel bring the heap's pages in (cpuinfo writes into each) until
 * none is left; then asks for calls on a stack page it never touched:
 * cpuinfo writing there, write reading from there, and a wait for the
 * child with its status there, which must fail and leave the child.
 * With the heap given back, the same wait collects the child.
 *
 * Its own stack is touched beforehand: with RAM gone, a first touch of
 * a stack page by the program itself would kill it (out of memory).
 * One line at the end; exit status the number of wrong answers.
 */
#include "lib/pv386.h"

#define PAGE		4096u
#define USER_END	0xc0000000u
#define HEAP_STEP	(16u << 20)	/* brk refuses growth past free RAM */
#define HEAP_MAX	(1u << 30)
#define TOUCHED		(32u * 1024)	/* the stack this program itself uses */
#define UNTOUCHED	(USER_END - 128 * 1024)	/* a stack page nothing touched */

static int wrong;

static void expect(const char *what, long got, long want)
{
	if (got == want)
		return;
	wrong++;
	printf("nomem: %s gave %ld, expected %ld\n", what, got, want);
}

/* The stack this program will use, brought in while RAM is there. */
static char __attribute__((noinline)) touch_stack(void)
{
	volatile char pages[TOUCHED];
	uint32_t i;

	for (i = 0; i < TOUCHED; i += PAGE)
		pages[i] = 0;
	return pages[0];
}

/* The heap grown as far as brk lets it, up to HEAP_MAX: far past RAM,
 * as brk only refuses a single step larger than the free frames. */
static uint32_t grow_heap(uint32_t start)
{
	uint32_t end = start;

	while (end - start < HEAP_MAX && sbrk(HEAP_STEP) != (void *)-1)
		end += HEAP_STEP;
	return end;
}

/* The kernel brings heap pages in until no frame is left: the answer
 * that stops it must be -ENOMEM.  How many pages it brought. */
static uint32_t fill_ram(uint32_t start, uint32_t end)
{
	uint32_t page;
	long r = 0;

	for (page = start; page < end; page += PAGE)
		if ((r = syscall3(SYS_cpuinfo, (long)page, 0, 0)))
			break;
	expect("cpuinfo into the heap once RAM ran out", r, -ENOMEM);
	return (page - start) / PAGE;
}

int main(void)
{
	uint32_t start = (uint32_t)brk(0), end, pages;
	int pid = spawn("sleep", "20"), *status = (int *)UNTOUCHED;

	touch_stack();
	sleep_ticks(1);			/* the child starts, and sleeps */
	end = grow_heap(start);
	pages = fill_ram(start, end);
	expect("cpuinfo onto an untouched stack page",
	       syscall3(SYS_cpuinfo, UNTOUCHED, 0, 0), -ENOMEM);
	expect("write from an untouched stack page",
	       syscall3(SYS_write, UNTOUCHED + PAGE, 4, 0), -ENOMEM);
	expect("wait, its status on an untouched stack page",
	       syscall3(SYS_wait, pid, (long)status, 0), -ENOMEM);
	brk((void *)start);
	expect("wait once the heap went back", wait(pid, status), pid);
	expect("the child's status", *status, 0);
	printf("nomem: %u heap pages took the RAM, %d wrong answers\n",
	       (unsigned int)pages, wrong);
	return wrong;
}
