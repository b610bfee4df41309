/*
 * math64.h - 64-bit division without libgcc.
 *
 * The kernel is built with -mregparm=3, and libgcc's __udivdi3 expects
 * its arguments on the stack: the two cannot be mixed.  Like Linux's
 * do_div, divide in two 32-bit steps with the 386's divl instruction,
 * which divides EDX:EAX by a 32-bit value.
 */
#ifndef PV386_MATH64_H
#define PV386_MATH64_H

#include <types.h>

/* *n /= base; returns the remainder. */
static inline u32 div64_u32_rem(u64 *n, u32 base)
{
	u32 hi = (u32)(*n >> 32), lo = (u32)*n;
	u32 q_hi = hi / base, rem = hi % base, q_lo;

	/* rem < base, so the quotient of rem:lo / base fits in 32 bits. */
	asm("divl %4" : "=a" (q_lo), "=d" (rem) : "a" (lo), "d" (rem), "rm" (base));
	*n = ((u64)q_hi << 32) | q_lo;
	return rem;
}

#endif
