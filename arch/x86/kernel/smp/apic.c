/*
 * apic.c - the local APIC (asm/apic.h): each CPU's own interrupt
 * controller, its timer, and the inter-processor interrupts.
 *
 * Used only where more than one CPU is to be used (smp.to_use > 1): a
 * machine of one CPU - every 486, a guest, `nosmp`, QEMU -smp 1 -
 * keeps the 8259 PIC and the PIT exactly as before, and apic_present()
 * stays false.  Where it is used, the boot CPU's APIC runs in virtual
 * wire mode (LINT0 as ExtINT: the 8259's interrupts still arrive, as
 * before), and its timer, calibrated against the PIT, gives the
 * scheduler its tick; the PIT keeps the clock (drivers/timer.c).
 *
 * Every register access is one of the two paravirt ops apic_read and
 * apic_write (asm/privileged.h), at an offset in the page that apic_init
 * maps uncached at APIC_VIRT_BASE.  The registers are Intel SDM vol. 3,
 * chapter 10; the start-up messages its section 8.4.4.
 */
#include <kernel.h>
#include <math64.h>
#include <sort.h>
#include <asm/apic.h>
#include <asm/paging.h>
#include <asm/platform.h>
#include <asm/privileged.h>
#include <asm/smp.h>
#include <asm/timer.h>
#include <asm/traps.h>
#include <asm/percpu.h>

/* Reads of the ICR before a message counts as never delivered.  QEMU
 * delivers at once; real hardware within microseconds, a few hundred
 * reads of uncached memory.  This is some milliseconds at worst. */
#define ICR_WAIT_READS		100000
/* The timer's rate is measured CALIBRATION_WINDOWS times, each over an
 * eighth of a period of the PIT (apic_timer_measure_rate). */
#define CALIBRATION_WINDOWS	31
#define CALIBRATION_WINDOW_PART	8
/* Two measurements agree when within 1/CALIBRATION_AGREE of each other. */
#define CALIBRATION_AGREE	100
#define ONE_MEGABYTE		0x100000u

static bool present;
static u32 timer_rate;		/* timer input clocks a second, after /16 */
static u32 timer_count;		/* its initial count: one tick at timer_hz() */
static unsigned long local_timer_ticks[NR_CPUS], spurious_interrupts;

bool apic_present(void)
{
	return present;
}

unsigned int apic_this_cpu_id(void)
{
	return apic_read(APIC_ID) >> 24;
}

unsigned int apic_version(void)
{
	return apic_read(APIC_VERSION) & 0xff;
}

/* Whether vector's interrupt is in service: delivered, not yet EOI'd. */
bool apic_in_service(unsigned int vector)
{
	return apic_read(APIC_ISR + 0x10 * (vector / 32)) & (1u << (vector % 32));
}

/* The interrupt in service is done: any value, written to EOI. */
void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

u32 apic_timer_hz(void)
{
	return timer_rate;
}

u32 apic_timer_initial_count(void)
{
	return timer_count;
}

/* Every CPU's local timer interrupts so far. */
unsigned long apic_timer_ticks(void)
{
	unsigned long n = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		n += local_timer_ticks[cpu];
	return n;
}

unsigned long apic_timer_ticks_this_cpu(void)
{
	return local_timer_ticks[smp_processor_id()];
}

unsigned long apic_spurious_count(void)
{
	return spurious_interrupts;
}

/* ---- the interrupt command register ---- */

/* 0 once the APIC has accepted the last message (delivery status idle),
 * -ETIMEDOUT if it never does. */
static int wait_icr_idle(void)
{
	unsigned int i;

	for (i = 0; i < ICR_WAIT_READS; i++)
		if (!(apic_read(APIC_ICR_LOW) & APIC_ICR_PENDING))
			return 0;
	return -ETIMEDOUT;
}

/*
 * Send one message: the destination into the high half first, because
 * writing the low half is what sends.  Interrupts off, so that no
 * handler's IPI lands between the two writes; the previous message must
 * be gone before this one is written (SDM: the ICR holds one).
 */
static int send_icr(unsigned int apic_id, u32 low)
{
	unsigned long flags = raw_local_irq_save();
	int err = wait_icr_idle();

	if (!err) {
		apic_write(APIC_ICR_HIGH, apic_id << 24);
		apic_write(APIC_ICR_LOW, low);
		err = wait_icr_idle();
	}
	raw_local_irq_restore(flags);
	return err;
}

