/*
 * test_panic.c - a kernel panic on purpose, for tests/run to read.
 *
 * A fault nobody handles ends in a report (traps.c, dumpstack.c,
 * panic.c) that is the only clue a real crash leaves: the fault's kind,
 * the instruction, the address it touched, the registers.  Nothing in
 * the kernel can check that report and survive it, so this test makes
 * the crash and tests/run (panic-report-*) checks the serial log from
 * outside against known values: the address 0x00000bad loaded from, and
 * the address of ktest_panic_fault_insn, taken from the ELF's symbols.
 * The panic also shows that the test runner's panic hook leaves the
 * emulator with the failure status.
 */
#include <ktest.h>

#define PANIC_TEST_ADDRESS	"0xbad"	/* in page 0, never mapped */

KTEST_ALONE(panic_report_page_fault)
{
	asm volatile(".globl ktest_panic_fault_insn\n"
		     "ktest_panic_fault_insn:\n\t"
		     "movl " PANIC_TEST_ADDRESS ", %%eax"
		     : : : "eax", "memory");
	KT_EXPECT(!"the load from " PANIC_TEST_ADDRESS " did not fault");
}
