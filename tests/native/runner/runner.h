/*
 * runner.h - what every native test program shares: CHECK, which
 * records a failure in the running test, and the loop that runs a table
 * of tests, prints PASS or FAIL for each and ends with the line
 * "N passed, M failed" that tests/run and make look at.
 */
#ifndef NATIVE_RUNNER_H
#define NATIVE_RUNNER_H

struct native_test {
	const char *name;
	void (*fn)(void);
};

#define NATIVE_TEST(name)	{ #name, test_##name }

/* A failed check: remembered for the running test, which then FAILs. */
void check_failed(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Failed checks so far in the running test: loops stop early on them. */
unsigned int check_failures(void);

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			check_failed(__FILE__, __LINE__, __VA_ARGS__);	\
	} while (0)

/* Run each test, before_each (if any) first; the exit status to give. */
int run_native_tests(const struct native_test *tests, unsigned int n,
		   void (*before_each)(void));

#endif
