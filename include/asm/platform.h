/*
 * asm/platform.h - the machine around the CPU: where the console, the
 * interrupt controller, the timer and the way out of an emulator are.
 *
 * paravirt_ops covers the CPU's privileged instructions; the devices
 * behind I/O ports are the platform's.  A PC has COM1, VGA, the 8259s,
 * the PIT and QEMU's or Bochs's exit ports (arch/x86/drivers/); a guest
 * of a pv386 host has none of them, only what its host gives it through
 * hypercalls (arch/x86/drivers/guest_devices.c).  One table each, chosen
 * once, early in kmain (platform_init), by the same test that chose the
 * paravirt backend: the ring the kernel runs at.  As Linux's x86_platform
 * and 9front's PCArch.
 */
#ifndef ASM_PLATFORM_H
#define ASM_PLATFORM_H

#include <types.h>

struct platform {
	const char *name;
	void (*console_init)(void);	/* printk's consoles */
	/* Input to put(), from wherever the platform has it: what it named. */
	const char *(*console_input_init)(void (*put)(char c));

	void (*irq_init)(void);
	void (*irq_mask)(unsigned int irq);
	void (*irq_unmask)(unsigned int irq);
	void (*irq_eoi)(unsigned int irq);
	bool (*irq_in_service)(unsigned int irq);	/* false: spurious */
	bool (*irq_pending)(unsigned int irq);		/* raised, not yet taken */

	/* IRQ 0 at hz (or what it can do: the rate it ticks at). */
	unsigned int (*timer_start)(unsigned int hz);

	/* A guest's: what its host counted - the exits, the hypercalls
	 * among them, then its counts by reason (asm/hypercall.h) - at
	 * most n words into out; how many there are, HOST_COUNTS_MAX at
	 * most.  NULL on a PC, which has no host. */
	unsigned int (*host_counts)(u32 *out, unsigned int n);

	void (*emulator_exit)(u8 value);	/* returns where there is none */
	void (*restart)(void);			/* returns if it could not */
	void (*power_off)(void);		/* returns if it could not */
};

#define HOST_COUNTS_MAX	64	/* words host_counts may give (SYS_counts) */

extern const struct platform *platform;
extern const struct platform pc_platform, guest_platform;

void platform_init(void);	/* before the console */

#endif
