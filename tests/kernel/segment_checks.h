/*
 * segment_checks.h - does this CPU enforce segment limits and refuse
 * memory accesses through a null selector?  Real x86 CPUs and Bochs do;
 * QEMU's TCG does not.  Tests of user programs that rely on those
 * faults ask here first (segment_checks.c probes it in ring 0).  And
 * what a descriptor is, as the CPU reads it (lar).
 */
#ifndef TESTS_SEGMENT_CHECKS_H
#define TESTS_SEGMENT_CHECKS_H

#include <types.h>

bool cpu_checks_segment_limits(void);	/* an access past the limit faults */
bool cpu_checks_null_selector(void);	/* an access through %fs = 0 faults */

/* Access-rights bytes of the descriptor behind sel, or 0 if the CPU says
 * the selector is not valid for lar (not privileged: ring 1 and 3 ask). */
u32 lar(u32 sel);
#define LAR_ACCESS(r)	(((r) >> 8) & 0xff)

#endif
