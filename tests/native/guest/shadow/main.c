/*
 * main.c - runs the native tests of the frames a guest takes from its host
 * (guest memory and shadow page tables: test_shadow_frames.c), on a page
 * allocator that refuses when told to (fake_page_alloc.c), the kernel
 * half's shared shadow tables and the spare frames (test_shadow_share.c),
 * and the trap frames it writes through the guest's tables
 * (test_guest_write.c).
 */
#include "../../runner/runner.h"
#include "fake_page_alloc.h"

#define SHADOW_FRAME_TESTS(X)						\
	X(guest_memory_refused_is_empty)				\
	X(shadow_init_refused_holds_nothing)				\
	X(each_refusal_alone_leaves_nothing_behind)			\
	X(refusals_from_each_on_leave_nothing_behind)			\
	X(quota_follows_guest_memory)					\
	X(quota_stops_a_guest_mapping_every_slot)			\
	X(new_directory_at_the_quota_names_it)				\
	X(kernel_table_shared_by_every_shadow)				\
	X(shared_tables_keep_each_directory_entry_rights)		\
	X(shared_table_follows_its_guest_table)				\
	X(own_table_entry_made_again)					\
	X(shared_table_goes_with_its_last_link)				\
	X(spares_come_back_zeroed)					\
	X(frame_across_two_pages_sets_accessed_and_dirty)		\
	X(frame_refused_on_either_page_writes_nothing)			\
	X(frame_needs_both_entries_writable)				\
	X(frame_refused_outside_and_wrapped)				\
	X(frame_before_the_first_cr3_is_physical)

#define DECLARE(name)	void test_##name(void);
#define ROW(name)	NATIVE_TEST(name),
SHADOW_FRAME_TESTS(DECLARE)
static const struct native_test tests[] = { SHADOW_FRAME_TESTS(ROW) };

int main(void)
{
	fake_report_faults();
	return run_native_tests(tests, sizeof(tests) / sizeof(tests[0]), 0);
}
