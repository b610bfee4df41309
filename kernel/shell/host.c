/*
 * host.c - the shell's `guest` command, the host's: a guest pv386 at
 * ring 1 under this one (kernel/host.c, arch/x86/host/; docs/guest.md).
 *
 *   guest start [ARGS...]   boot the guest kernel module with ARGS as
 *                           its command line; it runs in a host thread,
 *                           its lines appear here marked "guest: "
 *   guest stop              stop it, wherever it is
 *   guest stats             exits, hypercalls by kind, traps,
 *                           injected interrupts, shadow page faults
 *   guest console TEXT...   type TEXT and Enter into its console
 */
#include <kernel.h>
#include <host.h>
#include <shell.h>
#include <string.h>
#include <asm/host.h>

/* argv[from..argc) joined by spaces into buf (cut to fit). */
static void join(char *buf, size_t size, int argc, char **argv, int from)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = from; i < argc && n + 1 < size; i++)
		n += snprintf(buf + n, size - n, "%s%s", i > from ? " " : "", argv[i]);
}

static int guest_stop_cmd(void)
{
	struct guest *g = guest_current();

	if (!g || guest_state(g) != GUEST_RUNNING) {
		printk("guest: none is running\n");
		return 1;
	}
	guest_stop(g, "stopped from the host's shell");
	return 0;
}

static int guest_console_cmd(int argc, char **argv)
{
	char text[128];
	size_t n;

	join(text, sizeof(text) - 1, argc, argv, 2);
	n = strlen(text);
	text[n++] = '\n';
	if (guest_console_input(guest_current(), text, n) != (int)n) {
		printk("guest: its console did not take it (none running, or its input is full)\n");
		return 1;
	}
	return 0;
}

static int cmd_guest(int argc, char **argv)
{
	char cmdline[200];

	if (argc >= 2 && !strcmp(argv[1], "start")) {
		join(cmdline, sizeof(cmdline), argc, argv, 2);
		return guest_launch(cmdline) ? 1 : 0;
	}
	if (argc == 2 && !strcmp(argv[1], "stop"))
		return guest_stop_cmd();
	if (argc == 2 && !strcmp(argv[1], "stats")) {
		guest_print_stats();
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "console"))
		return guest_console_cmd(argc, argv);
	printk("usage: guest start [ARGS...] | stop | stats | console TEXT...\n");
	return 1;
}
shell_command("guest", cmd_guest, "start|stop|stats|console",
	      "a guest pv386 at ring 1 under this one");
