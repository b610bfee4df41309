/*
 * test_fpu_mode.c - who chooses how the FPU is switched (arch/x86/kernel/fpu.c):
 * the backend - lazily at ring 0 (native, trace, rom; and the PARAVIRT=n
 * kernel), eagerly at ring 1 (guest) - unless the fpu= boot option says
 * otherwise; and a live backend switch keeps the mode the boot chose,
 * every task's registers still its own.  The rows of tests/run that boot
 * with fpu=eager or fpu=lazy make the option's side of each test run.
 */
#include <kernel.h>
#include <ktest.h>
#include <bootinfo.h>
#include <string.h>
#include <asm/fpu.h>
#include <asm/privileged.h>
#include <asm/traps.h>
#include "run_user.h"
#ifdef CONFIG_PARAVIRT
#include <asm/paravirt.h>
#include "pv_switch_check.h"
#endif

enum asked { ASKED_NOTHING, ASKED_LAZY, ASKED_EAGER };

static size_t word_length(const char *w)
{
	size_t n = 0;

	while (w[n] && w[n] != ' ')
		n++;
	return n;
}

/* What the command line's last fpu= word asks for (the parser applies
 * each in turn), read here from the words themselves, not from fpu.c. */
static enum asked fpu_asked(void)
{
	const char *w = boot_info.cmdline;
	enum asked asked = ASKED_NOTHING;

	while (*w == ' ')
		w++;
	while (*w) {
		size_t len = word_length(w);

		if (len == 8 && !strncmp(w, "fpu=lazy", 8))
			asked = ASKED_LAZY;
		else if (len == 9 && !strncmp(w, "fpu=eager", 9))
			asked = ASKED_EAGER;
		w += len;
		while (*w == ' ')
			w++;
	}
	return asked;
}

KTEST(fpu_switching_is_the_backends_unless_fpu_says)
{
	enum asked asked = fpu_asked();

	if (!fpu_present())
		KT_SKIP("no FPU");
	/* A backend at ring 0 runs on the CPU itself, where a #NM is one
	 * trap: lazy.  The guest's, at ring 1, pays four exits for a lazy
	 * hand-over: eager. */
	KT_EXPECT_EQ(paravirt_eager_fpu(), get_kernel_rpl() != 0);
	KT_EXPECT_EQ(fpu_eager(), asked == ASKED_NOTHING ? paravirt_eager_fpu() :
				  asked == ASKED_EAGER);
}

#ifdef CONFIG_PARAVIRT
/* The other backend of a live pair: trace, or the one it wraps. */
static const char *other_backend(const char *name)
{
	return strcmp(name, "trace") ? "trace" : paravirt_ring_backend();
}

/* Two FPU programs taking turns under the backend now installed: each
 * keeps its registers, and an eager mode meets no #NM. */
static void fpu_pair_holds(struct ktest_ctx *kt_ctx)
{
	unsigned long nm = trap_count(X86_TRAP_NM);
	int a = start_program("fpu", "5"), b = start_program("fpu", "6");

	KT_EXPECT_EQ(finish_program(a), 0);
	KT_EXPECT_EQ(finish_program(b), 0);
	if (fpu_eager())
		KT_EXPECT_EQ(trap_count(X86_TRAP_NM) - nm, 0);
}

/*
 * The mode is chosen once, at boot: a backend installed live, whatever
 * it would have chosen, changes nothing of it.  With fpu= against the
 * backend's choice the two disagree here, and the FPU still works in the
 * boot's mode under the other table.
 */
KTEST(fpu_switching_kept_across_a_live_switch)
{
	const char *boot = paravirt_ops.name;
	bool eager = fpu_eager();

	if (!fpu_present())
		KT_SKIP("no FPU");
	KT_EXPECT(switch_to(other_backend(boot)));
	KT_EXPECT_EQ(fpu_eager(), eager);
	fpu_pair_holds(kt_ctx);
	KT_EXPECT(switch_to(boot));
	KT_EXPECT_EQ(fpu_eager(), eager);
}
#endif
