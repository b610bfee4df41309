/*
 * test_ring_counters.c - rdpmc and rdtsc above ring 0: the CPU lets
 * them run or raises #GP as CR4 says (PCE, TSD), and in a guest as the
 * guest's own CR4 says, never as the host's (arch/x86/host/cpu_state.c
 * turns the host's PCE off while a guest runs: a guest that read the
 * counters would read the host's).
 *
 * Each runs natively and in a guest: at the kernel's own ring (only in
 * a guest is that above 0: ring 1), by raw bytes run as code, and at
 * ring 3, by user/priv.c.  This kernel's CR4 never has TSD, so rdtsc
 * runs everywhere the CPU has it; it has PCE only natively, where
 * rdpmc works (arch/x86/kernel/pmc.c), and a guest's rdpmc_safe never
 * executes rdpmc (backends/guest.c), so its CR4 has none.  A CPU before
 * the P6 may lack rdpmc and raise #UD at any ring; QEMU lacks it too,
 * but checks CR4.PCE first.
 */
#include <ktest.h>
#include <asm/cpu.h>
#include <asm/extable.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/traps.h>
#include <task.h>
#include "kill_check.h"
#include "run_program.h"

#define SURVIVED	100	/* user/priv.c: the instruction ran */

/*
 * The instructions as data run as code (no kernel function may hold
 * rdpmc: tools/audit-privileged), each with an exception-table entry
 * that goes on at its ret if it faults.
 */
asm(".pushsection .rodata\n"
    "raw_rdpmc:\n\t"
    ".byte 0x0f, 0x33\n"	/* rdpmc (counter ecx) */
    "raw_rdpmc_done:\n\t"
    "ret\n"
    "raw_rdtsc:\n\t"
    ".byte 0x0f, 0x31\n"	/* rdtsc */
    "raw_rdtsc_done:\n\t"
    "ret\n\t"
    ".popsection\n\t"
    _ASM_EXTABLE(raw_rdpmc, raw_rdpmc_done)
    _ASM_EXTABLE(raw_rdtsc, raw_rdtsc_done));
extern const char raw_rdpmc[], raw_rdtsc[];

/* Whether rdpmc and CR4.PCE are surely there: every P6 and later. */
static bool has_rdpmc(void)
{
	return boot_cpu.family >= 6;
}

/* The trap the raw instruction at fn raised at this ring: 0 if none. */
static unsigned int trap_at_kernel_ring(const char *fn)
{
	unsigned long gp = trap_count(X86_TRAP_GP), ud = trap_count(X86_TRAP_UD);
	u32 eax, ecx = 0, edx;

	asm volatile("call *%3" : "=a" (eax), "+c" (ecx), "=d" (edx) : "r" (fn) : "memory");
	(void)eax;
	(void)edx;
	if (trap_count(X86_TRAP_GP) != gp)
		return X86_TRAP_GP;
	return trap_count(X86_TRAP_UD) != ud ? X86_TRAP_UD : 0;
}

/* The ring-3 program's #GP; or on a CPU without the instruction, #UD
 * (either, as test_privileged_user.c allows: find which, then check). */
static void check_ring3_fault(struct ktest_ctx *kt_ctx, const char *name, bool surely_there)
{
	struct kill_expect gp = { "priv", name, X86_TRAP_GP, 0, NULL, NULL, NULL };
	struct kill_expect ud = { "priv", name, X86_TRAP_UD, 0, NULL, NULL, NULL };

	if (!surely_there && run_program("priv", name) == EXIT_KILLED(X86_TRAP_UD))
		check_kill(kt_ctx, &ud);
	else
		check_kill(kt_ctx, &gp);
}

KTEST(rdpmc_above_ring_0_only_with_this_kernels_pce)
{
	bool pce = boot_cpu.has_cr4 && (read_cr4() & X86_CR4_PCE);

	if (current_ring() != 0) {
		unsigned int v = trap_at_kernel_ring(raw_rdpmc);

		KT_EXPECT(!pce);	/* a guest never gets to set it */
		KT_EXPECT(v == X86_TRAP_GP || (!has_rdpmc() && v == X86_TRAP_UD));
	}
	if (pce)
		check_end(kt_ctx, "priv", "rdpmc", SURVIVED, NULL);
	else
		check_ring3_fault(kt_ctx, "rdpmc", has_rdpmc());
}

KTEST(rdtsc_runs_at_every_ring)
{

	if (!cpu_has(X86_FEATURE_TSC))
		KT_SKIP("no TSC");
	KT_EXPECT(!boot_cpu.has_cr4 || !(read_cr4() & X86_CR4_TSD));
	KT_EXPECT_EQ(trap_at_kernel_ring(raw_rdtsc), 0);
	check_end(kt_ctx, "priv", "rdtsc", SURVIVED, NULL);
}
