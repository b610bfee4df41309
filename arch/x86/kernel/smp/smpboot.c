/*
 * smpboot.c - starting the application processors (APs): each CPU to use
 * besides the boot one gets a cpu number and a stack, is sent INIT and
 * STARTUP messages through its local APIC, runs the trampoline
 * (trampoline.S) from real mode into ap_entry() here, and joins the
 * scheduler.
 *
 * The sequence is the "universal start-up algorithm" of Intel's MP
 * specification (appendix B.4) and SDM vol. 3, 8.4.4.1: INIT, wait
 * 10 ms, STARTUP, wait 200 us, a second STARTUP if the AP has not
 * answered.  The specification gives no bound for the AP's answer; the
 * boot CPU waits as long as Linux does (arch/x86/kernel/smpboot.c,
 * do_boot_cpu: "Wait 10s total for first sign of life from AP"), then
 * as long again for the AP to be ready.  Emulators and hypervisors run
 * an AP when their host gets to its thread: 100 ms, the wait before,
 * left CPUs out on a loaded host.
 *
 * An AP given up on may still come: QEMU keeps the INIT and the STARTUP
 * as pending requests of the vCPU, so one whose thread did not run takes
 * both later, and the INIT sent to stop it does not undo the STARTUP.
 * So nothing the AP reads is written again once it may read it - each AP
 * has a block of its own in the trampoline page, found by its APIC id,
 * and its stack and per-CPU area are never reused - and one word in its
 * block decides, by compare-and-swap, whether it is in (asm/trampoline.h,
 * AP_WAITING ... AP_LATE).  A late AP finds the word given up and halts,
 * having written only that word.
 *
 * An AP then loads its per-CPU area, starts its local timer and runs its
 * idle task's loop on that task's stack: from there the scheduler gives
 * it tasks from the one run queue like the boot CPU's.  Everything
 * privileged it does in C goes through the ops table - the boot patcher ran long before, with no other CPU
 * running (Linux's rule too), and the table is shared; the trampoline
 * alone enters protected mode and turns paging on by itself.
 */
#include <arch_door.h>
#include <bootinfo.h>
#include <task.h>
#include <asm/apic.h>
#include <asm/atomic.h>
#include <asm/cpu.h>
#include <asm/paging.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/smp.h>
#include <asm/spinlock.h>
#include <asm/timer.h>
#include <asm/trampoline.h>

#define AP_STACK_PAGES	KSTACK_PAGES	/* its idle task's kernel stack */
#define INIT_WAIT_US	10000		/* INIT to the first STARTUP */
#define STARTUP_WAIT_US	200		/* after each STARTUP */
#define CALL_IN_WAIT_TICKS (10 * HZ)	/* for its first sign of life: Linux's */
#define ONLINE_WAIT_TICKS (10 * HZ)	/* then for it to be ready */
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
_Static_assert(__builtin_offsetof(struct trampoline_block, apic_id) == TRAMPOLINE_BLOCK_APIC_ID &&
	       __builtin_offsetof(struct trampoline_block, state) == TRAMPOLINE_BLOCK_STATE,
	       "trampoline.S finds its block and calls in there");
_Static_assert(sizeof(struct trampoline_block) <= TRAMPOLINE_BLOCK_SIZE,
	       "trampoline.S has room for the block");
_Static_assert(sizeof(struct trampoline_header) == TRAMPOLINE_HEADER_SIZE &&
	       __builtin_offsetof(struct trampoline_header, apic_id_reg) ==
	       TRAMPOLINE_HEADER_SIZE + TRAMPOLINE_HEADER_APIC_ID_REG &&
	       __builtin_offsetof(struct trampoline_header, held_apic_id) ==
	       TRAMPOLINE_HEADER_SIZE + TRAMPOLINE_HEADER_HELD_APIC_ID &&
	       __builtin_offsetof(struct trampoline_header, release) ==
	       TRAMPOLINE_HEADER_SIZE + TRAMPOLINE_HEADER_RELEASE,
	       "trampoline.S reads the header there");

struct smp_ap_said smp_ap_said[NR_CPUS];

/* Set by the AP once it counted itself online, read by the boot CPU. */
static u32 ap_published[NR_CPUS];

/* Test hooks (asm/smp.h): only in-kernel tests set them, at boot. */
struct smp_start_hooks smp_start_hooks = { SMP_NO_APIC_ID, SMP_NO_APIC_ID };

/* ---- the AP's side ---- */

/* Move *state from `from` to `to`: whether this side won.  cmpxchg is
 * a 486's, but only a machine with an APIC, a 486 or later, starts APs. */
static bool ap_state_move(u32 *state, u32 from, u32 to)
{
	return cmpxchg(state, from, to) == from;
}

/* Too late: the boot CPU counts this CPU out.  Only its own block says
 * so; interrupts are still off: nothing wakes it. */
static void __noreturn ap_halt_for_good(struct trampoline_block *block)
{
	__atomic_store_n(&block->state, AP_LATE, __ATOMIC_SEQ_CST);
	for (;;)
		halt();
}

