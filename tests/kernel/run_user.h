/*
 * run_user.h - for tests: run user programs (the files in user/) from
 * the boot thread, several at once, and collect how they ended
 * (run_user.c).  One program alone: run_program.h.
 */
#ifndef TESTS_RUN_USER_H
#define TESTS_RUN_USER_H

/* No exit status: the program could not be started or collected (the
 * reason is printed).  No exit or kill status comes near it. */
#define RUN_FAILED	(-99999)

/* Spawn name with arg; its pid, or RUN_FAILED. */
int start_program(const char *name, const char *arg);
/* Wait for the program start_program gave pid: its status or RUN_FAILED. */
int finish_program(int pid);

/* The same, but a program still running after ticks timer ticks is
 * killed (kill's EXIT_KILLED_BY_REQUEST is then its status): for a
 * program that must end soon, and might not on a broken kernel. */
int finish_program_within(int pid, unsigned long ticks);

/*
 * Run name with arg while user/survivor runs beside it: the status of
 * name, and in *survivor the survivor's (0: nothing of it was touched).
 * *pid is the pid name ran as.
 */
int run_beside_survivor(const char *name, const char *arg, int *pid, int *survivor);

#endif
