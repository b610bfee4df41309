/*
 * cpu.c - the shell's commands about the processor: cpu, regs and
 * msr.  Everything they show is read through the paravirt table's ops
 * (asm/privileged.h), so what a student sees is the CPU as the running
 * backend presents it - the same path the kernel itself takes.
 */
#include <kernel.h>
#include <shell.h>
#include <asm/cpu.h>
#include <asm/desc_defs.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>

static int cmd_cpu(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cpu_print();
	/* The patcher makes this same choice (arch/x86/paravirt/patch/patch.c). */
	printk("cpu: NOPs: %s\n", cpu_has_long_nops() ?
	       "P6 (0f 1f), the long ones" : "generic (90, 89 f6, 8d 76 00 ...)");
	printk("cpu: CR4 %s, paravirt backend %s\n",
	       boot_cpu.has_cr4 ? "present" : "absent", paravirt_backend_name());
	return 0;
}
shell_command("cpu", cmd_cpu, "", "the CPU, its features, NOPs, the hypervisor");

struct flag_name {
	unsigned long bit;
	const char *name;
};

static const struct flag_name cr0_flags[] = {
	{ X86_CR0_PE, "PE" }, { X86_CR0_MP, "MP" }, { X86_CR0_EM, "EM" },
	{ X86_CR0_TS, "TS" }, { X86_CR0_ET, "ET" }, { X86_CR0_NE, "NE" },
	{ X86_CR0_WP, "WP" }, { X86_CR0_AM, "AM" }, { X86_CR0_NW, "NW" },
	{ X86_CR0_CD, "CD" }, { X86_CR0_PG, "PG" },
};

static const struct flag_name eflags_flags[] = {
	{ X86_EFLAGS_CF, "CF" }, { X86_EFLAGS_ZF, "ZF" }, { X86_EFLAGS_TF, "TF" },
	{ X86_EFLAGS_IF, "IF" }, { X86_EFLAGS_DF, "DF" }, { X86_EFLAGS_NT, "NT" },
	{ X86_EFLAGS_RF, "RF" }, { X86_EFLAGS_VM, "VM" }, { X86_EFLAGS_AC, "AC" },
	{ X86_EFLAGS_ID, "ID" },
};

static void print_flags(const char *reg, unsigned long v,
			const struct flag_name *names, unsigned int n)
{
	unsigned int i;

	printk("  %-6s %08lx ", reg, v);
	for (i = 0; i < n; i++)
		if (v & names[i].bit)
			printk(" %s", names[i].name);
	printk("\n");
}

static void print_table_register(const char *reg, const struct desc_ptr *d)
{
	printk("  %-6s base %08x limit %04x (%u entries)\n", reg, d->address,
	       d->size, (d->size + 1u) / 8);
}

static int cmd_regs(int argc, char **argv)
{
	struct desc_ptr gdtr, idtr;
	unsigned long eflags = raw_local_save_flags();

	(void)argc;
	(void)argv;
	print_flags("cr0", read_cr0(), cr0_flags, ARRAY_SIZE(cr0_flags));
	printk("  %-6s %08lx  (the last page-fault address)\n", "cr2", read_cr2());
	printk("  %-6s %08lx  (the page directory)\n", "cr3", read_cr3());
	if (boot_cpu.has_cr4)
		printk("  %-6s %08lx\n", "cr4", read_cr4());
	else
		printk("  %-6s absent on this CPU\n", "cr4");
	print_flags("eflags", eflags, eflags_flags, ARRAY_SIZE(eflags_flags));
	store_gdt(&gdtr);
	store_idt(&idtr);
	print_table_register("gdtr", &gdtr);
	print_table_register("idtr", &idtr);
	printk("  %-6s %04lx\n", "tr", store_tr());
	return 0;
}
shell_command("regs", cmd_regs, "", "cr0-cr4, eflags, gdtr, idtr, tr (through the table)");

static int msr_read(u32 msr)
{
	u64 v;

	if (rdmsr_safe(msr, &v)) {
		printk("msr: reading MSR 0x%x faulted: this CPU has no such MSR\n", msr);
		return -EFAULT;
	}
	printk("msr 0x%x = 0x%016llx\n", msr, v);
	return 0;
}

static int msr_write(u32 msr, u64 v)
{
	if (wrmsr_safe(msr, v)) {
		printk("msr: writing 0x%llx to MSR 0x%x faulted: no such MSR, or a "
		       "value it refuses\n", v, msr);
		return -EFAULT;
	}
	printk("msr 0x%x <- 0x%016llx\n", msr, v);
	return 0;
}

static int cmd_msr(int argc, char **argv)
{
	u64 msr, v;

	if (argc < 2 || argc > 3) {
		printk("usage: msr N [VALUE]\n");
		return -EINVAL;
	}
	if (shell_parse_number("msr", argv[1], &msr) ||
	    (argc == 3 && shell_parse_number("msr", argv[2], &v)))
		return -EINVAL;
	if (msr > 0xffffffffull) {
		printk("msr: MSR numbers are 32 bits\n");
		return -EINVAL;
	}
	if (!cpu_has(X86_FEATURE_MSR)) {
		printk("msr: this CPU has no MSRs (no rdmsr/wrmsr before the Pentium)\n");
		return -ENODEV;
	}
	return argc == 2 ? msr_read(msr) : msr_write(msr, v);
}
shell_command("msr", cmd_msr, "N [VALUE]", "read or write a model-specific register");
