/*
 * test_privileged_user.c - ring 3 cannot run a privileged instruction:
 * the CPU raises #GP and the kernel kills that task alone
 * (user/priv.c, one instruction per run, beside user/survivor; the
 * checks are in kill_check.c).  popf is the exception: in ring 3 it
 * silently keeps IF and IOPL, and the task goes on.
 *
 * A CPU that lacks an instruction raises #UD instead, before looking at
 * the privilege level: rdmsr/wrmsr without MSRs (a 486), sysexit without
 * SEP (Bochs's Pentium), mov to/from %cr4 on a 486 without it, the 486
 * cache and TLB instructions on a 386.  QEMU checks the privilege level
 * first even then, so where the CPU lacks the instruction either vector
 * is right.
 */
#include <ktest.h>
#include <string.h>
#include <task.h>
#include <asm/cpu.h>
#include <asm/traps.h>
#include "kill_check.h"
#include "run_program.h"
#include "run_user.h"

static const char *const gp_cases[] = {
	"cli", "sti", "hlt", "cr0_read", "cr0_write", "cr2_read", "cr2_write",
	"cr3_read", "cr3_write", "dr0_read", "dr0_write", "dr7_read", "dr7_write",
	"lgdt", "lidt", "ltr", "lldt", "lmsw", "clts", "in", "out",
};

/* Instructions some CPUs lack, and whether this one has it. */
static bool cpu_has_instruction(const char *name)
{
	if (!strcmp(name, "rdmsr") || !strcmp(name, "wrmsr"))
		return cpu_has(X86_FEATURE_MSR);
	if (!strcmp(name, "sysexit"))
		return cpu_has(X86_FEATURE_SEP);
	if (!strncmp(name, "cr4_", 4))
		return boot_cpu.has_cr4;
	return boot_cpu.family >= 4;		/* wbinvd, invd, invlpg */
}

static const char *const newer_cases[] = {
	"cr4_read", "cr4_write", "rdmsr", "wrmsr", "sysexit", "wbinvd", "invd", "invlpg",
};

/* Ways to ring 0's segments: the error code names the selector. */
static const struct kill_expect selector_cases[] = {
	{ "priv", "iret_to_kernel", X86_TRAP_GP, 0x08, NULL, NULL, NULL },
	{ "priv", "ljmp_kernel", X86_TRAP_GP, 0x08, NULL, NULL, NULL },
	{ "priv", "load_kernel_ds", X86_TRAP_GP, 0x10, NULL, NULL, NULL },
	{ "priv", "load_tss_selector", X86_TRAP_GP, 0x28, NULL, NULL, NULL },
};

static bool raises_ud(const char *name)
{
	return run_program("priv", name) == EXIT_KILLED(X86_TRAP_UD);
}

static void check_gp(struct ktest_ctx *kt_ctx, const char *name)
{
	struct kill_expect e = { "priv", name, X86_TRAP_GP, 0, NULL, NULL, NULL };

	check_kill(kt_ctx, &e);
}

KTEST(user_privileged_instructions_kill_only_the_task)
{
	unsigned int i;

	for (i = 0; i < sizeof(gp_cases) / sizeof(gp_cases[0]); i++)
		check_gp(kt_ctx, gp_cases[i]);
	for (i = 0; i < sizeof(selector_cases) / sizeof(selector_cases[0]); i++)
		check_kill(kt_ctx, &selector_cases[i]);
}

KTEST(user_newer_privileged_instructions_kill_only_the_task)
{
	unsigned int i;

	for (i = 0; i < sizeof(newer_cases) / sizeof(newer_cases[0]); i++) {
		const char *name = newer_cases[i];
		struct kill_expect ud = { "priv", name, X86_TRAP_UD, 0, NULL, NULL, NULL };

		if (cpu_has_instruction(name)) {
			check_gp(kt_ctx, name);
			continue;
		}
		/* Either vector; find out which from a first run, then check
		 * a second one fully. */
		if (raises_ud(name))
			check_kill(kt_ctx, &ud);
		else
			check_gp(kt_ctx, name);
	}
}

/* popf in ring 3 with IOPL 0 ignores IF and IOPL: exit 0 says both
 * stayed (user/priv.c). */
KTEST(user_popf_cannot_clear_if_or_raise_iopl)
{
	check_end(kt_ctx, "priv", "popf", 0, NULL);
}
