/*
 * main.c - runs the native tests of the patch engine and counts them.
 *
 * Each test is a function; runner/runner.c runs them and reports.
 *
 * Usage: test_patch [--seed N]    (or PATCH_FUZZ_SEED=N): the fuzzer's seed.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

unsigned long long fuzz_seed;

bool check_bytes_at(const char *file, int line, const u8 *got, const u8 *want,
		    unsigned int n, const char *what)
{
	if (memcmp(got, want, n) == 0)
		return true;
	check_failed(file, line, "%s: got [%s] want [%s]", what,
		     hex(got, n), hex(want, n));
	return false;
}

static const struct native_test tests[] = {
	NATIVE_TEST(original_bytes), NATIVE_TEST(original_mismatch), NATIVE_TEST(template_bytes),
	NATIVE_TEST(inline_sites), NATIVE_TEST(kernel_op_list), NATIVE_TEST(nop_tables), NATIVE_TEST(nop_padding),
	NATIVE_TEST(refuse_bytes), NATIVE_TEST(refuse_fit), NATIVE_TEST(refuse_writes),
	NATIVE_TEST(direct), NATIVE_TEST(nops_kind), NATIVE_TEST(empty_kind),
	NATIVE_TEST(poison), NATIVE_TEST(idempotent), NATIVE_TEST(padding_runs),
	NATIVE_TEST(guard_pages),
	NATIVE_TEST(fuzz),
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

int main(int argc, char **argv)
{
	choose_seed(argc, argv);
	return run_native_tests(tests, sizeof(tests) / sizeof(tests[0]), NULL);
}
