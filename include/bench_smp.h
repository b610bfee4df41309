/*
 * bench_smp.h - the `benchsmp` boot option (with `bench`): figures of
 * more than one CPU for `make bench` (kernel/bench_smp.c, read by
 * tools/bench's smp_figures).
 */
#ifndef PV386_BENCH_SMP_H
#define PV386_BENCH_SMP_H

#include <types.h>

bool bench_smp_requested(void);
void bench_smp_run(void) __noreturn;	/* prints "bench: smp" lines, exits QEMU */

#endif
