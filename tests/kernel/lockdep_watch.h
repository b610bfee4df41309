/*
 * lockdep_watch.h - for tests: watch the lock debugger's reports over a
 * stretch of code (lockdep_watch.c): the debugger on, its report counts
 * noted and the console kept (console_capture.h) at the start; the
 * reports that came since, by kind, afterwards.
 */
#ifndef TESTS_LOCKDEP_WATCH_H
#define TESTS_LOCKDEP_WATCH_H

#include <lockdep.h>

void lockdep_watch_start(void);	/* call holding no lock */
void lockdep_watch_stop(void);	/* the console no longer kept, the debugger as it was */
/* Reports of kind since lockdep_watch_start; of every kind. */
unsigned long lockdep_watch_new(enum lockdep_report kind);
unsigned long lockdep_watch_new_total(void);

#endif
