/*
 * smpboot.c - starting the application processors (APs): each CPU to use
 * besides the boot one gets a cpu number and a stack, is sent INIT and
 * STARTUP messages through its local APIC, runs the trampoline
 * (trampoline.S) from real mode into ap_entry() here, and parks.
 *
 * The sequence is the "universal start-up algorithm" of Intel's MP
 * specification (appendix B.4) and SDM vol. 3, 8.4.4.1: INIT, wait
 * 10 ms, STARTUP, wait 200 us, a second STARTUP if the AP has not
 * answered.  The boot CPU then waits at most 100 ms for it to say it is
 * online; one that does not is named in the boot log, sent INIT again
 * (which stops it, should it only be late, before the next AP's block
 * is written where it would read its own) and left out.  The kernel
 * goes on with the others.
 *
 * An AP does not yet run tasks: there is no idle task or scheduler of
 * its own, so it parks with interrupts off (below) until the kernel can
 * give it work.  Everything privileged it does in C goes through the
 * ops table - the boot patcher ran long before, with no other CPU
 * running (Linux's rule too), and the table is shared; the trampoline
 * alone enters protected mode and turns paging on by itself.
 */
#include <kernel.h>
#include <bootinfo.h>
#include <cmdline.h>
#include <page_alloc.h>
#include <string.h>
#include <asm/apic.h>
#include <asm/cpu.h>
#include <asm/paging.h>
#include <asm/privileged.h>
#include <asm/smp.h>
#include <asm/timer.h>
#include <asm/trampoline.h>

#define AP_STACK_PAGES	2		/* 8 KiB, as a task's kernel stack */
#define INIT_WAIT_US	10000		/* INIT to the first STARTUP */
#define STARTUP_WAIT_US	200		/* after each STARTUP */
#define ONLINE_WAIT_US	100000		/* for the AP to be online */
#define STARTUP_TRIES	2

_Static_assert(__builtin_offsetof(struct trampoline_block, stack_top) ==
	       TRAMPOLINE_BLOCK_STACK, "trampoline.S reads the stack there");
_Static_assert(__builtin_offsetof(struct trampoline_block, entry) ==
	       TRAMPOLINE_BLOCK_ENTRY, "trampoline.S reads the entry there");
_Static_assert(__builtin_offsetof(struct trampoline_block, cr0) == TRAMPOLINE_BLOCK_CR0 &&
	       __builtin_offsetof(struct trampoline_block, cr3) == TRAMPOLINE_BLOCK_CR3 &&
	       __builtin_offsetof(struct trampoline_block, cr4) == TRAMPOLINE_BLOCK_CR4 &&
	       __builtin_offsetof(struct trampoline_block, has_cr4) == TRAMPOLINE_BLOCK_HAS_CR4,
	       "trampoline.S reads the control registers there");
_Static_assert(sizeof(struct trampoline_block) <= TRAMPOLINE_BLOCK_SIZE,
	       "trampoline.S has room for the block");

struct smp_ap_said smp_ap_said[CPU_TABLES_MAX_CPUS];

/* Set by the AP, read by the boot CPU: word stores, read with
 * __atomic_load_n so that the wait loops read memory each time. */
static u32 ap_called_in[CPU_TABLES_MAX_CPUS];	/* it reached C */
static u32 ap_online[CPU_TABLES_MAX_CPUS];	/* it is up and parked */

static unsigned int skip_apic_id = SMP_NO_APIC_ID;

/* A test aid: the CPU that never answers, on demand (tests/suite/smp.py). */
static int parse_smp_skip(const char *value)
{
	unsigned long v;

	if (!value || parse_ulong(value, &v) || v > 0xfe)
		return -EINVAL;
	skip_apic_id = v;
	return 0;
}
boot_option("smp_skip", parse_smp_skip,
	    "test aid: send APIC id N no STARTUP, so it never answers and is left out");

/* ---- the AP's side ---- */

/*
 * Park an AP that is up: interrupts off, halted, for good until the
 * scheduler can use it (only an NMI ends hlt then, hence the loop), as
 * machine_halt() does.  Not safe_halt: with no idle task and no locks
 * of its own, this CPU must take no interrupt yet.  Note for the live
 * backend switch: the CPU sits in the halt op's patch site meanwhile,
 * and an NMI resumes it at the byte after the hlt - a site rewritten in
 * between would be entered in its middle.
 */
