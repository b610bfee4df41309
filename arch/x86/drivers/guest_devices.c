/*
 * guest_devices.c - the devices of a guest of a pv386 host: a console,
 * a timer and an interrupt controller, each a hypercall or a word in the
 * page shared with the host (asm/hypercall.h).  The guest's struct
 * platform (asm/platform.h), in place of a PC's ports.
 *
 * The host delivers IRQ n on vector 32 + n through the guest's IDT, as
 * the 8259s do on a PC (pic.c), when the guest's interrupt flag and its
 * mask allow: so irq.c, the timer and the console's input work as they
 * do on a PC.
 *
 * Only with paravirt_ops (PARAVIRT=y): a PARAVIRT=n kernel's inline
 * instructions cannot run at ring 1, so it never is a guest.
 */
#include <kernel.h>
#include <console.h>
#include <string.h>
#include <asm/hypercall.h>
#include <asm/irq.h>
#include <asm/machine.h>
#include <asm/platform.h>

#ifdef CONFIG_PARAVIRT

extern volatile struct guest_shared guest_shared;	/* backends/guest.c */

/* ---- console: output by hypercall, input in the shared page ---- */

/* The host takes at most GUEST_CONSOLE_MAX bytes a call, and says how
 * many it took. */
static void host_console_write(const char *s, size_t n)
{
	while (n) {
		u32 took = hypercall(HCALL_console_write, (u32)s, n, 0);

		if (took == 0 || took > n)
			return;		/* refused: nothing more to do */
		s += took;
		n -= took;
	}
}

static struct console host_console = { .name = "host", .write = host_console_write };

static void guest_console_init(void)
{
	register_console(&host_console);
}

static void (*input_put)(char c);

/* IRQ 4: the host put bytes at input_tail; take them from input_head. */
static void host_input_interrupt(struct pt_regs *regs)
{
	(void)regs;
	while (guest_shared.input_head != guest_shared.input_tail) {
		u32 head = guest_shared.input_head;

		input_put(guest_shared.input[head % GUEST_INPUT_LEN]);
		guest_shared.input_head = head + 1;
	}
}

static const char *guest_console_input_init(void (*put)(char c))
{
	input_put = put;
	request_irq(GUEST_IRQ_CONSOLE, host_input_interrupt);
	return "the host (guest console)";
}

/* ---- interrupt controller: a mask in the shared page ---- */

static void guest_irq_init(void)
{
	guest_shared.irq_masked = ~0u;	/* every line masked, as pic_init leaves them */
}

static void guest_irq_mask(unsigned int irq)
{
	guest_shared.irq_masked |= 1u << irq;
}

static void guest_irq_unmask(unsigned int irq)
{
	guest_shared.irq_masked &= ~(1u << irq);
}

/* Delivery cleared the pending bit: there is nothing to acknowledge. */
static void guest_irq_eoi(unsigned int irq)
{
	(void)irq;
}

/* The host delivers only what it raised: never spurious. */
static bool guest_irq_in_service(unsigned int irq)
{
	(void)irq;
	return true;
}

/* Raised by the host, not yet delivered (interrupts are off, or it is
 * masked). */
static bool guest_irq_pending(unsigned int irq)
{
	return guest_shared.irq_pending & (1u << irq);
}

/* ---- timer: the host's tick ---- */

static unsigned int guest_timer_start(unsigned int hz)
{
	unsigned int rate = hypercall(HCALL_set_timer, 1, 0, 0);

	printk("timer: the host's tick, %u Hz (asked for %u)\n", rate, hz);
	return rate;
}

/* ---- what the host counted, for programs that measure (SYS_hostcounts, SYS_counts) ---- */

/* The host counts each exit once, by reason: the exits and the
 * hypercalls among them are sums of those counts, put first. */
#define TOTALS	2
_Static_assert(TOTALS + HOST_COUNTS <= HOST_COUNTS_MAX, "SYS_counts' buffer");

static unsigned int guest_host_counts(u32 *out, unsigned int n)
{
	u32 all[TOTALS + HOST_COUNTS] = { 0 };
	unsigned int i;

	for (i = 0; i < HOST_COUNTS; i++) {
		all[TOTALS + i] = guest_shared.counts[i];
		if (i < HOST_EXIT_REASONS)
			all[0] += all[TOTALS + i];
		if (i < HCALL_NR)
			all[1] += all[TOTALS + i];
	}
	memcpy(out, all, min(n, (unsigned int)ARRAY_SIZE(all)) * sizeof(u32));
	return ARRAY_SIZE(all);
}

/* ---- leaving: the host stops the guest ---- */

static void guest_emulator_exit(u8 value)
{
	hypercall(HCALL_exit, GUEST_EXIT_EMULATOR, value, 0);
}

static void guest_restart(void)
{
	hypercall(HCALL_exit, GUEST_EXIT_RESTART, 0, 0);
}

static void guest_power_off(void)
{
	hypercall(HCALL_exit, GUEST_EXIT_POWER_OFF, 0, 0);
}

const struct platform guest_platform = {
	.name			= "guest",
	.console_init		= guest_console_init,
	.console_input_init	= guest_console_input_init,
	.irq_init		= guest_irq_init,
	.irq_mask		= guest_irq_mask,
	.irq_unmask		= guest_irq_unmask,
	.irq_eoi		= guest_irq_eoi,
	.irq_in_service		= guest_irq_in_service,
	.irq_pending		= guest_irq_pending,
	.timer_start		= guest_timer_start,
	.host_counts		= guest_host_counts,
	.emulator_exit		= guest_emulator_exit,
	.restart		= guest_restart,
	.power_off		= guest_power_off,
};

#endif /* CONFIG_PARAVIRT */
