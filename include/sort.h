/*
 * sort.h - sorting the kernel's few small arrays (kernel/sort.c): a
 * memory map's boundaries (ram_map.c), a benchmark's samples and a
 * calibration's measurements, whose median is the figure kept.
 */
#ifndef PV386_SORT_H
#define PV386_SORT_H

#include <types.h>

void sort_u64(u64 *v, unsigned int n);
u64 median_u64(u64 *v, unsigned int n);

#endif
