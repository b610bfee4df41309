/*
 * bench_fault.c - make bench's page fault: a demand-zero fault on the
 * heap, resolved by the kernel, per fault.
 *
 * sbrk() only moves the break; each heap page gets its frame when first
 * touched (kernel/user_fault.c).  The same loop writes one byte to each
 * of PAGES fresh pages (each write a fault: entry, the handler, a frame
 * allocated and zeroed, the page mapped, the write run again) and then
 * to the same pages once more, now mapped: the difference is the faults
 * alone, the loop and the writes subtracted.
 */
#include "bench_paths.h"

#define PAGES		256	/* 1 MiB: inside the page table the program
				   text already uses, so none is allocated */
#define PAGE_BYTES	4096

static volatile char *heap;

BENCH_TIMED(touch_pages, heap[i * PAGE_BYTES] = 1)

int main(void)
{
	struct bench_counts counts;
	uint32_t faulting, mapped;

	heap = sbrk(PAGES * PAGE_BYTES);
	if (heap == (void *)-1) {
		printf("bench_fault: sbrk(%u pages) refused\n", PAGES);
		return 1;
	}
	bench_counts_begin(&counts);
	faulting = touch_pages(PAGES);
	bench_counts_end(&counts);
	mapped = touch_pages(PAGES);
	bench_print("page_fault", faulting - mapped, PAGES);
	bench_print_counts("page_fault", &counts, PAGES);
	return 0;
}
