/*
 * asm/atomic.h - the atomic instructions and the barriers, each spelled
 * once: everything else that needs one calls these.
 *
 * On x86 a `lock` prefix makes a read-modify-write of memory atomic
 * between CPUs, and a locked instruction is also a full barrier: no load
 * or store moves across it (Intel SDM vol. 3A, "Memory Ordering in P6
 * and More Recent Processor Families" and "Locked Atomic Operations",
 * in the chapter on multiple-processor management).  Plain loads and
 * stores are already ordered
 * but for one case, a load passing an earlier store to another address,
 * which smp_mb() forbids.
 *
 * CPU generations: xchg and the locked or, and and add work on every
 * x86 from the 386 on; cmpxchg and xadd came with the 486, so cmpxchg()
 * is for code that runs only where another CPU may exist (an AP's start,
 * which needs a local APIC).  The spinlock's own steps are paravirt ops
 * chosen at boot, not these (asm/spinlock.h).  GCC's __atomic builtins
 * would call a library for what the 386 lacks, hence the asm.
 */
#ifndef ASM_ATOMIC_H
#define ASM_ATOMIC_H

#include <types.h>

/* Keep the compiler from moving memory accesses across this point (the
 * CPU's own ordering is left as it is). */
#define barrier()	asm volatile("" : : : "memory")

/* The spin-wait hint: `pause` (f3 90), which older CPUs execute as `rep
 * nop`, a NOP.  It spares the sibling hyperthread and the memory pipeline
 * the misordered loads of a tight loop, and under QEMU's -icount it ends
 * the CPU's turn (docs/cost.md). */
static inline void cpu_relax(void)
{
	asm volatile("pause" : : : "memory");
}

/* A full barrier: a locked `or` of 0 into the stack, which every x86
 * has (mfence came with SSE2) and which changes nothing. */
static inline void smp_mb(void)
{
	asm volatile("lock orl $0, (%%esp)" : : : "memory", "cc");
}

/* *p becomes v; what it was.  xchg with memory is locked without the
 * prefix. */
static inline u32 xchg(volatile u32 *p, u32 v)
{
	asm volatile("xchgl %0, %1" : "+r" (v), "+m" (*p) : : "memory");
	return v;
}

/* *p becomes new if it is old; what it was (old: it did).  486 and
 * later: see the top of the file. */
static inline u32 cmpxchg(volatile u32 *p, u32 old, u32 new)
{
	u32 seen;

	asm volatile("lock cmpxchgl %2, %1"
		     : "=a" (seen), "+m" (*p) : "r" (new), "0" (old) : "memory", "cc");
	return seen;
}

/* *p |= bits, *p &= bits, *p += n, each one locked instruction. */
static inline void atomic_or(volatile u32 *p, u32 bits)
{
	asm volatile("lock orl %1, %0" : "+m" (*p) : "ir" (bits) : "memory", "cc");
}

static inline void atomic_and(volatile u32 *p, u32 bits)
{
	asm volatile("lock andl %1, %0" : "+m" (*p) : "ir" (bits) : "memory", "cc");
}

static inline void atomic_add(volatile u32 *p, u32 n)
{
	asm volatile("lock addl %1, %0" : "+m" (*p) : "ir" (n) : "memory", "cc");
}

#endif