void apic_send_ipi(unsigned int apic_id, unsigned int vector)
{
	send_icr(apic_id, APIC_ICR_FIXED | APIC_ICR_ASSERT | vector);
}

void apic_send_ipi_all_but_self(unsigned int vector)
{
	send_icr(0, APIC_ICR_ALL_BUT_SELF | APIC_ICR_FIXED | APIC_ICR_ASSERT | vector);
}

/* INIT, level-triggered: asserted, then de-asserted (SDM vol. 3, 8.4.4;
 * the de-assert is what the P6 and Pentium wanted, later CPUs ignore
 * it).  The 10 ms before the first STARTUP is the caller's. */
int apic_send_init(unsigned int apic_id)
{
	int err = send_icr(apic_id, APIC_ICR_INIT | APIC_ICR_LEVEL | APIC_ICR_ASSERT);

	if (err)
		return err;
	return send_icr(apic_id, APIC_ICR_INIT | APIC_ICR_LEVEL);
}

/* STARTUP: the AP begins in real mode at vector << 12, so the
 * trampoline must be a page below 1 MiB. */
int apic_send_startup(unsigned int apic_id, u32 trampoline_phys)
{
	if (trampoline_phys & ~PAGE_MASK || trampoline_phys >= ONE_MEGABYTE)
		return -EINVAL;
	return send_icr(apic_id, APIC_ICR_STARTUP | (trampoline_phys >> 12));
}

/* ---- interrupts ---- */

/* The spurious vector: an interrupt the APIC withdrew before the CPU
 * took it.  Nothing is in service, so no EOI (SDM vol. 3, 10.9). */
static void spurious_interrupt(struct pt_regs *regs)
{
	(void)regs;
	spurious_interrupts++;
}

/* A CPU's local timer: its scheduler's tick, counted in the CPU's own
 * slot (no locked add needed); the EOI first, since the tick may end in
 * a task switch on the way out. */
static void local_timer_interrupt(struct pt_regs *regs)
{
	(void)regs;
	local_timer_ticks[smp_processor_id()]++;	/* each CPU its own */
	apic_eoi();
	timer_local_tick();
}

/* ---- one CPU's APIC ---- */

/*
 * Enable the APIC of the CPU running this: every vector let in (TPR 0),
 * the software enable with the spurious vector, LINT1 as NMI.  LINT0 as
 * ExtINT on the boot CPU only: the 8259's interrupts reach it as before
 * (virtual wire mode, MP spec 3.6.2.2); an AP's is masked.  Errors and
 * the timer stay masked until asked for.
 */
void apic_init_this_cpu(void)
{
	bool boot = apic_this_cpu_id() == smp.boot_apic_id;

	apic_write(APIC_TPR, 0);
	apic_write(APIC_SVR, APIC_SVR_ENABLE | APIC_SPURIOUS_VECTOR);
	apic_write(APIC_LVT_LINT0, boot ? APIC_LVT_EXTINT : APIC_LVT_MASKED);
	apic_write(APIC_LVT_LINT1, APIC_LVT_NMI);
	apic_write(APIC_LVT_ERROR, APIC_LVT_MASKED);
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED | APIC_TIMER_VECTOR);
	apic_write(APIC_ESR, 0);	/* clears what firmware left */
}

/* This CPU's timer, periodic at timer_hz(), on APIC_TIMER_VECTOR. */
void apic_timer_start_this_cpu(void)
{
	apic_write(APIC_TIMER_DIV, APIC_TIMER_DIV_16);
	apic_write(APIC_LVT_TIMER, APIC_LVT_TIMER_PERIODIC | APIC_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, timer_count);
}

void apic_timer_stop_this_cpu(void)
{
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED | APIC_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, 0);
}

/* The timer's count and the PIT's, read together: interrupts off, so
 * that nothing comes between the two reads. */
static void read_with_pit(u32 *count, unsigned int *pit)
{
	unsigned long flags = raw_local_irq_save();

	*pit = timer_read_count();
	*count = apic_read(APIC_TIMER_NOW);
	raw_local_irq_restore(flags);
}

/* PIT input clocks from count from to count to, less than a period
 * apart: the PIT counts down from its divisor and starts again. */
static unsigned int pit_clocks(unsigned int from, unsigned int to)
{
	unsigned int divisor = timer_divisor();

	return (from + divisor - to) % divisor;
}

