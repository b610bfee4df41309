/*
 * test_msr.c - MSRs and counters: read_msr, write_msr, read_tsc, read_pmc,
 * and the exception table behind their -EFAULT.
 */
#include <ktest.h>
#include <asm/cpu.h>
#include <asm/io.h>
#include <asm/msr_index.h>
#include <asm/privileged.h>
#include <string.h>

#define MSR_BOGUS		0x00012345	/* defined by no CPU we know of */

KTEST(msr_round_trip)
{
	u64 saved, v;

	if (!cpu_has(X86_FEATURE_MSR) || !cpu_has(X86_FEATURE_SEP))
		KT_SKIP("no sysenter MSRs on this CPU");
	KT_EXPECT_EQ(rdmsr_safe(MSR_IA32_SYSENTER_ESP, &saved), 0);
	KT_EXPECT_EQ(wrmsr_safe(MSR_IA32_SYSENTER_ESP, 0x12345678), 0);
	KT_EXPECT_EQ(rdmsr_safe(MSR_IA32_SYSENTER_ESP, &v), 0);
	KT_EXPECT_EQ(v, 0x12345678);
	KT_EXPECT_EQ(wrmsr_safe(MSR_IA32_SYSENTER_ESP, saved), 0);
}

#define FW_CFG_PORT_SEL		0x510	/* QEMU's firmware-config interface */
#define FW_CFG_PORT_DATA	0x511
#define FW_CFG_SIGNATURE	0x0000	/* reads back "QEMU" */

/*
 * QEMU's TCG reads unknown MSRs as 0 and ignores writes to them instead
 * of raising #GP as a real CPU does, so there the fault path cannot be
 * shown with an MSR (the Bochs runs, and real hardware, do show it).
 * QEMU is recognised by its fw_cfg device, whatever CPU model it shows.
 * A guest has no ports to ask, and needs none: its host answers an MSR
 * it does not let a guest have as a real CPU does.
 */
static bool msr_faults_are_real(void)
{
	char sig[4];
	unsigned int i;

	if (current_ring() != 0)
		return true;	/* a guest: its host refuses all but a few MSRs */
	outw(FW_CFG_PORT_SEL, FW_CFG_SIGNATURE);
	for (i = 0; i < sizeof(sig); i++)
		sig[i] = inb(FW_CFG_PORT_DATA);
	return memcmp(sig, "QEMU", 4) != 0;
}

KTEST(read_missing_msr_faults_safely)
{
	u64 v = 1;

	if (!msr_faults_are_real())
		KT_SKIP("QEMU TCG does not fault on unknown MSRs");
	KT_EXPECT_EQ(rdmsr_safe(MSR_BOGUS, &v), -EFAULT);
	KT_EXPECT_EQ(v, 0);
}

KTEST(write_missing_msr_faults_safely)
{
	if (!msr_faults_are_real())
		KT_SKIP("QEMU TCG does not fault on unknown MSRs");
	KT_EXPECT_EQ(wrmsr_safe(MSR_BOGUS, 0), -EFAULT);
}

/* MSR 0x10 is the counter rdtsc reads: the CPU's natively, and in a
 * guest one of the few MSRs its host reads for it.  Natively QEMU's TCG
 * reads it as 0 (as it reads unknown MSRs), which no real CPU's counter
 * is; a guest's host answers with the counter, as Xen and KVM do. */
KTEST(msr_tsc_is_the_time_stamp_counter)
{
	u64 before, v = 0, after;

	if (!cpu_has(X86_FEATURE_MSR) || !cpu_has(X86_FEATURE_TSC))
		KT_SKIP("no MSRs or no time-stamp counter");
	before = read_tsc();
	KT_EXPECT_EQ(rdmsr_safe(MSR_IA32_TSC, &v), 0);
	after = read_tsc();
	if (v || current_ring() != 0)
		KT_EXPECT(before <= v && v <= after);
}

/* The TSC is the host's clock too: its guest may read it, never set it. */
KTEST(guest_cannot_write_the_tsc)
{
	u64 before;

	if (current_ring() == 0)
		KT_SKIP("natively the TSC is the kernel's to set");
	if (!cpu_has(X86_FEATURE_TSC))
		KT_SKIP("no time-stamp counter");
	before = read_tsc();
	KT_EXPECT_EQ(wrmsr_safe(MSR_IA32_TSC, 0), -EFAULT);
	KT_EXPECT(read_tsc() > before);
}

KTEST(tsc_advances)
{
	u64 a, b;

	if (!cpu_has(X86_FEATURE_TSC))
		KT_SKIP("no time-stamp counter");
	a = read_tsc();
	b = read_tsc();
	KT_EXPECT(b > a);
}

/* Counter 0x7fff exists on no CPU: rdpmc must fault, and the fault must
 * come back as -EFAULT. */
KTEST(read_pmc_bad_counter_faults_safely)
{
	u64 v;

	KT_EXPECT_EQ(rdpmc_safe(0x7fff, &v), -EFAULT);
}
