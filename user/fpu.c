/*
 * fpu.c - keeps its own values in the FPU across many task switches.
 *
 * The argument is a small number N (default 3).  The program fills all
 * eight x87 registers with N, 2N, ... 8N, picks a rounding mode of its
 * own (odd N: toward zero, even N: to nearest) in the x87 control word
 * and, where the CPU has SSE, in MXCSR and puts N in %xmm0; then it
 * yields to the other tasks ROUNDS times, adding N to st(0) after each
 * yield, so that every time it runs again the kernel must have given it
 * back its own registers (arch/x86/kernel/fpu.c, lazily or eagerly).  Two
 * instances with different N running together check each other.
 *
 * Exit status: 0 if every value is what it must be, else the sum of
 *   1  an x87 register is wrong     4  a rounding came out wrong
 *   2  the x87 control word changed 8  %xmm0 or MXCSR is wrong
 */
#include "lib/pv386.h"

#define ROUNDS		50
#define FCW_CHOP	0x0f7f	/* all exceptions masked, round toward zero */
#define FCW_NEAREST	0x037f	/* ... round to nearest (the fninit value) */
#define MXCSR_CHOP	0x7f80	/* all exceptions masked, round toward zero */
#define MXCSR_NEAREST	0x1f80
#define CPUID_SSE	(1 << 25)

/* The kernel's word, not cpuid's: with cpu=586 it leaves SSE off. */
static int has_sse(void)
{
	return (cpu_features() & CPUID_SSE) != 0;
}

/*
 * The whole x87 part in one asm statement, so that no compiled code runs
 * while the register stack is full: load, then ROUNDS times yield
 * (int $0x80) and add N to st(0), then store all eight and the control
 * word.  0.75 rounded by the task's own mode shows the mode in effect.
 */
static void x87_rounds(int32_t n, uint16_t fcw, int32_t regs[8], uint16_t *fcw_out,
		       int32_t *three_quarters_rounded)
{
	static const float three_quarters = 0.75f;
	int32_t multiples[8], i;
	uint32_t rounds = ROUNDS;

	for (i = 0; i < 8; i++)
		multiples[i] = n * (8 - i);	/* pushed last to first: st(0) = N */
	asm volatile("fninit\n\t"
		     "fldcw %[fcw]\n\t"
		     "fildl 0(%[m]); fildl 4(%[m]); fildl 8(%[m]); fildl 12(%[m])\n\t"
		     "fildl 16(%[m]); fildl 20(%[m]); fildl 24(%[m]); fildl 28(%[m])\n"
		     "1:\n\t"
		     "movl %[yield], %%eax\n\t"
		     "int $0x80\n\t"
		     "fiaddl %[n]\n\t"
		     "decl %[rounds]\n\t"
		     "jnz 1b\n\t"
		     "fistpl 0(%[r]); fistpl 4(%[r]); fistpl 8(%[r]); fistpl 12(%[r])\n\t"
		     "fistpl 16(%[r]); fistpl 20(%[r]); fistpl 24(%[r]); fistpl 28(%[r])\n\t"
		     "fnstcw %[fcw_out]\n\t"
		     "flds %[tq]\n\t"
		     "fistpl %[tq_out]"
		     : [rounds] "+r" (rounds), [fcw_out] "=m" (*fcw_out),
		       [tq_out] "=m" (*three_quarters_rounded)
		     : [fcw] "m" (fcw), [m] "r" (multiples), [r] "r" (regs),
		       [n] "m" (n), [yield] "i" (SYS_yield), [tq] "m" (three_quarters)
		     : "eax", "memory");
}

static int check_x87(int32_t n)
{
	uint16_t fcw = n % 2 ? FCW_CHOP : FCW_NEAREST, fcw_out;
	int32_t regs[8], rounded, i, status = 0;

	x87_rounds(n, fcw, regs, &fcw_out, &rounded);
	if (regs[0] != n * (1 + ROUNDS))
		status |= 1;
	for (i = 1; i < 8; i++)
		if (regs[i] != n * (i + 1))
			status |= 1;
	if (fcw_out != fcw)
		status |= 2;
	if (rounded != (n % 2 ? 0 : 1))
		status |= 4;
	if (status)
		printf("fpu %d: st0..7 = %d %d %d %d %d %d %d %d, fcw %x, 0.75 -> %d\n",
		       (int)n, (int)regs[0], (int)regs[1], (int)regs[2], (int)regs[3],
		       (int)regs[4], (int)regs[5], (int)regs[6], (int)regs[7],
		       fcw_out, (int)rounded);
	return status;
}

/* %xmm0 = N in all four lanes and the task's own MXCSR, kept across
 * yields. */
static int check_sse(int32_t n)
{
	uint32_t mxcsr = n % 2 ? MXCSR_CHOP : MXCSR_NEAREST, mxcsr_out;
	int32_t lanes[4] = { n, n, n, n }, out[4], i, rounds;

	asm volatile("ldmxcsr %0; movups %1, %%xmm0" : : "m" (mxcsr), "m" (lanes));
	for (rounds = 0; rounds < ROUNDS; rounds++)
		yield();
	asm volatile("movups %%xmm0, %0; stmxcsr %1" : "=m" (out), "=m" (mxcsr_out));
	for (i = 0; i < 4; i++) {
		if (out[i] != n || mxcsr_out != mxcsr) {
			printf("fpu %d: xmm0 = %d %d %d %d, mxcsr %x\n", (int)n,
			       (int)out[0], (int)out[1], (int)out[2], (int)out[3],
			       (unsigned int)mxcsr_out);
			return 8;
		}
	}
	return 0;
}

int main(void)
{
	char arg[16];
	int32_t n;
	int status;

	getarg(arg, sizeof(arg));
	n = arg[0] ? atoi(arg) : 3;
	status = check_x87(n);
	if (has_sse())
		status |= check_sse(n);
	printf("fpu %d: %s\n", (int)n, status ? "WRONG" : "ok");
	return status;
}
