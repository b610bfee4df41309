/*
 * cpu_setup.c - puts the boot CPU into the state pv386 expects, whatever
 * the firmware and the loader left, and says what it found.
 *
 *   caches    on: CR0.CD and CR0.NW clear, then wbinvd, which writes
 *             back and drops whatever was cached under the old setting
 *             (a 386 has no cache and no wbinvd: skipped there);
 *   CR4       where it exists, every bit pv386 does not manage is
 *             cleared (VME, PVI, TSD, DE, PSE, PAE, PGE, MCE ...): a
 *             stray TSD would make rdtsc fault in user mode, a stray
 *             PAE would change the page-table format.  The FPU and the
 *             performance counters set their own bits later;
 *   MSRs      where they exist, one is read to show the op at work: the
 *             local APIC's base (pv386 does not use the APIC);
 *   tables    the GDT, IDT and task register are read back from the CPU
 *             (store_gdt, store_idt, store_tr) and checked against what
 *             was loaded.
 */
#include <kernel.h>
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/msr_index.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>

#define APIC_BASE_ENABLE	(1u << 11)

static void enable_caches(void)
{
	unsigned long cr0 = read_cr0();

	if (cr0 & (X86_CR0_CD | X86_CR0_NW))
		printk("cpu: caches were off (CR0 %08lx): turning them on\n", cr0);
	write_cr0(cr0 & ~(X86_CR0_CD | X86_CR0_NW));
	if (boot_cpu.family >= 4)	/* a 386 has no cache, nor wbinvd */
		wbinvd();
}

static void reset_cr4(void)
{
	unsigned long cr4;

	if (!boot_cpu.has_cr4)
		return;
	cr4 = read_cr4();
	if (cr4)
		printk("cpu: CR4 was %08lx, cleared\n", cr4);
	write_cr4(0);
}

static void report_apic_base(void)
{
	u64 base;

	if (!cpu_has(X86_FEATURE_MSR) || !cpu_has(X86_FEATURE_APIC))
		return;
	if (rdmsr_safe(MSR_IA32_APIC_BASE, &base)) {
		printk("cpu: the APIC base MSR cannot be read\n");
		return;
	}
	printk("cpu: local APIC at %08x, %s by firmware (pv386 sets it up for a second CPU)\n",
	       (u32)base & 0xfffff000, (u32)base & APIC_BASE_ENABLE ? "enabled" : "disabled");
}

/* What the CPU holds must be what gdt_init() and trap_init() loaded: a
 * backend that dropped a load would show here, at boot. */
static void check_descriptor_tables(void)
{
	struct desc_ptr gdtr, idtr;
	unsigned long tr = store_tr();

	store_gdt(&gdtr);
	store_idt(&idtr);
	if (gdtr.address != (u32)gdt_table || idtr.address != (u32)idt_table ||
	    tr != __TSS_SEL)
		panic("descriptor tables not as loaded: gdt %08x idt %08x tr %04lx",
		      gdtr.address, idtr.address, tr);
	printk("cpu: gdt %08x (%u entries), idt %08x (%u gates), tr %04lx\n",
	       gdtr.address, (gdtr.size + 1) / 8, idtr.address, (idtr.size + 1) / 8, tr);
}

void cpu_setup(void)
{
	enable_caches();
	reset_cr4();
	report_apic_base();
	check_descriptor_tables();
}

/* The control registers as the kernel finally set them up. */
void cpu_print_control_registers(void)
{
	printk("cpu: cr0 %08lx cr4 %08lx%s\n", read_cr0(), read_cr4_safe(),
	       boot_cpu.has_cr4 ? "" : " (no CR4)");
}
