/*
 * host.c - pv386 as a host, running a guest pv386 (docs/guest.md): the boot
 * options guest=, guestmem= and guestexit, and the host thread a guest
 * runs in.  The machine's part - loading, the world switch, hypercalls, shadow page tables - is
 * arch/x86/host/ (asm/host.h); this is the kernel's: when a guest runs,
 * and that it shares the CPU with the host's own tasks.
 */
#include <kernel.h>
#include <cmdline.h>
#include <host.h>
#include <string.h>
#include <task.h>
#include <asm/host.h>
#include <asm/machine.h>
#include <asm/timer.h>

static char boot_cmdline[256];
/* launched()'s echo of the line: one guest at a time, so only the
 * launch that got it writes here. */
static char shown_cmdline[CMDLINE_SHOWN_MAX];
static bool boot_guest;
static unsigned int guest_mib = GUESTMEM_DEFAULT_MIB;

/* A command line can hold no spaces inside one option: '+' stands for
 * one, so guest=test+hz=100 gives the guest "test hz=100". */
static int parse_guest(const char *value)
{
	char *c;

	if (!value || strlen(value) >= sizeof(boot_cmdline))
		return -EINVAL;
	strlcpy(boot_cmdline, value, sizeof(boot_cmdline));
	for (c = boot_cmdline; *c; c++)
		if (*c == '+')
			*c = ' ';
	boot_guest = true;
	return 0;
}
boot_option("guest", parse_guest,
	    "run a guest pv386 (the kernel module) with this command line; '+' for a space");

static int parse_guestmem(const char *value)
{
	unsigned long mib;

	if (!value || parse_ulong(value, &mib) || mib < GUESTMEM_MIN_MIB || mib > 1024)
		return -EINVAL;
	guest_mib = mib;
	return 0;
}
boot_option("guestmem", parse_guestmem, "the guest's memory in MiB (4-1024, default 16)");

/* guestexit: the boot guest's end is the emulator's (a script's run of
 * guest=test or guest=bench), with the value the guest left with. */
static bool guest_exit_option, leave_with_next_guest;

static int parse_guestexit(const char *value)
{
	(void)value;
	guest_exit_option = true;
	return 0;
}
boot_option("guestexit", parse_guestexit,
	    "when the guest= guest stops, leave the emulator with its exit value");

/* The guest runs until it stops; it sleeps a tick when it halts, and
 * gives the CPU up whenever the host's scheduler asks.  Stopped, it is
 * this thread's to release (asm/host.h: a new guest waits for that),
 * at once if the guest stopped under it, before anything else runs. */
static void guest_thread(void)
{
	struct guest *g = guest_current();
	bool leave = leave_with_next_guest;
	int exit_value;

	leave_with_next_guest = false;
	for (;;) {
		guest_run(g);
		if (guest_state(g) != GUEST_RUNNING)
			break;
		if (guest_halted(g))
			sched_sleep_ticks(1);
		else
			sched_yield();
	}
	exit_value = guest_exit_value(g);
	guest_release();
	if (leave)
		emulator_exit(exit_value >= 0 ? (u8)exit_value : EMU_EXIT_FAIL);
}

static const char *const start_errors[] = {
	[ENOENT] = "no guest kernel: give pv386.elf as a Multiboot module "
		   "(QEMU: -initrd build/pv386.elf; GRUB: module /boot/pv386.elf)",
	[ENODEV] = "this CPU cannot host (a 386 has no CR0.WP; an emulator may "
		   "ignore it), nor can a guest",
	[EBUSY] = "a guest is running already, or the stopped one's thread has not "
		  "let it go yet (guest stop; then try again)",
	[EINVAL] = "guestmem= is too small, or the command line too long",
	[ENOMEM] = "not enough memory for the guest (guestmem=)",
};

/* Why its host thread could not be made (task_try_create_kernel). */
static const char *const thread_errors[] = {
	[EAGAIN] = "no task slot free for its thread (too many tasks)",
	[ENOMEM] = "not enough memory for its thread's stack",
};

static const char *error_text(const char *const *texts, unsigned int n, int err)
{
	return -err < (int)n && texts[-err] ? texts[-err] : "error";
}

/* A thread to run the started guest in, or the guest stopped and
 * released again: 0 or -errno, said why. */
static int give_thread(void)
{
	struct guest *g = guest_current();
	int err;

	if (task_try_create_kernel("guest", guest_thread, &err))
		return 0;
	guest_stop(g, "no host thread to run it");
	guest_release();
	printk("host: no guest: %s\n", error_text(thread_errors, ARRAY_SIZE(thread_errors), err));
	return err;
}

/*
 * A guest stopped from outside its thread (`guest stop`) is released
 * when that thread next runs: a start just after waits for it, a few
 * ticks at most, rather than say busy to a command typed right after
 * the stop.  A guest still running, or a thread that does not come
 * within RELEASE_WAIT_MS, and the start is refused as busy.
 */
#define RELEASE_WAIT_MS	500

static void wait_for_release(void)
{
	unsigned long ticks = RELEASE_WAIT_MS * timer_hz() / 1000;
	struct guest *g = guest_current();

	while (g && guest_state(g) == GUEST_STOPPED && ticks--)
		sched_sleep_ticks(1);
}

/* After guest_start or guest_start_image returned err: the thread, or
 * why not. */
static int launched(int err, const char *cmdline, unsigned int mib)
{
	if (err) {
		printk("host: no guest: %s\n",
		       error_text(start_errors, ARRAY_SIZE(start_errors), err));
		return err;
	}
	err = give_thread();
	if (!err)	/* the line may come from a link: shown escaped */
		printk("host: guest started: %u MiB, command line '%s'\n", mib,
		       cmdline_printable(shown_cmdline, sizeof(shown_cmdline), cmdline));
	return err;
}

/* A guest with cmdline, in a thread of its own: 0 or -errno, said why. */
int guest_launch(const char *cmdline)
{
	wait_for_release();
	return launched(guest_start(cmdline, guest_mib), cmdline, guest_mib);
}

/* The same from the kernel image at image (an ELF file of size bytes),
 * with mib MiB of memory. */
int guest_launch_image(const void *image, u32 size, const char *cmdline, unsigned int mib)
{
	wait_for_release();
	return launched(guest_start_image(image, size, cmdline, mib), cmdline, mib);
}

/* guest= at boot, once the host is ready. */
void guest_boot(void)
{
	if (!boot_guest)
		return;
	leave_with_next_guest = guest_exit_option;
	if (guest_launch(boot_cmdline) && guest_exit_option)
		emulator_exit(EMU_EXIT_FAIL);
}
