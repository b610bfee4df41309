/*
 * run_program.h - for in-kernel tests: run a user program to its end.
 */
#ifndef PV386_TESTS_RUN_PROGRAM_H
#define PV386_TESTS_RUN_PROGRAM_H

/* Spawn name with arg as a child of the test thread and wait for it:
 * its exit status (EXIT_KILLED(v) if the kernel killed it), or the
 * negative error of a spawn that failed. */
int run_program(const char *name, const char *arg);

#endif
