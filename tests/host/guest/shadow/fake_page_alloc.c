/*
 * fake_page_alloc.c - page_alloc.h's functions for the host-side shadow
 * tests (fake_page_alloc.h): each allocation is pages of this program's
 * own (mmap: page-aligned and zeroed, as page_alloc's are; a 32-bit
 * build, so an address is a u32 as in the kernel), each in a record.
 *
 * A freed run is poisoned for AddressSanitizer and stays mapped until
 * the next reset: any later read or write of it is reported at once,
 * with the stack that made it.  A free of an address no allocation
 * returned, or of one already freed, fails the running test with the
 * address, and so does a frame still held when the test says nothing
 * should be.
 */
#include <sanitizer/asan_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
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
