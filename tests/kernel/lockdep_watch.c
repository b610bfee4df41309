/*
 * lockdep_watch.c - for tests: the lock debugger's reports over a
 * stretch of code (lockdep_watch.h), shared by the debugger's own tests
 * (test_lockdep.c) and the lock tests that probe its findings
 * (test_locks.c).
 */
#include "lockdep_watch.h"
#include "console_capture.h"

static unsigned long counts_before[LOCKDEP_NR_REPORTS];
static bool was_enabled;

void lockdep_watch_start(void)
{
	unsigned int k;

	was_enabled = lockdep_set(true);
	for (k = 0; k < LOCKDEP_NR_REPORTS; k++)
		counts_before[k] = lockdep_reports(k);
	capture_start();
}

void lockdep_watch_stop(void)
{
	capture_stop();
	lockdep_set(was_enabled);
}

unsigned long lockdep_watch_new(enum lockdep_report kind)
{
	return lockdep_reports(kind) - counts_before[kind];
}

unsigned long lockdep_watch_new_total(void)
{
	unsigned long n = 0;
	unsigned int k;

	for (k = 0; k < LOCKDEP_NR_REPORTS; k++)
		n += lockdep_watch_new(k);
	return n;
}