/*
 * The AP's C entry, from ap_start32 with paging on, called in on its own
 * block, which the boot CPU no longer writes.  Before it is online it
 * sets up only what is its own (its per-CPU area, its APIC, its stack),
 * so that losing the place now harms nobody; once ONLINE it publishes.
 */
static void __noreturn ap_entry(struct trampoline_block *block)
{
	unsigned int cpu = block->cpu;

	percpu_load_this_cpu(cpu);	/* before any other op: %fs */
	this_cpu_write(current_task, this_cpu_read(idle_task));
	load_idt(&block->idtr);	/* one IDT for every CPU */
	apic_init_this_cpu();
	if (!ap_state_move(&block->state, AP_CALLED_IN, AP_ONLINE))
		ap_halt_for_good(block);
	smp_ap_said[cpu].apic_id = apic_this_cpu_id();
	smp_ap_said[cpu].cpu = cpu;
	atomic_add(&smp.running, 1);
	cpumask_set_atomic(&smp_online_mask, cpu);
	atomic_add(&smp_nr_online, 1);
	__atomic_store_n(&ap_published[cpu], 1, __ATOMIC_SEQ_CST);
	apic_timer_start_this_cpu();
	sched_run_idle();	/* interrupts on: it is a CPU like the boot one */
}

/* ---- the boot CPU's side ---- */

/* Whether *state still reads `value`. */
static bool state_is(const u32 *state, u32 value)
{
	return __atomic_load_n(state, __ATOMIC_SEQ_CST) == value;
}

/*
 * Wait us microseconds (below a second), or less once *state (non-NULL)
 * no longer reads `value`.  The PIT's counter is read, not its ticks
 * counted, so that 200 us can be measured at any HZ: it counts down
 * from the divisor PIT_HZ times a second and starts again.  A read
 * missed for a whole period (a long interrupt) only makes the wait
 * longer.
 */
static void pit_wait_while(const u32 *state, u32 value, unsigned int us)
{
	u32 need = us * ((PIT_HZ + 999) / 1000) / 1000 + 1;
	u32 divisor = timer_divisor(), last = timer_read_count(), now, passed = 0;

	while (passed < need && (!state || state_is(state, value))) {
		now = timer_read_count();
		passed += now <= last ? last - now : last + divisor - now;
		last = now;
	}
}

/* Wait up to `ticks` clock ticks (interrupts are on) while *state reads
 * `value`: whether it moved on. */
