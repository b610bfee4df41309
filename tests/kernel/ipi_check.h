/*
 * ipi_check.h - for tests: whether every other CPU online still takes
 * interrupts, asked with a reschedule IPI (ipi_check.c).
 */
#ifndef TESTS_IPI_CHECK_H
#define TESTS_IPI_CHECK_H

#include <types.h>

/* Sends a reschedule IPI to every other CPU and waits, asleep, up to
 * ticks for each CPU online to count one more received: true if all
 * did.  A handler that lost its EOI blocks its own vector and the
 * timer's (same priority class); a CPU wedged or gone answers none. */
bool other_cpus_answer_an_ipi(unsigned long ticks);

#endif
