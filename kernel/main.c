/*
 * main.c - pv386's C entry point: bring the machine up, one subsystem at
 * a time, in an order where each step needs only the ones before it.
 */
#include <kernel.h>
#include <bench.h>
#include <bootinfo.h>
#include <cmdline.h>
#include <console.h>
#include <exec.h>
#include <host.h>
#include <ktest.h>
#include <page_alloc.h>
#include <run.h>
#include <shell.h>
#include <task.h>
#include <asm/apic.h>
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/extable.h>
#include <asm/irq.h>
#include <asm/machine.h>
#include <asm/paging.h>
#include <asm/platform.h>
#include <asm/privileged.h>
#include <asm/smp.h>
#include <asm/fpu.h>
#include <asm/process.h>
#include <asm/syscall.h>
#include <asm/timer.h>
#include <asm/traps.h>

void kmain(const void *multiboot_info) __noreturn;
void boot_bad_magic(u32 magic) __noreturn;

/* The boot thread's work is done: it sleeps for good, and the idle
 * task (sched.c) waits in safe_halt for whatever comes. */
static void __noreturn boot_thread_rest(void)
{
	raw_local_irq_disable();
	for (;;)
		sched_sleep_on(boot_thread_rest);
}

/* The loader's name and the command line come from outside the kernel
 * (a boot menu, a web page's link): shown with cmdline_printable, so that
 * no byte of them drives the terminal on a console.  Static buffers: the
 * boot CPU says this once, before anything else runs. */
static void boot_banner(void)
{
	static char loader[CMDLINE_SHOWN_MAX], line[CMDLINE_SHOWN_MAX];

	printk("pv386: booted by %s, command line '%s'\n",
	       cmdline_printable(loader, sizeof(loader), boot_info.loader),
	       cmdline_printable(line, sizeof(line), boot_info.cmdline));
}

void kmain(const void *multiboot_info)
{
	extable_init();			/* before the first fault it may have to fix */
	platform_init();		/* a PC, or a guest's devices */
	multiboot_parse(multiboot_info);	/* before anything can reuse it */
	cmdline_parse_early(boot_info.cmdline);	/* test, opcount: op counts from here */
	percpu_init_boot_cpu();		/* our own GDT and segments, whatever the loader left;
					   %fs this CPU's area: `current` works from here */
	trap_init();			/* a fault now reaches a handler, not a reset */
	cpu_detect();			/* after trap_init: cpuid may fault; before the
					   backend, whose lock draws depend on it */
	paravirt_choose_backend();	/* pv=, before any site is patched */
	paravirt_patch_init();		/* before anything else runs a patch site */
	platform->console_init();
	boot_banner();
	paravirt_backend_report();
	paravirt_patch_report();
	cmdline_parse(boot_info.cmdline);
	cpu_print();
	cpu_setup();
	smp_find_cpus();		/* before paging: the tables lie anywhere */
	memory_print();
	page_alloc_init();
	paging_init();
	fpu_init();
	pmc_init();
	platform->irq_init();
	task_init();
	sched_init();
	timer_init(sched_tick, sched_wake_due);
	syscall_init();
	cpu_print_control_registers();
	raw_local_irq_enable();
	timer_check();
	apic_init();			/* more than one CPU: its timer, after the PIT's */
	ipi_init();
	/* The APs last: they need paging, the local APIC and the timer's
	 * delays; and boot patching (paravirt_patch_init) is long done, so
	 * no CPU ever runs a site the boot patcher is writing. */
	smp_boot_cpus();
	printk("pv386 ready: backend=%s cpu=%s family %u model %u (%s) cpus=%u\n",
	       paravirt_backend_name(), boot_cpu.vendor, boot_cpu.family,
	       boot_cpu.model, boot_cpu.name, smp.running);
	if (ktest_requested())
		ktest_run_all();
	if (bench_requested())
		bench_run();
	programs_print();
	run_programs();
	guest_boot();			/* guest=: in a host thread of its own */
	if (!ktest_requested() && !bench_requested())
		shell_run();
	boot_thread_rest();	/* a test run on a machine it could not leave */
}

/* Called by _start when EAX does not hold the Multiboot magic: the
 * loader is not Multiboot, and nothing it left can be trusted. */
void boot_bad_magic(u32 magic)
{
	platform->console_init();
	printk("pv386: not started by a Multiboot loader: EAX=%08x, expected 2badb002.\n"
	       "pv386: boot this kernel with GRUB (multiboot) or qemu -kernel. Halted.\n",
	       magic);
	machine_halt();
}
