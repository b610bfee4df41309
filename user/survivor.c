/*
 * survivor.c - a well-behaved task that runs beside a misbehaving one
 * and checks that nothing of its own was touched: the registers it
 * holds across a system call (%esi, %edi, %ebp, the segment registers),
 * a page of data, a page of heap, a page of stack and a value in the
 * x87 FPU.  tests/kernel/test_isolation.c runs it next to each case of
 * crash and priv.
 *
 * The argument is how many times to yield (default 20), checking after
 * each.  Exit status: 0 all intact; 1 a register changed across
 * int $0x80; 2 memory changed; 3 the FPU value changed; 4 no heap.
 */
#include "lib/pv386.h"

#define PAGE		4096
#define USER_DS		0x23	/* asm/segment.h: GDT entry 4, RPL 3 */

static uint32_t data_page[PAGE / 4];

static void fill(uint32_t *p, uint32_t seed)
{
	unsigned int i;

	for (i = 0; i < PAGE / 4; i++)
		p[i] = seed ^ (i * 0x9e3779b9u);
}

static int intact(const uint32_t *p, uint32_t seed)
{
	unsigned int i;

	for (i = 0; i < PAGE / 4; i++)
		if (p[i] != (seed ^ (i * 0x9e3779b9u)))
			return 0;
	return 1;
}

/* Yield through int $0x80 with known values in the registers a system
 * call must keep, and a value in st(0); 0 if all came back. */
static int yield_keeps_registers(void)
{
	static const double value = 2.718281828459045;
	uint32_t esi, edi, ebp, ds, es, ss, nr = SYS_yield;
	double back;

	asm volatile("pushl %%ebp\n\t"
		     "movl $0x51515151, %%esi\n\t"
		     "movl $0xd1d1d1d1, %%edi\n\t"
		     "movl $0xb9b9b9b9, %%ebp\n\t"
		     "fldl %[value]\n\t"
		     "int $0x80\n\t"
		     "movl %%ebp, %%ecx\n\t"
		     "popl %%ebp\n\t"	/* before any memory operand: may be %ebp-based */
		     "fstpl %[back]"
		     : "=S" (esi), "=D" (edi), "=c" (ebp), [back] "=m" (back), "+a" (nr)
		     : [value] "m" (value)
		     : "edx", "memory");
	asm volatile("movl %%ds, %0; movl %%es, %1; movl %%ss, %2"
		     : "=r" (ds), "=r" (es), "=r" (ss));
	if (esi != 0x51515151 || edi != 0xd1d1d1d1 || ebp != 0xb9b9b9b9 ||
	    (ds & 0xffff) != USER_DS || (es & 0xffff) != USER_DS ||
	    (ss & 0xffff) != USER_DS)
		return 1;
	return back == value ? 0 : 3;
}

int main(void)
{
	char arg[16];
	uint32_t stack_page[PAGE / 4], *heap_page = sbrk(PAGE);
	int rounds, i, err;

	getarg(arg, sizeof(arg));
	rounds = arg[0] ? atoi(arg) : 20;
	if (heap_page == (void *)-1)
		return 4;
	fill(data_page, 0x0da7a000);
	fill(heap_page, 0x0bea9000);
	fill(stack_page, 0x057ac000);
	for (i = 0; i < rounds; i++) {
		if ((err = yield_keeps_registers())) {
			printf("survivor: round %d: %s changed\n", i,
			       err == 1 ? "a register" : "the FPU value");
			return err;
		}
		if (!intact(data_page, 0x0da7a000) || !intact(heap_page, 0x0bea9000) ||
		    !intact(stack_page, 0x057ac000)) {
			printf("survivor: round %d: memory changed\n", i);
			return 2;
		}
	}
	return 0;
}
