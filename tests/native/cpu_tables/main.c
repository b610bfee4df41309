/*
 * main.c - runs the native tests of the CPU-table parser and counts them.
 *
 * Each test is a function; ../runner/runner.c runs them and reports.
 */
#include "check.h"

static const struct native_test tests[] = {
	NATIVE_TEST(qemu_madt), NATIVE_TEST(qemu_mp_fallback), NATIVE_TEST(qemu_madt_spoiled),
	NATIVE_TEST(no_tables), NATIVE_TEST(rsdp_in_ebda), NATIVE_TEST(bad_ebda_segment),
	NATIVE_TEST(acpi_bad_checksums), NATIVE_TEST(acpi_lengths_lie),
	NATIVE_TEST(madt_entry_lengths_lie), NATIVE_TEST(rsdt_points_nowhere),
	NATIVE_TEST(too_many_cpus), NATIVE_TEST(disabled_cpus), NATIVE_TEST(bad_apic_ids),
	NATIVE_TEST(bad_lapic_address), NATIVE_TEST(lapic_override),
	NATIVE_TEST(lapic_override_too_short),
	NATIVE_TEST(mp_good), NATIVE_TEST(mp_bad_checksums), NATIVE_TEST(mp_lengths_lie),
	NATIVE_TEST(mp_default_config), NATIVE_TEST(mp_unknown_entry),
	NATIVE_TEST(mark_boot), NATIVE_TEST(notes_overflow), NATIVE_TEST(note_formats),
};

/* Each test starts from an empty fake memory. */
int main(void)
{
	return run_native_tests(tests, sizeof(tests) / sizeof(tests[0]), fake_reset);
}
