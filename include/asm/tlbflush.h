/*
 * asm/tlbflush.h - TLB shootdown: making other CPUs forget a mapping.
 *
 * A CPU caches page-table entries in its TLB and does not look at the
 * tables again while an entry is there.  When the kernel clears an
 * entry of an address space that another CPU has loaded (a thread of
 * the same program runs there), that CPU must flush before the page
 * behind the entry is given to anyone else, or it could go on reading
 * and writing a frame that is no longer its program's.  The kernel
 * changes the entries, flushes its own TLB, then asks every other CPU in
 * the space's cpu_mask (struct mm, task.h) to flush and waits until each
 * has: only then are the pages freed.
 *
 * The asking is the paravirt op flush_tlb_others(cpumask, va) - Linux
 * 2.6.2x's flush_tlb_others(cpumask, mm, va), as Xen and VMI replaced
 * it - natively an IPI to each CPU and a wait for their answers
 * (arch/x86/mm/tlb.c).  Its rule: the caller has interrupts ON.  Two
 * CPUs that each shot the other with interrupts off would each wait for
 * an answer the other can never give; with them on, a CPU waiting for
 * its answers (or for the lock that lets one shootdown be in flight at a
 * time) still answers others.  It panics if called with them off.
 *
 * The 386 has no invlpg, and the table no op for it: a CPU asked to
 * flush one page reloads %cr3 (flush_tlb, the write_cr3 op), which
 * drops every entry of user space.  va still says which page, for a
 * backend that can do better (a hypervisor's one-page flush).
 */
#ifndef ASM_TLBFLUSH_H
#define ASM_TLBFLUSH_H

#include <types.h>
#include <asm/cpumask.h>	/* cpumask_set_atomic: a locked op, so a full barrier too */

#define TLB_FLUSH_ALL	0xffffffffu	/* va: the whole address space */

/*
 * After clearing entries of a space whose CPUs are *cpu_mask: every
 * other CPU in it has flushed va (or everything) when this returns.
 * This CPU's own TLB is the caller's (it flushed already, or will).
 * Interrupts on (the rule above).  Does nothing if no other CPU has the
 * space loaded: with one CPU the op is never called.
 */
void tlb_flush_space_others(volatile cpumask_t *cpu_mask, u32 va);

/* The native op (paravirt.h): IPIs and the wait for every answer. */
void smp_flush_tlb_others(cpumask_t cpumask, u32 va);

/* The IPI's handler, on IPI_TLB_FLUSH_VECTOR (ipi.c sets it). */
struct pt_regs;
void tlb_flush_interrupt(struct pt_regs *regs);
/* A CPU stopped with interrupts off (stop_cpus.c) answers here, in the
 * code writer's fence, the request that asks it, if one does. */
void tlb_answer_while_stopped(unsigned int cpu);

/* Counts for the tests and the bench: shootdowns this kernel asked for
 * (each one op call, to one or more CPUs), and flushes CPU cpu did on
 * another's request. */
unsigned long tlb_shootdowns(void);
unsigned long tlb_flushes_received(unsigned int cpu);
unsigned long tlb_flushes_received_stopped(void);	/* all CPUs: while stopped */

#endif
