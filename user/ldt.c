/*
 * ldt.c - segments in the task's own LDT (set_ldt), used through a
 * segment register: one with a non-zero, unaligned base and a byte
 * limit, one page-granular (4 KiB units) over a whole megabyte.  Each
 * must read the memory at base + offset, and keep doing so across task
 * switches while other tasks have LDTs of their own (the kernel loads
 * the next task's LDT at every switch).
 *
 * The argument is a number V (default 5): table[i] holds V * 1000 + i.
 * Both segments start V % 8 steps (words, pages) into their arrays, so
 * that two instances with different V % 8 have different bases (the
 * same program, at the same addresses, would not tell whose LDT is
 * loaded).
 * Exit status:
 *   1  set_ldt refused a good segment, or its selector is not an LDT
 *      selector with RPL 3
 *   2  %gs:0 and %gs:2 (based 2 bytes into table[3 + V % 8]) read the
 *      wrong bytes
 *   3  the page-granular segment reads the wrong word
 *   4  after many yields, a segment reads another task's memory
 *   5  a segment outside user space, or slot 8, was not refused
 *   6  the heap could not grow by the megabyte the big segment spans
 */
#include "lib/pv386.h"

#define ROUNDS		50
#define SELECTOR_TI	4
#define LDT_SLOTS	8

#define BIG		(1 << 20)	/* the page-granular segment: a megabyte */

static volatile uint32_t table[24];	/* the small segment: up to 8 + 3 + 9 */

/* The big segment's memory comes from the heap, not from a static array:
 * a program's bss is given its frames when it is loaded, the heap only
 * where it is touched (one page here).  Two instances of this program run
 * side by side in user_ldt_is_per_task, and on a 4 MiB machine two
 * megabytes of bss no longer fit beside the kernel. */
#define BIG_SPAN	(BIG + 8 * 4096)


static int selector_ok(int sel, int slot)
{
	return sel == slot * 8 + SELECTOR_TI + 3;
}

/* The word that starts 2 bytes into table[f], as the CPU reads it:
 * the high half of table[f] and the low half of table[f + 1]. */
static uint32_t unaligned_word(uint32_t f)
{
	return (table[f] >> 16) | (table[f + 1] & 0xffff) << 16;
}

int main(void)
{
	char arg[16];
	uint32_t v, i, f;
	char *big, *big_base;
	int small_sel, big_sel;

	getarg(arg, sizeof(arg));
	v = arg[0] ? (uint32_t)atoi(arg) : 5;
	for (i = 0; i < 24; i++)
		table[i] = v * 1000 + i;
	f = 3 + v % 8;
	big = sbrk(BIG_SPAN);
	if (big == (char *)-1)
		return 6;
	big_base = big + (v % 8) * 4096;
	*(volatile uint32_t *)&big_base[BIG - 8] = v * 7;

	small_sel = set_ldt(2, (const char *)&table[f] + 2, 32);
	big_sel = set_ldt(5, big_base, BIG);
	if (!selector_ok(small_sel, 2) || !selector_ok(big_sel, 5))
		return 1;
	asm volatile("movl %0, %%gs; movl %1, %%fs" : : "r" (small_sel), "r" (big_sel));
	if (read_gs(0) != unaligned_word(f) || read_gs(2) != table[f + 1])
		return 2;
	if (read_fs(BIG - 8) != v * 7)
		return 3;

	for (i = 0; i < ROUNDS; i++) {
		yield();
		if (read_gs(2) != table[f + 1] || read_fs(BIG - 8) != v * 7) {
			printf("ldt %u: round %u: %%gs:2 = %u, %%fs:big = %u\n",
			       (unsigned int)v, (unsigned int)i, (unsigned int)read_gs(2),
			       (unsigned int)read_fs(BIG - 8));
			return 4;
		}
	}

	if (set_ldt(0, (const void *)0x00100000, 4096) != -EINVAL ||
	    set_ldt(0, (const void *)0xbffff000, 8192) != -EINVAL ||
	    set_ldt(LDT_SLOTS, (const void *)&table[0], 8) != -EINVAL)
		return 5;
	printf("ldt %u: ok\n", (unsigned int)v);
	return 0;
}
