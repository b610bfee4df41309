/*
 * platform.c - which machine pv386 runs on, chosen in one place: a PC
 * (the drivers in arch/x86/drivers/), or a guest of a pv386 host
 * (drivers/guest_devices.c).  asm/platform.h says what a platform is.
 */
#include <kernel.h>
#include <console.h>
#include <console_input.h>
#include <asm/irq.h>
#include <asm/machine.h>
#include <asm/platform.h>
#include <asm/processor.h>
#include <asm/timer.h>

static void pc_console_init(void)
{
	serial_init();
	vga_init();
}

static const char *pc_console_input_init(void (*put)(char c))
{
	bool serial = serial_input_init(put);
	bool keyboard = keyboard_init(put);

	if (serial && keyboard)
		return "COM1 and the PS/2 keyboard";
	return serial ? "COM1" : keyboard ? "the PS/2 keyboard" : "nowhere";
}

const struct platform pc_platform = {
	.name			= "pc",
	.console_init		= pc_console_init,
	.console_input_init	= pc_console_input_init,
	.irq_init		= pic_init,
	.irq_mask		= pic_mask,
	.irq_unmask		= pic_unmask,
	.irq_eoi		= pic_eoi,
	.irq_in_service		= pic_irq_in_service,
	.irq_pending		= pic_irq_pending,
	.timer_start		= pit_start,
	.emulator_exit		= pc_emulator_exit,
	.restart		= pc_restart,
	.power_off		= pc_power_off,
};

const struct platform *platform = &pc_platform;

/* At ring 1 the kernel is a guest (paravirt_init saw the same), and a
 * PC's ports would be its first #GP.  Only a PARAVIRT=y kernel can be
 * one (drivers/guest_devices.c). */
void platform_init(void)
{
#ifdef CONFIG_PARAVIRT
	if (current_ring() != 0)
		platform = &guest_platform;
#endif
}
