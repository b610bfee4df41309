/*
 * main.c - pv386's C entry point: bring the machine up, one subsystem at
 * a time, in an order where each step needs only the ones before it.
 */
#include <kernel.h>
#include <bench.h>
#include <bootinfo.h>
#include <cmdline.h>
#include <console.h>
#include <ktest.h>
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/irq.h>
#include <asm/machine.h>
#include <asm/paging.h>
#include <asm/privileged.h>
#include <asm/timer.h>
#include <asm/traps.h>

void kmain(const void *multiboot_info) __noreturn;
void boot_bad_magic(u32 magic) __noreturn;

static void console_init(void)
{
	serial_init();
	vga_init();
}

/* Nothing left to do: sleep until the next interrupt, forever. */
static void __noreturn cpu_idle(void)
{
	for (;;)
		raw_safe_halt();
}

void kmain(const void *multiboot_info)
{
	gdt_init();			/* our own segments, whatever the loader left */
	trap_init();			/* a fault now reaches a handler, not a reset */
	multiboot_parse(multiboot_info);	/* before anything can reuse it */
	cmdline_parse_early(boot_info.cmdline);
	paravirt_patch_init();		/* before anything else runs a patch site */
	console_init();
	printk("pv386: booted by %s, command line '%s'\n",
	       boot_info.loader, boot_info.cmdline);
	paravirt_report();
	cmdline_parse(boot_info.cmdline);
	cpu_detect();
	cpu_print();
	memory_print();
	paging_init();
	pic_init();
	timer_init();
	raw_local_irq_enable();
	printk("pv386 ready: backend=%s cpu=%s family %u model %u (%s)\n",
	       paravirt_backend_name(), boot_cpu.vendor, boot_cpu.family,
	       boot_cpu.model, boot_cpu.name);
	if (ktest_requested())
		ktest_run_all();
	if (bench_requested())
		bench_run();
	cpu_idle();
}

/* Called by _start when EAX does not hold the Multiboot magic: the
 * loader is not Multiboot, and nothing it left can be trusted. */
void boot_bad_magic(u32 magic)
{
	console_init();
	printk("pv386: not started by a Multiboot loader: EAX=%08x, expected 2badb002.\n"
	       "pv386: boot this kernel with GRUB (multiboot) or qemu -kernel. Halted.\n",
	       magic);
	machine_halt();
}
