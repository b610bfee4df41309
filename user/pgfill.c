/*
 * pgfill.c - takes every frame it can get and fills it with words that
 * look like page-table entries: present, writable, user, pointing at
 * 0x3ffff000, an address the kernel does not map.  A kernel that walks
 * a page directory it holds no reference on (the shell's `vm PID` while
 * PID exits on another CPU) finds these words there once the directory's
 * frames come back here, and follows them.
 *
 * Its argument: how many timer ticks to go on (default 100).  It grows
 * its heap by PAGES pages, writes every word of them, gives them back,
 * and again, then exits 0.
 */
#include "lib/pv386.h"

#define PAGE		4096
#define PAGES		64
#define CRAFTED		(0x3ffff000u | 0x7)	/* P, RW, U */

static uint32_t ticks_now(void)
{
	uint32_t v[4];

	uptime(v);
	return v[0];
}

int main(void)
{
	char arg[16];
	uint32_t end, i, *heap = brk(0);

	getarg(arg, sizeof(arg));
	end = ticks_now() + (arg[0] ? strtoul(arg, NULL, 0) : 100);
	while ((int32_t)(ticks_now() - end) < 0) {
		if (sbrk(PAGES * PAGE) == (void *)-1)
			return 1;
		for (i = 0; i < PAGES * PAGE / sizeof(*heap); i++)
			heap[i] = CRAFTED;
		brk(heap);
	}
	return 0;
}
