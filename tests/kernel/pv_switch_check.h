/*
 * pv_switch_check.h - for tests of the trace backend and live switching
 * (pv_switch_check.c): what the patch sites hold, summed up, and a test
 * site whose calls can be counted.
 */
#ifndef TESTS_PV_SWITCH_CHECK_H
#define TESTS_PV_SWITCH_CHECK_H

#include <types.h>
#include <asm/patch.h>

/* A hash of the bytes of every patch site: equal hashes, same bytes. */
u32 sites_hash(void);
/* Unfenced sites whose state (paravirt_site_state) is not `state`. */
unsigned int sites_not_in_state(const char *state);
/* Call read_cr2 n times from one site, the only site of its function. */
void call_test_site(unsigned int n);
/* That site's record, or NULL if the build has none. */
const struct paravirt_patch_site *test_site(void);
/* Switch to name; false (and the reason printed) if it failed. */
bool switch_to(const char *name);

#endif