static void __noreturn ap_park(void)
{
	for (;;) {
		raw_local_irq_disable();
		halt();
	}
}

/*
 * This CPU's own tables and per-CPU state, first thing, before any op
 * runs on it.  TODO(i27-percpu): percpu_load_this_cpu(cpu) - its GDT,
 * segments with %fs the per-CPU one, TR, LDT (asm/percpu.h, step 2) -
 * then its idle task (step 3).  Until it is merged the AP takes the
 * boot CPU's GDT, whose selectors the trampoline's already are, and no
 * task register: it needs no TSS while it stays in ring 0 and takes no
 * interrupt.
 */
static void ap_load_own_state(const struct trampoline_block *b)
{
	load_gdt(&b->gdtr);
}

/*
 * The AP's C entry, from ap_start32 with paging on.  The block is
 * copied first: the boot CPU fills it again for the next AP once this
 * one has called in.
 */
static void __noreturn ap_entry(const struct trampoline_block *block)
{
	struct trampoline_block b = *block;

	__atomic_store_n(&ap_called_in[b.cpu], 1, __ATOMIC_SEQ_CST);
	ap_load_own_state(&b);
	load_idt(&b.idtr);	/* one IDT for every CPU */
	apic_init_this_cpu();
	smp_ap_said[b.cpu].apic_id = apic_this_cpu_id();
	smp_ap_said[b.cpu].cpu = b.cpu;
	__atomic_add_fetch(&smp.running, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&ap_online[b.cpu], 1, __ATOMIC_SEQ_CST);
	ap_park();
}

/* ---- the boot CPU's side ---- */

/*
 * Wait us microseconds, or less if *flag (non-NULL) becomes non-zero:
 * whether it did.  The PIT's counter is read, not its ticks counted, so
 * that 200 us can be measured at any HZ: it counts down from the
 * divisor PIT_HZ times a second and starts again.  A read missed for a
 * whole period (a long interrupt) only makes the wait longer.
 */
static bool pit_wait(const u32 *flag, unsigned int us)
{
	u32 need = us * ((PIT_HZ + 999) / 1000) / 1000 + 1;
	u32 divisor = timer_divisor(), last = timer_read_count(), now, passed = 0;

	while (passed < need) {
		if (flag && __atomic_load_n(flag, __ATOMIC_SEQ_CST))
			return true;
		now = timer_read_count();
		passed += now <= last ? last - now : last + divisor - now;
		last = now;
	}
	return flag && __atomic_load_n(flag, __ATOMIC_SEQ_CST);
}

/* Whether [TRAMPOLINE_PHYS, +1 page) is RAM that no module occupies. */
static const char *trampoline_page_refused(void)
{
	u32 start = TRAMPOLINE_PHYS, end = start + PAGE_SIZE;
	bool ram = boot_info.has_meminfo && end <= boot_info.mem_lower_kb * 1024;
	unsigned int i;

	for (i = 0; i < boot_info.nr_regions; i++)
		if (boot_info.regions[i].start <= start && boot_info.regions[i].end >= end)
			ram = true;
	if (!ram)
		return "not RAM by the loader's memory information";
	for (i = 0; i < boot_info.nr_modules; i++)
		if (boot_info.modules[i].start < end && boot_info.modules[i].end > start)
			return "a module lies there";
	return NULL;
}

/* Give each CPU to use a cpu number: the boot CPU 0, then the other
 * enabled ones in the table's order, to_use in all. */
static void number_cpus(void)
{
	const struct cpu_tables *t = &smp.tables;
	unsigned int i;

	smp.cpu[0] = (struct smp_cpu){ t->boot_index, smp.boot_apic_id, SMP_CPU_RUNNING };
	smp.nr_numbered = 1;
	for (i = 0; i < t->nr_cpus && smp.nr_numbered < smp.to_use; i++) {
		if (!t->cpu[i].enabled || (int)i == t->boot_index)
			continue;
		smp.cpu[smp.nr_numbered++] = (struct smp_cpu){ i, t->cpu[i].apic_id,
							       SMP_CPU_NOT_STARTED };
	}
}

