/*
 * cpu.c - identifies the boot CPU, from a 386 to a modern x86.
 *
 * Older CPUs cannot be asked: their generation shows in which EFLAGS
 * bits can be changed.  AC (bit 18) is stuck at 0 on a 386; ID (bit 21)
 * can be toggled only when the CPUID instruction exists.  The flags are
 * read and written with save_fl/restore_fl, through paravirt_ops like
 * every other privileged operation: what counts is the CPU as the
 * running backend presents it.
 */
#include <kernel.h>
#include <cmdline.h>
#include <string.h>
#include <asm/cpu.h>
#include <asm/extable.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>

struct cpuinfo_x86 boot_cpu;

/*
 * cpu=386|486|586: behave as that older generation, on a newer CPU.  No
 * emulator here has a 386 or a 486 without CPUID, so this is how their
 * fallbacks run at all: detection reports the lesser CPU and every
 * feature it lacks stays off.  Early: the patcher's choice of NOPs
 * depends on it.
 */
static unsigned int forced_family;
static bool forced_ignored;	/* cpu= named a generation no older */

static int parse_cpu(const char *value)
{
	unsigned long v;

	if (value && !parse_ulong(value, &v) && (v == 386 || v == 486 || v == 586))
		forced_family = v / 100;
	return 0;
}
early_boot_option("cpu", parse_cpu, "behave as an older CPU: 386, 486 or 586");

/* What a classic Pentium (P54C) reports in CPUID.1:EDX. */
#define P5_FEATURES	(1u << X86_FEATURE_FPU | 1u << X86_FEATURE_VME |	\
			 1u << X86_FEATURE_DE | 1u << X86_FEATURE_PSE |		\
			 1u << X86_FEATURE_TSC | 1u << X86_FEATURE_MSR |	\
			 1u << X86_FEATURE_CX8)

/* Can this EFLAGS bit be flipped?  Put the old flags back either way. */
static bool eflags_bit_toggles(unsigned long bit)
{
	unsigned long saved = raw_local_save_flags();
	unsigned long flipped;

	raw_local_irq_restore(saved ^ bit);
	flipped = raw_local_save_flags();
	raw_local_irq_restore(saved);
	return ((flipped ^ saved) & bit) != 0;
}

static void cpu_read_vendor(void)
{
	u32 a, b, c, d;

	cpuid(0, &a, &b, &c, &d);
	boot_cpu.max_leaf = a;
	memcpy(boot_cpu.vendor + 0, &b, 4);
	memcpy(boot_cpu.vendor + 4, &d, 4);
	memcpy(boot_cpu.vendor + 8, &c, 4);
	boot_cpu.vendor[12] = '\0';
}

static void cpu_read_signature(void)
{
	u32 a, b, c, d;

	if (boot_cpu.max_leaf < 1)
		return;
	cpuid(1, &a, &b, &c, &d);
	boot_cpu.stepping = a & 0xf;
	boot_cpu.model = (a >> 4) & 0xf;
	boot_cpu.family = (a >> 8) & 0xf;
	if (boot_cpu.family == 0xf)
		boot_cpu.family += (a >> 20) & 0xff;
	if (boot_cpu.family >= 6)
		boot_cpu.model |= ((a >> 16) & 0xf) << 4;
	boot_cpu.features = d;
}

/* The Pentium Pro (Intel family 6 before model 3 stepping 3) reports SEP
 * but has no working sysenter/sysexit.  SDM's own wording ("model < 3
 * and stepping < 3") misses steppings 6, 7 and 9 of model 1: compare the
 * whole signature instead. */
static void cpu_apply_quirks(void)
{
	u32 signature = boot_cpu.family << 8 | boot_cpu.model << 4 | boot_cpu.stepping;

	if (!strcmp(boot_cpu.vendor, "GenuineIntel") && boot_cpu.family == 6 &&
	    signature < 0x633)
		boot_cpu.features &= ~(1u << X86_FEATURE_SEP);
	boot_cpu.has_cr4 = boot_cpu.family >= 5 ||
			   cpu_has(X86_FEATURE_VME) || cpu_has(X86_FEATURE_PSE) ||
			   cpu_has(X86_FEATURE_DE);
}

