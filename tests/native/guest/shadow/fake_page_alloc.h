/*
 * fake_page_alloc.h - the kernel's page allocator (page_alloc.h), as the
 * native shadow tests give it to page_tables.c, shadow_cache.c and
 * memory.c: frames of the test program's own, an allocation that fails
 * when told to (the n-th call, or the n-th and every later one), and a
 * record of every frame, so that a frame freed twice, freed but never
 * handed out (frame 0), kept at the end or used after its free is seen.
 */
#ifndef FAKE_PAGE_ALLOC_H
#define FAKE_PAGE_ALLOC_H

#include <stdbool.h>

/* Every frame back, the record and the call count cleared; fail the
 * fail_at-th call (1: the first; 0: none), and every later one too if
 * from_then_on. */
void fake_reset(unsigned long fail_at, bool from_then_on);
/* A fault in the program is reported with its address, and named a use
 * of a freed frame when it is one (AddressSanitizer does so itself). */
void fake_report_faults(void);
/* From now on, fail the n-th call (and every later one if from_then_on). */
void fake_fail_in(unsigned long n, bool from_then_on);
unsigned long fake_calls(void);		/* allocations asked for since */
unsigned long fake_refusals(void);	/* of which refused */
unsigned long fake_live_frames(void);	/* single frames held now */
unsigned long fake_live_runs(void);	/* runs of more than one held now */
/* Every frame still held is a leak (CHECKed, with what), then freed. */
void fake_check_nothing_held(const char *when);

#endif
