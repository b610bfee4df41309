/*
 * kill_check.h - for tests: run a user program that must be killed for
 * a CPU exception, beside user/survivor, and check everything that says
 * it was killed properly and alone (kill_check.c).
 */
#ifndef TESTS_KILL_CHECK_H
#define TESTS_KILL_CHECK_H

#include <ktest.h>

#define NO_ERROR_CODE	0	/* the kill line shows no ", error" then */

struct kill_expect {
	const char *program;	/* "crash" or "priv" */
	const char *arg;	/* the case: what the program does */
	unsigned int vector;	/* it must end EXIT_KILLED(vector) */
	u16 error;		/* the error code the kill line names */
	/* A page fault's ", address ..." text, '?' matching any character,
	 * e.g. "00100000 (protection, read, user)"; NULL: none. */
	const char *address;
	const char *reason;	/* the ": reason" ending the line, or NULL */
	/* Where the fault happens when it is not at the instruction the
	 * program printed (it jumped there): its eip; no code bytes can be
	 * read there.  NULL: the program's. */
	const char *eip;
};

/* Starting kill_expect.address: the program's printed argument
 * (user/crash.c prints it), then the rest of the text. */
#define ADDRESS_ARG	"@"

/*
 * Run the case and check: the exit status, the kill line (exactly, with
 * the eip and code bytes the program printed before the fault), that
 * the exception went through the vector's handler, that the survivor
 * beside it exited 0, that no page was lost and that the kernel printed
 * no trap of its own.  Each mismatch is a failure of the test kt_ctx.
 */
void check_kill(struct ktest_ctx *kt_ctx, const struct kill_expect *e);

/* The same checks of survival for a case that must end otherwise: with
 * exit status `status` and, if message is not NULL, the kill line
 * "task N (program) killed: message" (a kill without an exception);
 * else no kill line. */
void check_end(struct ktest_ctx *kt_ctx, const char *program, const char *arg,
	       int status, const char *message);

#endif