int smp_cpu_of_table_index(unsigned int index)
{
	unsigned int n;

	for (n = 0; n < smp.nr_numbered; n++)
		if (smp.cpu[n].table_index == index)
			return n;
	return -1;
}

/* The block for cpu, in the trampoline's copy: what the AP takes over. */
static void fill_block(unsigned int cpu, u32 stack)
{
	struct trampoline_block *b = (struct trampoline_block *)
		(TRAMPOLINE_PHYS + (trampoline_block - trampoline_start));

	b->stack_top = stack + AP_STACK_PAGES * PAGE_SIZE;
	b->entry = ap_entry;
	b->cr0 = read_cr0();
	b->cr3 = (u32)kernel_page_dir;
	b->has_cr4 = boot_cpu.has_cr4;
	b->cr4 = boot_cpu.has_cr4 ? read_cr4() : 0;
	b->cpu = cpu;
	b->apic_id = smp.cpu[cpu].apic_id;
	store_gdt(&b->gdtr);
	store_idt(&b->idtr);
}

/* INIT, 10 ms, STARTUP, 200 us, and STARTUP again if it has not called
 * in: whether the APIC delivered every message (smp_skip sends none). */
static bool send_startup(unsigned int cpu, unsigned int apic_id)
{
	unsigned int try;

	if (apic_send_init(apic_id))
		return false;
	pit_wait(NULL, INIT_WAIT_US);
	for (try = 0; try < STARTUP_TRIES && apic_id != skip_apic_id; try++) {
		if (apic_send_startup(apic_id, TRAMPOLINE_PHYS))
			return false;
		if (pit_wait(&ap_called_in[cpu], STARTUP_WAIT_US))
			break;
	}
	return true;
}

/* CPU cpu's per-CPU area, built on the boot CPU before its start: 0 or
 * -ENOMEM.  TODO(i27-percpu): percpu_setup_ap(cpu, apic_id) (asm/
 * percpu.h, step 1). */
static int ap_prepare_own_state(unsigned int cpu, unsigned int apic_id)
{
	(void)cpu;
	(void)apic_id;
	return 0;
}

/* Start one AP and wait for it: whether it came online. */
static bool start_ap(unsigned int cpu)
{
	unsigned int apic_id = smp.cpu[cpu].apic_id;
	u32 stack = pages_alloc(AP_STACK_PAGES);
	bool delivered;

	if (!stack || ap_prepare_own_state(cpu, apic_id)) {
		printk("smp: no memory for CPU %u's stack or per-CPU area; left out\n", cpu);
		return false;
	}
	fill_block(cpu, stack);
	delivered = send_startup(cpu, apic_id);
	if (delivered && pit_wait(&ap_online[cpu], ONLINE_WAIT_US))
		return true;
	/*
	 * Stop it, should it only be slow: an AP still on its way would
	 * read the next AP's block.  After INIT it waits for a STARTUP
	 * that never comes; its stack is kept all the same, since an INIT
	 * the APIC did not deliver stops nothing.
	 */
	apic_send_init(apic_id);
	printk("smp: CPU %u (APIC id %u) did not answer the start-up%s; left out\n",
	       cpu, apic_id, delivered ? "" : " (its APIC did not deliver a message)");
	return false;
}

void smp_boot_cpus(void)
{
	const char *refused;
	unsigned int cpu;

	if (smp.up_reason || smp.to_use < 2)
		return;
	if (!apic_present()) {
		printk("smp: the local APIC is not in use; 1 CPU running\n");
		return;
	}
	refused = trampoline_page_refused();
	if (refused) {
		printk("smp: the start-up page at %05x is %s; 1 CPU running\n",
		       TRAMPOLINE_PHYS, refused);
		return;
	}
	memcpy((void *)TRAMPOLINE_PHYS, trampoline_start, trampoline_end - trampoline_start);
	number_cpus();
	for (cpu = 1; cpu < smp.nr_numbered; cpu++)
		smp.cpu[cpu].state = start_ap(cpu) ? SMP_CPU_RUNNING : SMP_CPU_LEFT_OUT;
	printk("smp: %u CPU%s running\n", smp.running, smp.running == 1 ? "" : "s");
}
