/*
 * asm/timer.h - the system tick from the 8253/8254 PIT, channel 0; with
 * more than one CPU, the scheduler's tick from each CPU's local APIC
 * timer (asm/apic.h) and the clock still from the PIT.
 */
#ifndef ASM_TIMER_H
#define ASM_TIMER_H

#include <types.h>

#ifndef HZ
#define HZ 100		/* default; `make HZ=...` or the hz= option changes it */
#endif

#define PIT_HZ	1193182	/* the PIT's input clock */

unsigned int pit_start(unsigned int hz);	/* the PC's: the rate it runs at */
/* on_tick: each tick of this CPU's timer (IRQ 0 with one CPU); on_clock:
 * each tick of the clock where the CPUs' own timers give on_tick */
void timer_init(void (*on_tick)(void), void (*on_clock)(void));
void timer_check(void);			/* with interrupts on: it ticks */
unsigned long timer_ticks(void);
unsigned int timer_hz(void);
unsigned int timer_divisor(void);	/* PIT input clocks per tick */
unsigned int timer_read_count(void);	/* where the PIT is in this tick */
bool clock_tsc(u64 *tsc);		/* false where there is no TSC */
void timer_local_tick(void);		/* a CPU's own timer: its sched tick */
void timer_sched_tick_from_local(void);	/* the PIT keeps only the clock */
bool timer_sched_tick_local(void);

#endif
