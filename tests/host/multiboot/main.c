/*
 * main.c - runs the host tests of the Multiboot info parser and counts
 * them.
 *
 * Each test is a function; a CHECK that fails inside it marks it failed
 * and the first few failures are printed under its FAIL line.  The last
 * line is always "N passed, M failed" and the exit status is non-zero on
 * any failure, which is what tests/run and make look at.
 */
#include <stdarg.h>
#include <string.h>
#include "check.h"

#define MAX_DETAILS	5	/* failures shown per test */

static unsigned int failures;	/* in the running test */
static char details[MAX_DETAILS][1100];

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

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
#define T(name) { #name, test_##name }
	T(good_qemu), T(flags_checked), T(meminfo_only), T(meminfo_clamped),
	T(map_entry_size), T(map_unsorted_overlapping), T(map_above_4g),
	T(map_broken), T(map_pointer_bad), T(map_without_ram),
	T(map_too_many_regions),
	T(cmdline), T(loader_name), T(info_placement),
	T(modules_good), T(modules_bad_bounds), T(modules_overlapping),
	T(modules_too_many), T(module_strings),
	T(notes_overflow), T(note_formats),
#undef T
};

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

int main(void)
{
	unsigned int i, passed = 0, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);	/* lines survive a crash */
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		failures = 0;
		fake_reset();
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
