/*
 * fake_page_alloc.c - page_alloc.h's functions for the native shadow
 * tests (fake_page_alloc.h): each allocation is pages of this program's
 * own (mmap: page-aligned and zeroed, as page_alloc's are; a 32-bit
 * build, so an address is a u32 as in the kernel), each in a record.
 *
 * A freed run is poisoned for AddressSanitizer and stays reserved, with
 * no access, until the next reset: any later read or write of it is
 * reported at once - by AddressSanitizer with the stack that made it, or,
 * in the build without it (the one qemu-user runs), by the fault handler
 * below with the address.  A free of an address no allocation
 * returned, or of one already freed, fails the running test with the
 * address, and so does a frame still held when the test says nothing
 * should be.
 */
#include <sanitizer/asan_interface.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <page_alloc.h>
#include <asm/paging.h>
#include "../../runner/runner.h"
#include "fake_page_alloc.h"

#define MAX_RUNS	8192	/* allocations between resets */

static struct run {
	u32 addr;
	unsigned int pages;
	bool live;
} runs[MAX_RUNS];
static unsigned int nr_runs;
static unsigned long calls, refusals, fail_at;
static bool fail_from_then_on;

static struct run *run_at(u32 addr)
{
	unsigned int i;

	for (i = 0; i < nr_runs; i++)
		if (runs[i].addr == addr)
			return &runs[i];
	return NULL;
}

static bool refuse_this_call(void)
{
	calls++;
	if (fail_at && (calls == fail_at || (fail_from_then_on && calls > fail_at))) {
		refusals++;
		return true;
	}
	return false;
}

u32 pages_alloc(unsigned int n)
{
	void *p;

	if (refuse_this_call())
		return 0;
	if (nr_runs == MAX_RUNS) {
		fprintf(stderr, "fake_page_alloc: more than %d allocations\n", MAX_RUNS);
		abort();
	}
	p = mmap(NULL, n * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("fake_page_alloc: mmap");
		abort();
	}
	runs[nr_runs++] = (struct run){ (u32)p, n, true };
	return (u32)p;
}

u32 page_alloc(void)
{
	return pages_alloc(1);
}

void pages_free(u32 addr, unsigned int n)
{
	struct run *r = run_at(addr);

	if (!r) {
		CHECK(false, "free of %08x (%u pages): never handed out", addr, n);
		return;
	}
	if (!r->live) {
		CHECK(false, "free of %08x: already free", addr);
		return;
	}
	CHECK(r->pages == n, "free of %08x as %u pages: handed out as %u", addr, n, r->pages);
	r->live = false;
	ASAN_POISON_MEMORY_REGION((void *)r->addr, r->pages * PAGE_SIZE);
	if (mprotect((void *)r->addr, r->pages * PAGE_SIZE, PROT_NONE) != 0) {
		perror("fake_page_alloc: mprotect");
		abort();
	}
}

void page_free(u32 addr)
{
	pages_free(addr, 1);
}

/* The kernel's count of free frames has no meaning here. */
unsigned long pages_free_count(void)
{
	return 0;
}

static unsigned long live(bool single)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < nr_runs; i++)
		n += runs[i].live && (runs[i].pages == 1) == single;
	return n;
}

unsigned long fake_live_frames(void)	{ return live(true); }
unsigned long fake_live_runs(void)	{ return live(false); }
unsigned long fake_calls(void)		{ return calls; }
unsigned long fake_refusals(void)	{ return refusals; }

void fake_check_nothing_held(const char *when)
{
	unsigned int i;

	for (i = 0; i < nr_runs; i++) {
		CHECK(!runs[i].live, "%s: %08x (%u pages) still held", when, runs[i].addr,
		      runs[i].pages);
		runs[i].live = false;
	}
}

void fake_fail_in(unsigned long n, bool from_then_on)
{
	fail_at = calls + n;
	fail_from_then_on = from_then_on;
}

#ifndef __SANITIZE_ADDRESS__
/*
 * A fault at an address: in a freed run it is a use after free, named
 * as such; anywhere else an ordinary crash.  The program ends here, so
 * the line is formatted with snprintf (not async-signal-safe, but no
 * other code runs after it) and written with write(), then _exit.
 */
static void report_fault(int sig, siginfo_t *info, void *context)
{
	u32 addr = (u32)info->si_addr;
	const char *what = "a fault";
	char line[128];
	unsigned int i;
	int n;

	(void)sig;
	(void)context;
	for (i = 0; i < nr_runs; i++)
		if (!runs[i].live && addr - runs[i].addr < runs[i].pages * PAGE_SIZE)
			what = "a use of a freed frame";
	n = snprintf(line, sizeof(line), "FAIL fake_page_alloc: %s at %08x\n", what, addr);
	write(STDOUT_FILENO, line, n);
	_exit(2);
}
#endif

/*
 * With AddressSanitizer, its own handler reports faults (and a freed
 * frame is caught before the access); without it, ours does.
 */
void fake_report_faults(void)
{
#ifndef __SANITIZE_ADDRESS__
	struct sigaction sa = { .sa_sigaction = report_fault, .sa_flags = SA_SIGINFO };

	sigaction(SIGSEGV, &sa, NULL);
#endif
}

void fake_reset(unsigned long fail, bool from_then_on)
{
	unsigned int i;

	for (i = 0; i < nr_runs; i++) {
		ASAN_UNPOISON_MEMORY_REGION((void *)runs[i].addr, runs[i].pages * PAGE_SIZE);
		munmap((void *)runs[i].addr, runs[i].pages * PAGE_SIZE);
	}
	nr_runs = 0;
	calls = refusals = 0;
	fail_at = fail;
	fail_from_then_on = from_then_on;
}
