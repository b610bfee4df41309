/*
 * cpuid.c - the CPU's feature flags for user programs that adapt to the
 * CPU (fpu: SSE; crash: SSE, SEP), also on a CPU without CPUID.
 *
 * A 386 and early 486s have no cpuid instruction: executing it raises
 * #UD and the kernel kills the program.  The CPU has it exactly when
 * EFLAGS.ID (bit 21) can be changed, which popf allows in ring 3.
 */
#include "pv386.h"

#define EFLAGS_ID	(1u << 21)

static int have_cpuid(void)
{
	uint32_t before, after;

	asm volatile("pushfl\n\t"
		     "popl %0\n\t"
		     "movl %0, %1\n\t"
		     "xorl %2, %1\n\t"		/* flip ID */
		     "pushl %1\n\t"
		     "popfl\n\t"
		     "pushfl\n\t"
		     "popl %1\n\t"
		     "pushl %0\n\t"		/* put EFLAGS back */
		     "popfl"
		     : "=&r" (before), "=&r" (after) : "i" (EFLAGS_ID) : "cc");
	return ((before ^ after) & EFLAGS_ID) != 0;
}

uint32_t cpuid_features(void)
{
	uint32_t a = 1, b, c, d;

	if (!have_cpuid())
		return 0;
	asm volatile("cpuid" : "+a" (a), "=b" (b), "=c" (c), "=d" (d));
	return d;
}
