/*
 * discover.c - the kernel's side of finding the CPUs: has the firmware's
 * tables read (arch/x86/kernel/firmware/cpu_tables.c), places the boot CPU among
 * them by its local APIC id, applies `nosmp` and `smp=N`, and says what
 * it found, before any AP is started (smpboot.c starts them, later).
 *
 * The boot CPU's APIC id comes from CPUID leaf 1, EBX bits 31-24 (the
 * initial APIC id), read through the paravirt op like every cpuid: the
 * local APIC's own register would need its page mapped, and nothing
 * else uses the APIC yet.  A table that does not list this id as an
 * enabled CPU is not this machine's, and none of its CPUs is used.
 */
#include <kernel.h>
#include <cmdline.h>
#include <string.h>
#include <asm/cpu.h>
#include <asm/platform.h>
#include <asm/privileged.h>
#include <asm/smp.h>

#define FOUR_GIB	0x100000000ull

struct smp_state smp = { .boot_apic_id = SMP_NO_APIC_ID, .to_use = 1, .running = 1 };

static unsigned int cap_cpus = NR_CPUS;
static char cap_text[8];

static int set_nosmp(const char *v)
{
	(void)v;
	cap_cpus = 1;
	strlcpy(cap_text, "nosmp", sizeof(cap_text));
	return 0;
}
boot_option("nosmp", set_nosmp, "use the boot CPU only, whatever the firmware lists");

static int parse_smp(const char *value)
{
	unsigned long v;

	if (!value || parse_ulong(value, &v) || v < 1 || v > NR_CPUS)
		return -EINVAL;
	cap_cpus = v;
	strlcpy(cap_text, "smp=", sizeof(cap_text));
	cap_text[4] = '0' + v;		/* one digit: v is 1-8 */
	cap_text[5] = '\0';
	return 0;
}
boot_option("smp", parse_smp, "use at most N CPUs (1-8)");

/* Paging is off: every address below 4 GiB reads something, and the
 * bytes are where the firmware put them. */
static bool read_physical(const struct fw_memory *mem, u64 addr, void *dst, u32 n)
{
	(void)mem;
	if (addr + n > FOUR_GIB)
		return false;
	memcpy(dst, (const void *)(u32)addr, n);
	return true;
}

static const struct fw_memory physical_memory = { read_physical };

static void notes_print(const struct cpu_tables_notes *notes)
{
	unsigned int i;

	for (i = 0; i < notes->nr; i++) {
		const struct cpu_tables_note *n = &notes->note[i];

		printk("smp: ");
		printk(cpu_tables_note_format(n->kind), n->subject, (unsigned long long)n->a,
		       (unsigned long long)n->b, (unsigned long long)n->c);
		printk("\n");
	}
	if (notes->dropped)
		printk("smp: %u more notes not shown\n", notes->dropped);
}

/* Why this machine cannot have more than one CPU, or NULL. */
static const char *up_only_reason(void)
{
	if (platform != &pc_platform)
		return "a guest: no firmware tables";
	if (!smp_possible())
		return "no local APIC on this CPU: tables not read";
	return NULL;
}

/* The initial APIC id of the CPU running this: CPUID.1:EBX[31:24]. */
static unsigned int boot_cpu_apic_id(void)
{
	u32 a, b, c, d;

	cpuid(1, &a, &b, &c, &d);
	return b >> 24;
}

/* Read the tables and keep them if they describe this machine. */
static void use_tables(void)
{
	static struct cpu_tables_notes notes;
	struct cpu_tables *t = &smp.tables;

	cpu_tables_find(&physical_memory, t, &notes);
	if (t->source != CPU_TABLES_NONE &&
	    !cpu_tables_mark_boot(t, smp.boot_apic_id, &notes)) {
		memset(t, 0, sizeof(*t));
		t->boot_index = -1;
	}
	notes_print(&notes);
	if (t->source == CPU_TABLES_NONE)
		smp.up_reason = "no sound ACPI MADT or MP table";
}

void smp_find_cpus(void)
{
	const struct cpu_tables *t = &smp.tables;

	smp.tables.boot_index = -1;
	smp.up_reason = up_only_reason();
	if (!smp.up_reason) {
		smp.boot_apic_id = boot_cpu_apic_id();
		use_tables();
	}
	smp.cap = cap_text[0] ? cap_text : NULL;
	if (smp.up_reason) {
		printk("smp: 1 CPU (%s); using 1\n", smp.up_reason);
		return;
	}
	smp.to_use = min(t->nr_enabled, cap_cpus);
	printk("smp: %u CPU%s found (%s), local APIC at %08x, boot CPU APIC id %u; "
	       "%u to use%s%s%s, 1 running (APs not started yet)\n",
	       t->nr_enabled, t->nr_enabled == 1 ? "" : "s",
	       cpu_tables_source_name(t->source), t->lapic_addr,
	       smp.boot_apic_id, smp.to_use, smp.cap ? " (" : "",
	       smp.cap ? smp.cap : "", smp.cap ? ")" : "");
}
