/*
 * timer.c - the periodic tick: PIT channel 0 as a rate generator on IRQ 0.
 *
 * The tick rate is HZ (100 unless built otherwise), or the hz= boot option.
 * The counting is here; what ticks is the platform's (asm/platform.h):
 * the PIT on a PC, the host in a guest.
 *
 * Where more than one CPU is to be used, the tick is split as Linux 2.6
 * split it before clockevents: the PIT's interrupt, on the boot CPU
 * only, keeps the clock (timer_ticks()), and each CPU's local APIC
 * timer (arch/x86/kernel/smp/apic.c) gives that CPU its scheduler tick
 * through timer_local_tick().  With one CPU the PIT does both, as ever.
 */
#include <kernel.h>
#include <cmdline.h>
#include <asm/cpu.h>
#include <asm/privileged.h>
#include <asm/io.h>
#include <asm/irq.h>
#include <asm/platform.h>
#include <asm/timer.h>
#include <math64.h>

#define PIT_CH0		0x40
#define PIT_CMD		0x43
#define PIT_MODE2	0x34	/* channel 0, lobyte/hibyte, rate generator */
#define PIT_LATCH_CH0	0x00	/* latch channel 0's count for reading */

_Static_assert(HZ >= 19 && HZ <= 10000, "HZ out of the PIT's range (19-10000)");

static volatile unsigned long ticks;
static void (*tick_handler)(void);	/* the kernel's, given to timer_init */
static void (*clock_handler)(void);	/* ... and what the clock's tick wakes */
static unsigned int hz = HZ;
static u16 divisor;
static bool sched_tick_is_local;	/* each CPU's own timer calls it */

static int parse_hz(const char *value)
{
	unsigned long v;

	/* Below 19 Hz the divisor no longer fits the PIT's 16 bits. */
	if (!value || parse_ulong(value, &v) || v < 19 || v > 10000)
		return -EINVAL;
	hz = v;
	return 0;
}
boot_option("hz", parse_hz, "timer ticks per second (19-10000)");

static void timer_interrupt(struct pt_regs *regs)
{
	(void)regs;
	ticks++;
	if (!sched_tick_is_local)
		tick_handler();
	else
		clock_handler();	/* sleepers wake as the clock says */
}

/* A CPU's local timer ticked: its scheduler's tick (the clock is the
 * PIT's). */
void timer_local_tick(void)
{
	tick_handler();
}

/* From now on the PIT keeps only the clock; the scheduler's tick comes
 * from each CPU's local timer (apic.c, once the boot CPU's runs). */
void timer_sched_tick_from_local(void)
{
	sched_tick_is_local = true;
}

bool timer_sched_tick_local(void)
{
	return sched_tick_is_local;
}

/* The finer clock, where the CPU has a time-stamp counter. */
bool clock_tsc(u64 *tsc)
{
	if (!cpu_has(X86_FEATURE_TSC))
		return false;
	*tsc = read_tsc();
	return true;
}

unsigned long timer_ticks(void)
{
	return ticks;
}

unsigned int timer_hz(void)
{
	return hz;
}

/* The PIT counts down from the divisor once per tick: latch channel 0's
 * counter and read it, low byte first. */
unsigned int timer_read_count(void)
{
	u8 lo, hi;

	outb(PIT_CMD, PIT_LATCH_CH0);
	lo = inb(PIT_CH0);
	hi = inb(PIT_CH0);
	return lo | hi << 8;
}

/*
 * At boot, with interrupts on: the PIT must really interrupt.  Wait for
 * a tick edge, then CALIBRATION_TICKS more, asleep in hlt (halt, not
 * safe_halt: interrupts are already on).  Where there is a TSC, count
 * its cycles across those ticks: its rate, for the boot log.
 */
#define CALIBRATION_TICKS	2

void timer_check(void)
{
	unsigned long start = ticks;
	u64 tsc0 = 0, tsc1 = 0, per_second;
	bool tsc = cpu_has(X86_FEATURE_TSC);

	while (ticks == start)
		halt();
	start = ticks;
	if (tsc)
		tsc0 = read_tsc();
	while (ticks - start < CALIBRATION_TICKS)
		halt();
	if (!tsc) {
		printk("timer: ticking\n");
		return;
	}
	tsc1 = read_tsc();
	per_second = (tsc1 - tsc0) * hz;
	div64_u32_rem(&per_second, CALIBRATION_TICKS * 1000);
	printk("timer: ticking, TSC at %llu kHz\n", per_second);
}

unsigned int timer_divisor(void)
{
	return divisor;
}

/* The PC's timer: channel 0 as a rate generator (struct platform). */
unsigned int pit_start(unsigned int rate)
{
	divisor = (PIT_HZ + rate / 2) / rate;
	outb(PIT_CMD, PIT_MODE2);
	outb(PIT_CH0, divisor & 0xff);
	outb(PIT_CH0, divisor >> 8);
	printk("timer: PIT at %u Hz (divisor %u), clock: %s\n", rate, divisor,
	       cpu_has(X86_FEATURE_TSC) ? "PIT ticks and the TSC" : "PIT ticks (no TSC)");
	return rate;
}

void timer_init(void (*on_tick)(void), void (*on_clock)(void))
{
	tick_handler = on_tick;
	clock_handler = on_clock;
	hz = platform->timer_start(hz);
	request_irq(IRQ_TIMER, timer_interrupt);
}
