/*
 * main.c - runs the host-side tests of the patch engine and counts them.
 *
 * Each test is a function; a CHECK that fails inside it marks it failed
 * with the first failure's detail, so one broken rule gives one FAIL line
 * (plus a few more details), not thousands.  The last line is always
 * "N passed, M failed" and the exit status is non-zero on any failure,
 * which is what tests/run and make look at.
 *
 * Usage: test_patch [--seed N]    (or PATCH_FUZZ_SEED=N): the fuzzer's seed.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

#define MAX_DETAILS	4	/* failures shown per test beyond the first */

unsigned long long fuzz_seed;

static unsigned int failures;		/* in the running test */
static char details[1 + MAX_DETAILS][1100];	/* the first few, to print */

void check_failed(const char *file, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (failures <= MAX_DETAILS)
		snprintf(details[failures], sizeof(details[0]), "%s:%d: %s",
			 file, line, msg);
	failures++;
}

unsigned int check_failures(void)
{
	return failures;
}

bool check_bytes_at(const char *file, int line, const u8 *got, const u8 *want,
		    unsigned int n, const char *what)
{
	if (memcmp(got, want, n) == 0)
		return true;
	check_failed(file, line, "%s: got [%s] want [%s]", what,
		     hex(got, n), hex(want, n));
	return false;
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
#define T(name) { #name, test_##name }
	T(original_bytes), T(template_bytes), T(inline_sites), T(kernel_op_list),
	T(nop_tables), T(nop_padding),
	T(refuse_bytes), T(refuse_fit), T(refuse_writes),
	T(direct), T(nops_kind), T(null_kind), T(poison), T(idempotent),
	T(guard_pages),
	T(fuzz),
#undef T
};

/* A given seed reproduces a fuzz run; otherwise each run explores anew. */
static void choose_seed(int argc, char **argv)
{
	const char *s = getenv("PATCH_FUZZ_SEED");

	if (argc == 3 && strcmp(argv[1], "--seed") == 0)
		s = argv[2];
	else if (argc != 1) {
		fprintf(stderr, "usage: %s [--seed N]\n", argv[0]);
		exit(2);
	}
	if (s)
		fuzz_seed = strtoull(s, NULL, 0);
	else
		fuzz_seed = (unsigned long long)time(NULL) * 2654435761u ^ getpid();
}

/* "FAIL name: first detail", then a few more details indented. */
static void report_failure(const char *name)
{
	unsigned int i, shown = failures < 1 + MAX_DETAILS ? failures : 1 + MAX_DETAILS;

	printf("FAIL %s: %s", name, details[0]);
	if (failures > 1)
		printf(" (%u failed checks)", failures);
	printf("\n");
	for (i = 1; i < shown; i++)
		printf("    also %s\n", details[i]);
}

int main(int argc, char **argv)
{
	unsigned int i, passed = 0, failed = 0;

	choose_seed(argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);	/* lines survive a crash */
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		failures = 0;
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
