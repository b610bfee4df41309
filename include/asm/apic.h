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

/* Register offsets in the APIC page. */
#define APIC_ID		0x020	/* bits 31-24: this CPU's APIC id */
#define APIC_VERSION	0x030
#define APIC_TPR	0x080	/* task priority: 0 lets every vector in */
#define APIC_EOI	0x0b0	/* write 0: the interrupt in service is done */
#define APIC_SVR	0x0f0	/* spurious vector, and bit 8: APIC enabled */
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

/* ICR bits. */
#define APIC_ICR_FIXED		0x00000
#define APIC_ICR_INIT		0x00500
#define APIC_ICR_STARTUP	0x00600
#define APIC_ICR_PENDING	0x01000	/* delivery status: not yet accepted */
#define APIC_ICR_ASSERT		0x04000
#define APIC_ICR_LEVEL		0x08000	/* level triggered (INIT de-assert) */
#define APIC_ICR_ALL_BUT_SELF	0xc0000	/* destination shorthand */

/*
 * The interface the rest of the kernel uses (arch/x86/kernel/apic.c).
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

#endif
