/*
 * tls.c - thread-local storage through the GDT's TLS slots (set_tls):
 * a segment based at this program's own variables, used through %fs and
 * %gs, must show those variables, and keep showing them across task
 * switches while other tasks use the same slots for their own memory
 * (the kernel reloads the slots at every switch: load_tls).
 *
 * The argument is a number V (default 7): cell[i] holds V * 1000 + i,
 * and the segments start at cell[V % 8], so that two instances with
 * different V % 8 have different bases (the same program, at the same
 * addresses, would not tell whose descriptor is loaded).  Checks, each
 * with its own exit status:
 *   1  set_tls refused a good segment, or gave a selector that is not
 *      the GDT's, ring 3
 *   2  %gs:0 and %gs:4 (slot 0, based at cell[V % 8]) read the wrong cells
 *   3  a write through %fs:4 (slot 1, based two cells further) did not
 *      land in the cell after
 *   4  after many yields, %gs and %fs no longer read this task's cells
 *   5  a segment outside user space or a bad slot was not refused
 *   6  freeing slot 0 while %gs holds it did not leave %gs null on the
 *      way back (entry.S fixes the pop up to the null selector)
 */
#include "lib/pv386.h"

#define ROUNDS		50
#define SELECTOR_TI	4	/* in the LDT, not the GDT */

static volatile uint32_t cell[16];


static uint32_t gs_selector(void)
{
	uint32_t sel;

	asm volatile("movl %%gs, %0" : "=r" (sel));
	return sel & 0xffff;
}

static int selector_ok(int sel)
{
	return sel > 0 && (sel & 3) == 3 && !(sel & SELECTOR_TI);
}

int main(void)
{
	char arg[16];
	uint32_t v, i, o;
	int gs_sel, fs_sel;

	getarg(arg, sizeof(arg));
	v = arg[0] ? (uint32_t)atoi(arg) : 7;
	o = v % 8;
	for (i = 0; i < 16; i++)
		cell[i] = v * 1000 + i;

	gs_sel = set_tls(0, (const void *)&cell[o], 8);
	fs_sel = set_tls(1, (const void *)&cell[o + 2], 8);
	if (!selector_ok(gs_sel) || !selector_ok(fs_sel) || gs_sel == fs_sel)
		return 1;
	asm volatile("movl %0, %%gs; movl %1, %%fs" : : "r" (gs_sel), "r" (fs_sel));
	if (read_gs(0) != cell[o] || read_gs(4) != cell[o + 1])
		return 2;
	asm volatile("movl %0, %%fs:4" : : "r" (v * 7) : "memory");
	if (cell[o + 3] != v * 7)
		return 3;

	for (i = 0; i < ROUNDS; i++) {
		yield();
		if (read_gs(0) != v * 1000 + o || read_fs(0) != v * 1000 + o + 2) {
			printf("tls %u: round %u: %%gs:0 = %u, %%fs:0 = %u\n", (unsigned int)v,
			       (unsigned int)i, (unsigned int)read_gs(0),
			       (unsigned int)read_fs(0));
			return 4;
		}
	}

	if (set_tls(0, (const void *)0x00100000, 4096) != -EINVAL ||
	    set_tls(0, (const void *)0xbffff000, 8192) != -EINVAL ||
	    set_tls(3, (const void *)&cell[0], 8) != -EINVAL ||
	    set_tls(0, (const void *)&cell[0], 0) != -EINVAL)
		return 5;

	if (set_tls(0, 0, 0) != gs_sel || gs_selector() != 0)
		return 6;
	printf("tls %u: ok\n", (unsigned int)v);
	return 0;
}
