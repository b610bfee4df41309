/*
 * runner.c - runs a native test program's table of tests (runner.h).
 *
 * A check that fails marks its test failed with the first failure's
 * detail, so one broken rule gives one FAIL line (plus a few more
 * details), not thousands.  The last line is always "N passed, M failed"
 * and the exit status is non-zero on any failure.
 */
#include <stdarg.h>
#include <stdio.h>
#include "runner.h"

#define MAX_DETAILS	5	/* failures shown per test */

static unsigned int failures;		/* in the running test */
static char details[MAX_DETAILS][1100];	/* the first few, to print */

void check_failed(const char *file, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (failures < MAX_DETAILS)
		snprintf(details[failures], sizeof(details[0]), "%s:%d: %s",
			 file, line, msg);
	failures++;
}

unsigned int check_failures(void)
{
	return failures;
}

/* "FAIL name: first detail", then a few more details indented. */
static void report_failure(const char *name)
{
	unsigned int i, shown = failures < MAX_DETAILS ? failures : MAX_DETAILS;

	printf("FAIL %s: %s", name, details[0]);
	if (failures > 1)
		printf(" (%u failed checks)", failures);
	printf("\n");
	for (i = 1; i < shown; i++)
		printf("    also %s\n", details[i]);
}

int run_native_tests(const struct native_test *tests, unsigned int n,
		   void (*before_each)(void))
{
	unsigned int i, passed = 0, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);	/* lines survive a crash */
	for (i = 0; i < n; i++) {
		failures = 0;
		if (before_each)
			before_each();
		tests[i].fn();
		if (failures) {
			report_failure(tests[i].name);
			failed++;
		} else {
			printf("PASS %s\n", tests[i].name);
			passed++;
		}
	}
	printf("%u passed, %u failed\n", passed, failed);
	return failed != 0;
}
