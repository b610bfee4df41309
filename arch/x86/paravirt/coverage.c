/*
 * coverage.c - op coverage: which ops of the table the calls
 * counted by install.c reached, and which the running CPU cannot
 * do at all.
 *
 * Printed after the in-kernel suite and after run= with opcount.  With
 * nopatch every call goes through the table, so an op the CPU has and
 * no feature reached is an op with no user: the suite fails then.  Kept
 * apart from the counting (install.c), which the patcher uses: the report
 * reads the patcher's figures, and a file that both uses and is used by
 * the patcher would make a call loop.
 */
#include <kernel.h>
#include <asm/apic.h>
#include <asm/cpu.h>
#include <asm/paravirt.h>
#include <asm/smp.h>
#include <asm/syscall.h>

/* Why the running CPU cannot do op s, or NULL if it can. */
static const char *op_unavailable(unsigned int s)
{
	if (s == PARAVIRT_SLOT(read_tsc) && !cpu_has(X86_FEATURE_TSC))
		return "no TSC";
	if ((s == PARAVIRT_SLOT(read_msr) || s == PARAVIRT_SLOT(write_msr)) &&
	    !cpu_has(X86_FEATURE_MSR))
		return "no MSRs";
	if ((s == PARAVIRT_SLOT(read_cr4) || s == PARAVIRT_SLOT(write_cr4)) &&
	    !boot_cpu.has_cr4)
		return "no CR4";
	if (s == PARAVIRT_SLOT(irq_enable_sysexit) && !syscall_sysenter_enabled())
		return "no sysenter";
	if (s == PARAVIRT_SLOT(wbinvd) && boot_cpu.family < 4)
		return "no wbinvd";
	/* Set up only where more than one CPU is to be used (apic.c). */
	if ((s == PARAVIRT_SLOT(apic_read) || s == PARAVIRT_SLOT(apic_write)) &&
	    !apic_present())
		return smp_possible() ? "one CPU: APIC not used" : "no APIC";
	/* Asked only of other CPUs that have a space loaded: there are
	 * none unless the APIC is used (the IPI needs it). */
	if (s == PARAVIRT_SLOT(flush_tlb_others) && !apic_present())
		return smp_possible() ? "one CPU: no other TLB" : "no APIC";
	/* Called only when a lock is found held, which takes a second CPU:
	 * on one, no holder is ever switched away or interrupted by a taker
	 * (docs/smp.md, "Locks"); the unlock is called always. */
	if ((s == PARAVIRT_SLOT(spin_lock_slowpath) || s == PARAVIRT_SLOT(spin_wait) ||
	     s == PARAVIRT_SLOT(spin_kick) || s == PARAVIRT_SLOT(vcpu_is_preempted)) &&
	    num_online_cpus() < 2)
		return "one CPU: no lock contended";
	return NULL;
}

static void print_op_list(const char *what, bool unavailable)
{
	unsigned int s;
	bool first = true;

	for (s = PARAVIRT_FIRST_OP_SLOT; s < PARAVIRT_NR_SLOTS; s++) {
		const char *why = op_unavailable(s);

		if (paravirt_op_calls[s] || !why != !unavailable)
			continue;
		printk("%s %s", first ? what : "", paravirt_op_name(s));
		if (why)
			printk(" (%s)", why);
		first = false;
	}
}

/*
 * "op coverage: N/M": how many of the M ops were reached through the
 * table; then the ops this CPU cannot do, and the ones never called.
 * Returns true when every op the CPU can do was reached.
 */
bool paravirt_coverage_report(void)
{
	unsigned int s, called = 0, lacking = 0;
	unsigned int total = PARAVIRT_NR_OPS;

	for (s = PARAVIRT_FIRST_OP_SLOT; s < PARAVIRT_NR_SLOTS; s++) {
		called += paravirt_op_calls[s] != 0;
		lacking += !paravirt_op_calls[s] && op_unavailable(s);
	}
	printk("op coverage: %u/%u", called, total);
	if (!paravirt_patching_disabled())
		printk(" reached the table (%u sites inlined instead)",
		       paravirt_patch_stats()->inlined);
	print_op_list(", not on this CPU:", true);
	print_op_list(", never called:", false);
	printk("\n");
	return called + lacking == total;
}
