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
 * answered.  The boot CPU then waits at most 100 ms for it to claim its
 * place; one that does not is named in the boot log, sent INIT again
 * (which stops it, should it only be late, before the next AP's block
 * is written where it would read its own) and left out - and if it
 * comes after all, it finds the place given up and halts (ap_claim).
 * The kernel goes on with the others.
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
static u32 ap_published[CPU_TABLES_MAX_CPUS];	/* counted online, said who */

/*
 * Who decides whether an AP is in: the AP, claiming AP_CLAIMED when it
 * is ready, or the boot CPU, giving up (AP_GIVEN_UP) when the wait is
 * over - whichever moves ap_claim from AP_WAITING first (compare and
 * swap).  Without it an AP slower than the wait (a loaded host) came
 * online after it was named left out, and was then sent INIT while
 * counted online.  An AP that loses halts for good, having published
 * nothing.
 */
enum { AP_WAITING, AP_CLAIMED, AP_GIVEN_UP };
static u32 ap_claim[CPU_TABLES_MAX_CPUS];

static unsigned int skip_apic_id = SMP_NO_APIC_ID;
static unsigned int slow_apic_id = SMP_NO_APIC_ID;

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

/* A test aid: the AP that answers too late, once the boot CPU gave up. */
static int parse_smp_slow(const char *value)
{
	unsigned long v;

	if (!value || parse_ulong(value, &v) || v > 0xfe)
		return -EINVAL;
	slow_apic_id = v;
	return 0;
}
boot_option("smp_slow", parse_smp_slow,
	    "test aid: APIC id N claims its place only after the boot CPU gave up on it");

/* ---- the AP's side ---- */

/* Move ap_claim[cpu] from AP_WAITING to to: whether this side won.
 * `lock cmpxchg` by hand: the kernel is built for the 386, which lacks
 * it (GCC would call a library), but only a machine with an APIC, a
 * 486 or later, starts APs. */
static bool ap_claim_move(unsigned int cpu, u32 to)
{
	u32 seen;

	asm volatile("lock cmpxchgl %2, %1"
		     : "=a" (seen), "+m" (ap_claim[cpu])
		     : "r" (to), "0" (AP_WAITING) : "memory");
	return seen == AP_WAITING;
}

/* The AP's claim to be in (smp_slow: only once the boot CPU gave up). */
static bool ap_claim_place(unsigned int cpu, unsigned int apic_id)
{
	if (apic_id == slow_apic_id)
		while (__atomic_load_n(&ap_claim[cpu], __ATOMIC_SEQ_CST) == AP_WAITING)
			cpu_relax();
	return ap_claim_move(cpu, AP_CLAIMED);
}

/* Too late: the boot CPU counts this CPU out and will send it INIT.
 * Interrupts are still off: nothing wakes it. */
static void __noreturn ap_halt_for_good(void)
{
	for (;;)
		halt();
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
	percpu_load_this_cpu(b.cpu);	/* before any other op: %fs */
	this_cpu_write(current_task, this_cpu_read(idle_task));
	load_idt(&b.idtr);	/* one IDT for every CPU */
	apic_init_this_cpu();
	if (!ap_claim_place(b.cpu, b.apic_id))
		ap_halt_for_good();
	smp_ap_said[b.cpu].apic_id = apic_this_cpu_id();
	smp_ap_said[b.cpu].cpu = b.cpu;
	__atomic_add_fetch(&smp.running, 1, __ATOMIC_SEQ_CST);
	__atomic_or_fetch(&smp_online_mask, 1u << b.cpu, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&smp_nr_online, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&ap_published[b.cpu], 1, __ATOMIC_SEQ_CST);
	apic_timer_start_this_cpu();
	sched_run_idle();	/* interrupts on: it is a CPU like the boot one */
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

/* Start one AP and wait for it: whether it came online. */
static bool start_ap(unsigned int cpu)
{
	unsigned int apic_id = smp.cpu[cpu].apic_id;
	u32 stack = ap_prepare(cpu, apic_id);
	bool delivered;

	if (!stack) {
		printk("smp: no memory for CPU %u's per-CPU area or idle task; left out\n", cpu);
		return false;
	}
	fill_block(cpu, stack);
	delivered = send_startup(cpu, apic_id);
	if (delivered)
		pit_wait(&ap_claim[cpu], ONLINE_WAIT_US);
	if (!ap_claim_move(cpu, AP_GIVEN_UP)) {
		/* It claimed its place, perhaps just now: it is in, and
		 * counts itself online in a moment. */
		while (!__atomic_load_n(&ap_published[cpu], __ATOMIC_SEQ_CST))
			cpu_relax();
		return true;
	}
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
	per_cpu(0)->apic_id = smp.boot_apic_id;	/* unknown when CPU 0's area was made */
	for (cpu = 1; cpu < smp.nr_numbered; cpu++)
		smp.cpu[cpu].state = start_ap(cpu) ? SMP_CPU_RUNNING : SMP_CPU_LEFT_OUT;
	printk("smp: %u CPU%s running\n", smp.running, smp.running == 1 ? "" : "s");
}