/*
 * One measurement of the timer's rate (counts a second): how far it
 * counts down while the PIT's counter runs window of its input clocks
 * (less than a period), both counters read, not their interrupts.  A
 * loaded host delivers the PIT's interrupts late or drops them (a vCPU
 * not run for 10 ms misses a tick), but the counters always say how far
 * they are.  A host that does not run this CPU for the rest of the
 * period in between makes the PIT's count seem whole periods shorter,
 * and the rate too high: a wild measurement, which lowest_agreed()
 * leaves out.  0 if the PIT's counter does not move in two of its ticks.
 */
static u64 rate_over(unsigned int window)
{
	unsigned long start = timer_ticks();
	unsigned int pit0, pit;
	u32 apic0, apic;
	u64 rate;

	read_with_pit(&apic0, &pit0);
	do {
		read_with_pit(&apic, &pit);
		if (timer_ticks() - start > 2)
			return 0;
	} while (pit_clocks(pit0, pit) < window);
	rate = (u64)(apic0 - apic) * PIT_HZ;
	div64_u32_rem(&rate, pit_clocks(pit0, pit));
	return rate;
}

/*
 * Of n measurements, the lowest that another one agrees with: a window
 * the host spoiled reads too high by a share of a period it lost, a
 * different share each time, while the undisturbed ones agree with each
 * other to a few counts.  The median if no two agree.
 */
static u64 lowest_agreed(u64 *rates, unsigned int n)
{
	unsigned int i;

	sort_u64(rates, n);
	for (i = 0; i + 1 < n; i++)
		if (rates[i] && rates[i + 1] - rates[i] <= rates[i] / CALIBRATION_AGREE)
			return rates[i];
	return rates[n / 2];
}

u64 apic_timer_measure_rate(void)
{
	u64 rates[CALIBRATION_WINDOWS];
	unsigned int i;

	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED | APIC_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, 0xffffffffu);
	for (i = 0; i < CALIBRATION_WINDOWS; i++)
		rates[i] = rate_over(timer_divisor() / CALIBRATION_WINDOW_PART);
	apic_write(APIC_TIMER_INIT, 0);
	return lowest_agreed(rates, CALIBRATION_WINDOWS);
}

/* The timer's rate at its divider of 16; 0 if it did not count at all,
 * or beyond 32 bits. */
static u32 calibrate_timer(void)
{
	u64 rate;

	apic_write(APIC_TIMER_DIV, APIC_TIMER_DIV_16);
	rate = apic_timer_measure_rate();
	return rate > 0xffffffffu ? 0 : (u32)rate;
}

/* ---- at boot ---- */

/* The machine's APIC page, mapped where the ops look for it. */
static u32 map_apic_page(void)
{
	u32 phys = smp.tables.lapic_addr ? smp.tables.lapic_addr : APIC_DEFAULT_PHYS;

	kernel_map_mmio(APIC_VIRT_BASE, phys);
	return phys;
}

/* Only where a second CPU is to be used: see the top of this file.  Runs
 * with interrupts on and the PIT ticking (after timer_check). */
void apic_init(void)
{
	unsigned long flags;
	u32 phys;

	if (platform != &pc_platform || smp.to_use < 2)
		return;
	phys = map_apic_page();
	set_intr_handler(APIC_SPURIOUS_VECTOR, spurious_interrupt);
	set_intr_handler(APIC_TIMER_VECTOR, local_timer_interrupt);
	flags = raw_local_irq_save();
	apic_init_this_cpu();
	present = true;
	raw_local_irq_restore(flags);
	timer_rate = calibrate_timer();
	if (timer_rate < timer_hz()) {
		printk("apic: local APIC id %u version 0x%02x at %08x, its timer does not "
		       "count: the tick stays on the PIT\n", apic_this_cpu_id(),
		       apic_version(), phys);
		return;
	}
	timer_count = timer_rate / timer_hz();
	timer_sched_tick_from_local();
	apic_timer_start_this_cpu();
	printk("apic: local APIC id %u version 0x%02x at %08x, timer %u kHz (bus/16, "
	       "calibrated against the PIT), scheduler tick from the APIC timer "
	       "(count %u), clock from the PIT\n", apic_this_cpu_id(), apic_version(),
	       phys, timer_rate / 1000, timer_count);
}