static bool tick_wait_while(const u32 *state, u32 value, unsigned long ticks)
{
	unsigned long start = timer_ticks();

	while (state_is(state, value) && timer_ticks() - start < ticks)
		cpu_relax();
	return !state_is(state, value);
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

/* Where the trampoline's copy keeps its header and cpu's block. */
static struct trampoline_header *trampoline_header(void)
{
	return (struct trampoline_header *)(TRAMPOLINE_PHYS + (trampoline_blocks - trampoline_start) -
					    TRAMPOLINE_HEADER_SIZE);
}

static struct trampoline_block *trampoline_block_of(unsigned int cpu)
{
	return (struct trampoline_block *)(TRAMPOLINE_PHYS + (trampoline_blocks - trampoline_start) +
					   cpu * TRAMPOLINE_BLOCK_SIZE);
}

/* The copy, its GDT's base and header, and every block naming no APIC
 * id: written before any STARTUP, never again. */
static void trampoline_copy(void)
{
	struct trampoline_header *h = trampoline_header();
	unsigned int cpu;

	memcpy((void *)TRAMPOLINE_PHYS, trampoline_start, trampoline_end - trampoline_start);
	*(u32 *)(TRAMPOLINE_PHYS + (trampoline_gdtr - trampoline_start) + 2) =
		TRAMPOLINE_PHYS + (trampoline_gdt - trampoline_start);
	h->apic_id_reg = (smp.tables.lapic_addr ? smp.tables.lapic_addr : APIC_DEFAULT_PHYS) + APIC_ID;
	h->held_apic_id = smp_start_hooks.held_late_apic_id;
	for_each_possible_cpu(cpu)	/* a block each (TRAMPOLINE_BLOCKS) */
		trampoline_block_of(cpu)->apic_id = SMP_NO_APIC_ID;
}

/*
 * cpu's block, filled before its INIT: what the AP takes over.  Its APIC
 * id last, which makes the block findable - by that AP only, which has
 * not been sent a STARTUP yet.
 */
static struct trampoline_block *fill_block(unsigned int cpu, u32 stack)
{
	struct trampoline_block *b = trampoline_block_of(cpu);

	b->stack_top = stack + AP_STACK_PAGES * PAGE_SIZE;
	b->entry = ap_entry;
	b->cr0 = read_cr0();
	b->cr3 = (u32)kernel_page_dir;
	b->has_cr4 = boot_cpu.has_cr4;
	b->cr4 = boot_cpu.has_cr4 ? read_cr4() : 0;
	b->cpu = cpu;
	b->state = AP_WAITING;
	store_gdt(&b->gdtr);
	store_idt(&b->idtr);
	__atomic_store_n(&b->apic_id, smp.cpu[cpu].apic_id, __ATOMIC_SEQ_CST);
	return b;
}

/*
 * The hook held_late_apic_id: its AP, held in the trampoline since its
 * STARTUP, goes on only once the boot CPU has given up on it, at the
 * worst moment - as the next CPU starts (or at the end).  It is not sent
 * the INIT that would stop it: in QEMU that INIT does not stop an AP
 * whose thread had not run yet (see the top of this file).
 */
static bool held_ap_given_up;

static void release_held_ap(void)
{
	if (!held_ap_given_up)
		return;
	__atomic_store_n(&trampoline_header()->release, 1, __ATOMIC_SEQ_CST);
	held_ap_given_up = false;
}

bool smp_ap_came_late(unsigned int cpu)
{
	return cpu < smp.nr_numbered && smp.cpu[cpu].state == SMP_CPU_LEFT_OUT &&
	       state_is(&trampoline_block_of(cpu)->state, AP_LATE);
}

int smp_held_cpu(void)
{
	unsigned int cpu;

	for (cpu = 1; cpu < smp.nr_numbered; cpu++)
		if (smp.cpu[cpu].apic_id == smp_start_hooks.held_late_apic_id)
			return cpu;
	return -1;
}

/* INIT, 10 ms, STARTUP, 200 us, and STARTUP again if it has not called
 * in: whether the APIC delivered every message (never_start_apic_id's
 * CPU is sent no STARTUP). */
static bool send_startup(struct trampoline_block *b, unsigned int apic_id)
{
	unsigned int try;

	if (apic_send_init(apic_id))
		return false;
	pit_wait_while(NULL, 0, INIT_WAIT_US);
	for (try = 0; try < STARTUP_TRIES && apic_id != smp_start_hooks.never_start_apic_id;
	     try++) {
		if (apic_send_startup(apic_id, TRAMPOLINE_PHYS))
			return false;
		pit_wait_while(&b->state, AP_WAITING, STARTUP_WAIT_US);
		if (!state_is(&b->state, AP_WAITING))
			break;
	}
	return true;
}

/*
 * CPU cpu's per-CPU area and idle task, built on the boot CPU before its
 * start: the stack the AP starts on is its idle task's kernel stack
 * (0 if either could not be made).  A CPU left out keeps both: it may
 * yet be running on that stack, and its idle task, pid 0 and marked as
 * on its CPU, is never picked by another.
 */
static u32 ap_prepare(unsigned int cpu, unsigned int apic_id)
{
	struct task *idle;

	if (percpu_setup_ap(cpu, apic_id))
		return 0;
	idle = sched_create_idle(cpu);
	return idle ? idle->kstack : 0;
}

/* The boot CPU's wait is over: whether it gave the place up (the AP had
 * not called in, or had not gone online yet). */
static bool give_up(struct trampoline_block *b)
{
	return ap_state_move(&b->state, AP_WAITING, AP_GIVEN_UP) ||
	       ap_state_move(&b->state, AP_CALLED_IN, AP_GIVEN_UP);
}

/* Start one AP and wait for it: whether it came online. */
static bool start_ap(unsigned int cpu)
{
	unsigned int apic_id = smp.cpu[cpu].apic_id;
	u32 stack = ap_prepare(cpu, apic_id);
	struct trampoline_block *b;
	bool delivered;

	if (!stack) {
		printk("smp: no memory for CPU %u's per-CPU area or idle task; left out\n", cpu);
		return false;
	}
	b = fill_block(cpu, stack);
	release_held_ap();
	delivered = send_startup(b, apic_id);
	if (delivered && tick_wait_while(&b->state, AP_WAITING, CALL_IN_WAIT_TICKS))
		tick_wait_while(&b->state, AP_CALLED_IN, ONLINE_WAIT_TICKS);
	if (!give_up(b)) {
		/* It went online, perhaps just now: it counts itself in a
		 * few stores from now. */
		while (!__atomic_load_n(&ap_published[cpu], __ATOMIC_SEQ_CST))
			cpu_relax();
		return true;
	}
	/*
	 * Stop it where INIT can: back to waiting for a STARTUP that never
	 * comes.  Whether or not it does, the AP finds its place given up
	 * if it comes, and its stack and per-CPU area stay its own.
	 */
	held_ap_given_up = apic_id == smp_start_hooks.held_late_apic_id;
	if (!held_ap_given_up)	/* as QEMU, see release_held_ap */
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
	trampoline_copy();
	number_cpus();
	per_cpu(0)->apic_id = smp.boot_apic_id;	/* unknown when CPU 0's area was made */
	for (cpu = 1; cpu < smp.nr_numbered; cpu++)
		smp.cpu[cpu].state = start_ap(cpu) ? SMP_CPU_RUNNING : SMP_CPU_LEFT_OUT;
	release_held_ap();
	printk("smp: %u CPU%s running\n", smp.running, smp.running == 1 ? "" : "s");
}
