/*
 * asm/apic.h - the local APIC: each CPU's own interrupt controller, its
 * timer, and the way one CPU interrupts another (an IPI).
 *
 * Its registers are a 4 KiB page of memory-mapped I/O (at the address
 * the firmware's tables give, normally 0xfee00000), the same address on
 * every CPU but each CPU reaching its own.  Every access goes through
 * the paravirt ops apic_read and apic_write (as in Linux's 2006-2008
 * paravirt_ops), so a backend can count, refuse or emulate them; this
 * file's functions are built on those two.
 *
 * Intel SDM vol. 3, chapter 10 (11 in newer editions) has the registers;
 * the offsets below are its table 10-1.
 */
#ifndef ASM_APIC_H
#define ASM_APIC_H

#include <types.h>

/*
 * Where the APIC page is in virtual memory: a fixed address, whatever
 * the physical one (the firmware's, normally the same 0xfee00000), as
 * Linux's fixmap gave it one.  The native ops and a ROM can then reach
 * it without being told.  It lies above user space, in the directory
 * entry every address space shares for memory-mapped registers
 * (KERNEL_MMIO_BASE, asm/paging.h).
 */
#define APIC_VIRT_BASE	0xfee00000u
#define APIC_DEFAULT_PHYS	0xfee00000u

/* The vectors the APIC delivers on: its timer and the IPIs in
 * 0xe0-0xef, and the spurious vector, which ends in 0xf (bits 0-3 are
 * hardwired to 1 on the P6 and Pentium).  All above the PIC's and the
 * system call's; 0xf0-0xfe stay the tests' software interrupts.  They
 * are devices' vectors: a host keeps them as it keeps the PIC's. */
#define APIC_FIRST_VECTOR	0xe0
#define IPI_RESCHEDULE_VECTOR	0xe1	/* ipi.c */
#define IPI_TLB_FLUSH_VECTOR	0xe2	/* tlb.c: a TLB shootdown's request */
#define APIC_TIMER_VECTOR	0xef
#define APIC_SPURIOUS_VECTOR	0xff

static inline bool apic_vector(unsigned int v)
{
	return (v >= APIC_FIRST_VECTOR && v <= APIC_TIMER_VECTOR) || v == APIC_SPURIOUS_VECTOR;
}

/* Register offsets in the APIC page. */
#define APIC_ID		0x020	/* bits 31-24: this CPU's APIC id */
#define APIC_VERSION	0x030
#define APIC_TPR	0x080	/* task priority: 0 lets every vector in */
#define APIC_EOI	0x0b0	/* write 0: the interrupt in service is done */
#define APIC_SVR	0x0f0	/* spurious vector, and bit 8: APIC enabled */
#define APIC_ISR	0x100	/* in service: 8 registers of 32 bits, 0x10 apart */
#define APIC_ESR	0x280	/* error status */
#define APIC_ICR_LOW	0x300	/* interrupt command: writing it sends */
#define APIC_ICR_HIGH	0x310	/* bits 31-24: the destination APIC id */
#define APIC_LVT_TIMER	0x320
#define APIC_LVT_LINT0	0x350
#define APIC_LVT_LINT1	0x360
#define APIC_LVT_ERROR	0x370
#define APIC_TIMER_INIT	0x380	/* initial count: writing it starts the timer */
#define APIC_TIMER_NOW	0x390	/* current count */
#define APIC_TIMER_DIV	0x3e0	/* divide configuration */

/* SVR, LVT and timer bits. */
#define APIC_SVR_ENABLE		0x100	/* software enable */
#define APIC_LVT_MASKED		0x10000
#define APIC_LVT_EXTINT		0x00700	/* delivery mode ExtINT: the 8259's */
#define APIC_LVT_NMI		0x00400
#define APIC_LVT_TIMER_PERIODIC	0x20000
#define APIC_TIMER_DIV_16	0x3	/* divide configuration: bus clock / 16 */

/* ICR bits. */
#define APIC_ICR_FIXED		0x00000
#define APIC_ICR_INIT		0x00500
#define APIC_ICR_STARTUP	0x00600
#define APIC_ICR_PENDING	0x01000	/* delivery status: not yet accepted */
#define APIC_ICR_ASSERT		0x04000
#define APIC_ICR_LEVEL		0x08000	/* level triggered (INIT de-assert) */
#define APIC_ICR_ALL_BUT_SELF	0xc0000	/* destination shorthand */

/*
 * The interface the rest of the kernel uses (arch/x86/kernel/smp/apic.c).
 * Nothing but apic_present() may be called where it is false.
 */
bool apic_present(void);		/* mapped and enabled on the boot CPU */
void apic_init_this_cpu(void);		/* enable it on the CPU running this */
unsigned int apic_this_cpu_id(void);	/* from APIC_ID */
void apic_eoi(void);
void apic_send_ipi(unsigned int apic_id, unsigned int vector);
void apic_send_ipi_all_but_self(unsigned int vector);
/* The start-up sequence's two messages (SDM vol. 3, 8.4.4): 0, or
 * -ETIMEDOUT if the APIC never reported the message delivered. */
int apic_send_init(unsigned int apic_id);
int apic_send_startup(unsigned int apic_id, u32 trampoline_phys);

/*
 * Set up at boot (kmain, after paging and the PIC): maps the page,
 * enables the boot CPU's APIC and calibrates its timer, where more than
 * one CPU is to be used (smp.to_use > 1); elsewhere it does nothing
 * and says nothing, and apic_present() stays false.
 */
void apic_init(void);
unsigned int apic_version(void);	/* APIC_VERSION's low byte */
bool apic_in_service(unsigned int vector);	/* its ISR bit: being handled */

/*
 * The local APIC timer: each CPU's own tick.  apic_init() measures its
 * rate against the PIT (bus clock / 16 ticks per second, as counted);
 * apic_timer_start_this_cpu() runs it periodic at timer_hz() on
 * APIC_TIMER_VECTOR, each tick the scheduler's on this CPU (an AP calls
 * it as it comes up).  The boot CPU starts its own in apic_init().
 */
void apic_timer_start_this_cpu(void);
void apic_timer_stop_this_cpu(void);
u32 apic_timer_hz(void);		/* timer input clocks per second */
u32 apic_timer_initial_count(void);	/* the count per tick */
/* This CPU's timer rate (counts a second, at its divider) measured
 * against the PIT's counter, as at boot; the timer is left stopped. */
u64 apic_timer_measure_rate(void);
unsigned long apic_timer_ticks(void);	/* local timer interrupts, all CPUs */
unsigned long apic_timer_ticks_this_cpu(void);
unsigned long apic_spurious_count(void);

#endif
