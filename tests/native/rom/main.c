/*
 * main.c - runs the native tests of the ops ROM validator
 * (arch/x86/paravirt/backends/rom_check.c): one test per kind of bad ROM, good ones,
 * the checksum, and the ROM the build made; and one per clause no other
 * test stands for alone (test_clauses.c).
 */
#include "../runner/runner.h"

#define ROM_TESTS(X)							\
	X(good) X(good_newer_minor) X(minor1_ops_optional) X(real_rom) X(crc32_check_value)	\
	X(magic_found) X(truncated) X(bad_magic) X(bad_major)		\
	X(bad_size) X(size_past_module) X(bad_checksum)			\
	X(missing_entry) X(entry_out_of_bounds) X(bad_fixups)		\
	X(fixup_out_of_bounds) X(huge_entry_count) X(texts)		\
	X(fixups_at_most_the_maximum) X(reads_stay_inside_a_cut_rom)	\
	X(header_fields_one_at_a_time)

#define DECLARE(name)	void test_##name(void);
#define ROW(name)	NATIVE_TEST(name),
ROM_TESTS(DECLARE)
static const struct native_test tests[] = { ROM_TESTS(ROW) };

int main(void)
{
	return run_native_tests(tests, sizeof(tests) / sizeof(tests[0]), 0);
}
