/*
 * bench.h - the `bench` boot option: instruction counts of the hot
 * paravirt ops and of a small kernel workload (kernel/bench.c), read by
 * `make bench` (tools/bench).
 */
#ifndef PV386_BENCH_H
#define PV386_BENCH_H

#include <types.h>

bool bench_requested(void);
void bench_run(void);

/* arch/x86/bench_entry.S: n trips through INTERRUPT_RETURN to the next
 * instruction, and the same loop without them, for the difference. */
void bench_iret_loop(u32 n, u32 eflags);
void bench_empty_asm_loop(u32 n);

#endif
