/*
 * bench.h - the `bench` boot option: instruction counts of the hot
 * paravirt ops and of a small kernel workload (kernel/bench.c), then of
 * paths from ring 3 timed by the user programs user/bench_*.c, read by
 * `make bench` (tools/bench).
 */
#ifndef PV386_BENCH_H
#define PV386_BENCH_H

#include <types.h>

bool bench_requested(void);
void bench_run(void);
void bench_tlb(void);		/* bench_tlb.c: the shootdown's figures, if >1 CPU */
void bench_ops_in_place(void);		/* the shell's bench: ops only, no exit */
bool bench_counts_instructions(void);	/* QEMU -icount: TSC = instructions */

#endif
