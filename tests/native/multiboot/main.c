/*
 * main.c - runs the host tests of the Multiboot info parser and counts
 * them.
 *
 * Each test is a function; ../runner/runner.c runs them and reports.
 */
#include "check.h"

static const struct host_test tests[] = {
	HOST_TEST(good_qemu), HOST_TEST(flags_checked), HOST_TEST(meminfo_only),
	HOST_TEST(meminfo_clamped), HOST_TEST(map_entry_size),
	HOST_TEST(map_unsorted_overlapping), HOST_TEST(map_above_4g),
	HOST_TEST(map_broken), HOST_TEST(map_pointer_bad), HOST_TEST(map_without_ram),
	HOST_TEST(map_too_many_regions),
	HOST_TEST(cmdline), HOST_TEST(loader_name), HOST_TEST(info_placement),
	HOST_TEST(modules_good), HOST_TEST(modules_bad_bounds),
	HOST_TEST(modules_overlapping), HOST_TEST(modules_too_many),
	HOST_TEST(module_strings),
	HOST_TEST(notes_overflow), HOST_TEST(note_formats),
	HOST_TEST(map_entry_size_field_counts), HOST_TEST(map_empty_entry_ignored),
	HOST_TEST(map_cut_at_first_reserves_nothing), HOST_TEST(meminfo_without_low_memory),
	HOST_TEST(modules_count_0_reads_no_list), HOST_TEST(modules_bad_one_drops_no_good_one),
};

/* Each test starts from an empty fake memory. */
int main(void)
{
	return run_host_tests(tests, sizeof(tests) / sizeof(tests[0]), fake_reset);
}
