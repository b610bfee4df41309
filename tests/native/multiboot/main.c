/*
 * main.c - runs the native tests of the Multiboot info parser and counts
 * them.
 *
 * Each test is a function; ../runner/runner.c runs them and reports.
 */
#include "check.h"

static const struct native_test tests[] = {
	NATIVE_TEST(good_qemu), NATIVE_TEST(flags_checked), NATIVE_TEST(meminfo_only),
	NATIVE_TEST(meminfo_clamped), NATIVE_TEST(map_entry_size),
	NATIVE_TEST(map_unsorted_overlapping), NATIVE_TEST(map_above_4g),
	NATIVE_TEST(map_broken), NATIVE_TEST(map_pointer_bad), NATIVE_TEST(map_without_ram),
	NATIVE_TEST(map_too_many_regions),
	NATIVE_TEST(cmdline), NATIVE_TEST(loader_name), NATIVE_TEST(info_placement),
	NATIVE_TEST(modules_good), NATIVE_TEST(modules_bad_bounds),
	NATIVE_TEST(modules_overlapping), NATIVE_TEST(modules_too_many),
	NATIVE_TEST(module_strings),
	NATIVE_TEST(notes_overflow), NATIVE_TEST(note_formats),
	NATIVE_TEST(map_entry_size_field_counts), NATIVE_TEST(map_empty_entry_ignored),
	NATIVE_TEST(map_cut_at_first_reserves_nothing), NATIVE_TEST(meminfo_without_low_memory),
	NATIVE_TEST(modules_count_0_reads_no_list), NATIVE_TEST(modules_bad_one_drops_no_good_one),
};

/* Each test starts from an empty fake memory. */
int main(void)
{
	return run_native_tests(tests, sizeof(tests) / sizeof(tests[0]), fake_reset);
}