static void cpu_read_brand(void)
{
	u32 a, b, c, d, leaf, *out = (u32 *)boot_cpu.name;
	char *p;

	cpuid(0x80000000, &a, &b, &c, &d);
	if (a < 0x80000004 || a > 0x8000ffff)
		return;
	for (leaf = 0x80000002; leaf <= 0x80000004; leaf++, out += 4)
		cpuid(leaf, &out[0], &out[1], &out[2], &out[3]);
	boot_cpu.name[48] = '\0';
	for (p = boot_cpu.name; *p == ' '; p++)
		;
	memmove(boot_cpu.name, p, strlen(p) + 1);	/* Intel pads on the left */
}

/* 0f 1f raises #UD on a CPU without it; the exception table skips it. */
static bool long_nop_executes(void)
{
	int works = 0;

	asm volatile("1: .byte 0x0f, 0x1f, 0x40, 0x00\n\t"	/* nopl 0(%%eax) */
		     "movl $1, %0\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : "+r" (works) : : "memory");
	return works;
}

/*
 * Family 6 (Pentium Pro) and later have the 0f 1f NOP, but QEMU runs it
 * on any CPU model and some VIA family-6 chips lack it: check both.  The
 * patcher asks this before cpu_detect() has run (it must finish before
 * anything else uses a patch site), so it asks the CPU itself.
 */
bool cpu_has_long_nops(void)
{
	u32 a, b, c, d;

	if (forced_family && forced_family < 6)
		return false;
	cpuid(1, &a, &b, &c, &d);	/* all zero where there is no cpuid */
	return ((a >> 8) & 0xf) >= 6 && long_nop_executes();
}

/* Make boot_cpu the older generation cpu= asked for, if it is older. */
static void cpu_apply_forced_family(void)
{
	if (!forced_family)
		return;
	if (forced_family >= boot_cpu.family) {
		forced_ignored = true;	/* said by cpu_print: no console yet */
		return;
	}
	boot_cpu.family = forced_family;
	boot_cpu.forced = true;
	boot_cpu.model = boot_cpu.stepping = 0;
	boot_cpu.name[0] = '\0';
	if (forced_family == 5) {		/* a Pentium: CPUID, fewer features */
		boot_cpu.features &= P5_FEATURES;
		return;
	}
	/* A 386, or a 486 of the kind without CPUID (and without CR4:
	 * later 486s have both, but those are not what this is for). */
	boot_cpu.has_cpuid = false;
	boot_cpu.max_leaf = 0;
	boot_cpu.features = 0;
	strlcpy(boot_cpu.vendor, "unknown", sizeof(boot_cpu.vendor));
}

/*
 * A hypervisor that wants to be found sets CPUID.1:ECX bit 31 (real CPUs
 * leave it clear) and answers leaf 0x40000000 with a 12-byte signature
 * in EBX, ECX, EDX.  An emulator may set neither (Bochs does not).
 */
static const struct {
	const char *signature, *name;
} hypervisors[] = {
	{ "KVMKVMKVM", "KVM" },			/* "KVMKVMKVM\0\0\0" */
	{ "pv386host   ", "pv386 host" },	/* backends/guest.c */
	{ "TCGTCGTCGTCG", "QEMU TCG" },
	{ "VMwareVMware", "VMware" },
	{ "XenVMMXenVMM", "Xen" },
	{ "Microsoft Hv", "Hyper-V" },
};

#define X86_FEATURE_ECX_HYPERVISOR	31

static void cpu_read_hypervisor(void)
{
	u32 a, b, c, d;
	unsigned int i;

	strlcpy(boot_cpu.hypervisor, "none", sizeof(boot_cpu.hypervisor));
	if (!boot_cpu.has_cpuid || boot_cpu.max_leaf < 1)
		return;
	cpuid(1, &a, &b, &c, &d);
	if (!(c >> X86_FEATURE_ECX_HYPERVISOR & 1))
		return;
	cpuid(0x40000000, &a, &b, &c, &d);
	memcpy(boot_cpu.hypervisor_signature + 0, &b, 4);
	memcpy(boot_cpu.hypervisor_signature + 4, &c, 4);
	memcpy(boot_cpu.hypervisor_signature + 8, &d, 4);
	boot_cpu.hypervisor_signature[12] = '\0';
	strlcpy(boot_cpu.hypervisor, "unknown", sizeof(boot_cpu.hypervisor));
	for (i = 0; i < ARRAY_SIZE(hypervisors); i++)
		if (!strcmp(boot_cpu.hypervisor_signature, hypervisors[i].signature))
			strlcpy(boot_cpu.hypervisor, hypervisors[i].name,
				sizeof(boot_cpu.hypervisor));
}

void cpu_detect(void)
{
	strlcpy(boot_cpu.vendor, "unknown", sizeof(boot_cpu.vendor));
	if (!eflags_bit_toggles(X86_EFLAGS_AC)) {
		boot_cpu.family = 3;
	} else if (!eflags_bit_toggles(X86_EFLAGS_ID)) {
		boot_cpu.family = 4;
	} else {
		boot_cpu.has_cpuid = true;
		cpu_read_vendor();
		cpu_read_signature();
		cpu_read_brand();
	}
	cpu_apply_forced_family();
	cpu_apply_quirks();
	cpu_read_hypervisor();
	if (!boot_cpu.name[0])
		snprintf(boot_cpu.name, sizeof(boot_cpu.name), "%s class%s",
			 boot_cpu.family == 3 ? "i386" : boot_cpu.family == 4 ? "i486" :
			 boot_cpu.family == 5 ? "i586" : "i686",
			 forced_family ? ", forced by cpu=" : "");
}

static const char *const feature_names[32] = {
	[X86_FEATURE_FPU] = "fpu", [X86_FEATURE_VME] = "vme",
	[X86_FEATURE_DE] = "de", [X86_FEATURE_PSE] = "pse",
	[X86_FEATURE_TSC] = "tsc", [X86_FEATURE_MSR] = "msr",
	[X86_FEATURE_PAE] = "pae", [X86_FEATURE_CX8] = "cx8",
	[X86_FEATURE_APIC] = "apic", [X86_FEATURE_SEP] = "sep",
	[X86_FEATURE_PGE] = "pge", [X86_FEATURE_CMOV] = "cmov",
	[X86_FEATURE_MMX] = "mmx", [X86_FEATURE_FXSR] = "fxsr",
	[X86_FEATURE_SSE] = "sse", [X86_FEATURE_SSE2] = "sse2",
};

void cpu_print_hypervisor(void)
{
	if (boot_cpu.hypervisor_signature[0])
		printk("cpu: hypervisor: %s (signature '%s')\n", boot_cpu.hypervisor,
		       boot_cpu.hypervisor_signature);
	else
		printk("cpu: hypervisor: none%s\n", boot_cpu.has_cpuid ?
		       " (CPUID.1:ECX bit 31 clear)" : " (no cpuid to ask)");
}

void cpu_print(void)
{
	unsigned int i;

	if (forced_ignored)
		printk("cpu: cpu=%u86 ignored: this CPU is no newer\n", forced_family);

	printk("cpu: %s family %u model %u stepping %u, %s\n", boot_cpu.vendor,
	       boot_cpu.family, boot_cpu.model, boot_cpu.stepping, boot_cpu.name);
	printk("cpu: features:%s", boot_cpu.has_cpuid ? "" : " (no cpuid)");
	for (i = 0; i < 32; i++)
		if (cpu_has(i) && feature_names[i])
			printk(" %s", feature_names[i]);
	printk("\n");
	cpu_print_hypervisor();
}
