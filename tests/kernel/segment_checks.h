/*
 * segment_checks.h - does this CPU enforce segment limits and refuse
 * memory accesses through a null selector?  Real x86 CPUs and Bochs do;
 * QEMU's TCG does not.  Tests of user programs that rely on those
 * faults ask here first (segment_checks.c probes it in ring 0).
 */
#ifndef TESTS_SEGMENT_CHECKS_H
#define TESTS_SEGMENT_CHECKS_H

#include <types.h>

bool cpu_checks_segment_limits(void);	/* an access past the limit faults */
bool cpu_checks_null_selector(void);	/* an access through %fs = 0 faults */

#endif
