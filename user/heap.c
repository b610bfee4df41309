/*
 * heap.c - the heap grows on demand and gives memory back.
 *
 * Grows by a few pages and writes them (each first write is a page
 * fault the kernel resolves with a zeroed page), shrinks back (the pages
 * are freed), grows again and checks that the pages it gets are zeroed
 * and not the ones it wrote: exit 0 if so.  Then it sleeps a tick, so
 * the idle task gets the CPU, and exits.
 */
#include "lib/pv386.h"

#define PAGES	8
#define PAGE	4096

static int grow_and_check(unsigned char fill)
{
	unsigned char *p = sbrk(PAGES * PAGE);
	int i, dirty = 0;

	if (p == (void *)-1)
		return -1;
	for (i = 0; i < PAGES * PAGE; i += PAGE) {
		dirty += p[i] != 0;
		p[i] = fill;
	}
	sbrk(-PAGES * PAGE);
	return dirty;
}

int main(void)
{
	int first = grow_and_check(0xaa), second = grow_and_check(0x55);

	printf("heap: %d pages, dirty on first use: %d, after giving back: %d\n",
	       PAGES, first, second);
	sleep_ticks(1);
	return first == 0 && second == 0 ? 0 : 1;
}
