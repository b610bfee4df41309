/*
 * cpus.c - the shell's `cpus`: the machine's CPUs as the kernel found
 * them at boot (asm/smp.h), where the list came from, and what each CPU
 * is doing: the boot CPU and each AP that answered its start-up are
 * "running", one that did not is "left out", and
 * one not to be used (nosmp, smp=N) is "not started"; a running CPU's
 * row adds the task it runs now and the reschedule IPIs it received.
 * Then the local APIC of the CPU running the command, where it is set
 * up (asm/apic.h: only with more than one CPU to use).
 */
#include <kernel.h>
#include <shell.h>
#include <string.h>
#include <task.h>
#include <asm/apic.h>
#include <asm/percpu.h>
#include <asm/smp.h>

/* What the CPU of the table's entry i is doing. */
static const char *cpu_state(unsigned int i, const struct fw_cpu *c)
{
	int n = smp_cpu_of_table_index(i);

	if (c->boot)
		return "running";
	if (!c->enabled)
		return "disabled";
	if (n >= 0 && smp.cpu[n].state == SMP_CPU_RUNNING)
		return "running";
	if (n >= 0 && smp.cpu[n].state == SMP_CPU_LEFT_OUT)
		return "left out";
	return "not started";
}

/* What a running CPU runs now, and the IPIs it took.  Read from here
 * without a lock: a moment old, and a task slot stays a task slot. */
static void print_cpu_work(unsigned int n)
{
	const struct task *t = per_cpu(n)->current_task;

	printk(" %4d %-12s %lu", t->pid, t->name, ipi_reschedule_count(n));
}

static void print_cpu(unsigned int i, const struct fw_cpu *c)
{
	/* The boot CPU is CPU 0 whether or not APs were numbered. */
	int n = c->boot ? 0 : smp_cpu_of_table_index(i);
	const char *state = cpu_state(i, c);

	printk("  %-4u %-5u %-5u %-5s %-8s ", i, c->apic_id, c->acpi_id,
	       c->boot ? "yes" : "no", c->enabled ? "yes" : "no");
	if (n >= 0 && !strcmp(state, "running")) {
		printk("%-11s", state);
		print_cpu_work(n);
	} else {
		printk("%s", state);
	}
	printk("\n");
}

/* This CPU's APIC: id and version, its timer's rate and count, the
 * ticks all local timers gave and the spurious interrupts. */
static void print_apic(void)
{
	if (!apic_present()) {
		printk("apic: not set up (one CPU to use: the PIC and the PIT)\n");
		return;
	}
	printk("apic: this CPU's id %u, version 0x%02x; timer %u kHz, count %u; "
	       "local timer ticks %lu, spurious %lu\n", apic_this_cpu_id(), apic_version(),
	       apic_timer_hz() / 1000, apic_timer_initial_count(), apic_timer_ticks(),
	       apic_spurious_count());
}

static int cmd_cpus(int argc, char **argv)
{
	const struct cpu_tables *t = &smp.tables;
	unsigned int i;

	(void)argc;
	(void)argv;
	if (smp.up_reason) {
		printk("cpus: 1 (%s)\n", smp.up_reason);
		if (smp.boot_apic_id != SMP_NO_APIC_ID)
			printk("  cpu 0: boot, APIC id %u, running\n", smp.boot_apic_id);
		else
			printk("  cpu 0: boot, no APIC, running\n");
		return 0;
	}
	printk("cpus: %u enabled of %u listed (%s), local APIC at %08x, %u to use%s%s, "
	       "%u running\n", t->nr_enabled, t->nr_entries, cpu_tables_source_name(t->source),
	       t->lapic_addr, smp.to_use, smp.cap ? " by " : "", smp.cap ? smp.cap : "",
	       smp.running);
	printk("  %-4s %-5s %-5s %-5s %-8s %-11s %4s %-12s %s\n", "cpu", "apic", "acpi",
	       "boot", "enabled", "state", "pid", "task", "ipis");
	for (i = 0; i < t->nr_cpus; i++)
		print_cpu(i, &t->cpu[i]);
	if (t->nr_entries > t->nr_cpus)
		printk("  (%u more listed, not kept)\n", t->nr_entries - t->nr_cpus);
	print_apic();
	return 0;
}
shell_command("cpus", cmd_cpus, "", "the CPUs the firmware lists, and what each is doing");
