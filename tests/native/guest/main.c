/*
 * main.c - runs the native tests of the host's hypercall-argument checks
 * (arch/x86/host/check.c): GDT and LDT entries, IDT gates, the ring-1
 * stack, the debug registers and the MSRs, each kind of bad one and the good ones pv386's own boot
 * hands over; and the ELF checks of the guest kernel loader and exec.c
 * (include/elf.h, test_elf.c).
 */
#include "../runner/runner.h"

#define GUEST_CHECK_TESTS(X)						\
	X(gdt_kernel_segments_become_ring_1) X(gdt_user_segments_kept)	\
	X(gdt_absent_segment_kept_absent)				\
	X(gdt_absent_system_entry_is_empty) X(gdt_refuses_host_slots)	\
	X(gdt_refuses_system_descriptors)				\
	X(gate_into_kernel_becomes_ring_1) X(gate_dpl_3_kept)		\
	X(gate_absent_kept_absent) X(gate_refuses_other_types)		\
	X(gate_refuses_other_selectors) X(gate_refuses_targets_outside)	\
	X(gate_refuses_bad_vector) X(stack_inside_accepted)		\
	X(stack_refuses_other_selectors) X(stack_refuses_outside)	\
	X(ldt_entries_as_segments) X(verdict_texts)			\
	X(debugregs_watchpoints_accepted) X(debugregs_refuse_the_switcher) \
	X(debugregs_refuse_controls) X(msr_reads_only_descriptions)	\
	X(msr_writes_only_the_microcode_latch)				\
	X(segments_load_as_the_cpu_loads_them)				\
	X(elf_header_refusals) X(elf_header_edges_accepted)		\
	X(elf_segment_refusals) X(elf_segment_edges_accepted)

#define DECLARE(name)	void test_##name(void);
#define ROW(name)	NATIVE_TEST(name),
GUEST_CHECK_TESTS(DECLARE)
static const struct native_test tests[] = { GUEST_CHECK_TESTS(ROW) };

int main(void)
{
	return run_native_tests(tests, sizeof(tests) / sizeof(tests[0]), 0);
}
