/*
 * main.c - runs the host tests of the CPU-table parser and counts them.
 *
 * Each test is a function; ../runner/runner.c runs them and reports.
 */
#include "check.h"

static const struct host_test tests[] = {
	HOST_TEST(qemu_madt), HOST_TEST(qemu_mp_fallback), HOST_TEST(qemu_madt_spoiled),
	HOST_TEST(no_tables), HOST_TEST(rsdp_in_ebda), HOST_TEST(bad_ebda_segment),
	HOST_TEST(acpi_bad_checksums), HOST_TEST(acpi_lengths_lie),
	HOST_TEST(madt_entry_lengths_lie), HOST_TEST(rsdt_points_nowhere),
	HOST_TEST(too_many_cpus), HOST_TEST(disabled_cpus), HOST_TEST(bad_apic_ids),
	HOST_TEST(bad_lapic_address), HOST_TEST(lapic_override),
	HOST_TEST(lapic_override_too_short),
	HOST_TEST(mp_good), HOST_TEST(mp_bad_checksums), HOST_TEST(mp_lengths_lie),
	HOST_TEST(mp_default_config), HOST_TEST(mp_unknown_entry),
	HOST_TEST(mark_boot), HOST_TEST(notes_overflow), HOST_TEST(note_formats),
};

/* Each test starts from an empty fake memory. */
int main(void)
{
	return run_host_tests(tests, sizeof(tests) / sizeof(tests[0]), fake_reset);
}
