/*
 * shell.h - the kernel shell's commands.
 *
 * A file that offers a command declares it where it is implemented:
 *
 *     shell_command("cpu", cmd_cpu, "", "the CPU, its features, the hypervisor");
 *
 * The declaration lands in the .shell_commands section; the shell
 * (kernel/shell/shell.c) finds commands there, lists them for `help` (name,
 * usage, one line each) and calls run(argc, argv) with the words of the
 * line, argv[0] being the command's name.  A command prints its answer
 * with printk; it returns 0, or a negative errno after printing what was
 * wrong (the shell then prints nothing more).
 */
#ifndef PV386_SHELL_H
#define PV386_SHELL_H

#include <types.h>

struct shell_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;	/* the arguments, e.g. "N [VALUE]"; "" for none */
	const char *help;	/* one line */
};

#define shell_command(cname, fn, cusage, chelp)				\
	static const struct shell_command __shell_command_##fn		\
	__section(".shell_commands") __used __attribute__((aligned(4))) = \
		{ cname, fn, cusage, chelp }

extern const struct shell_command __start_shell_commands[], __stop_shell_commands[];
#define for_each_shell_command(c) \
	for ((c) = __start_shell_commands; (c) < __stop_shell_commands; (c)++)

/* The command of that name, or NULL. */
const struct shell_command *shell_find_command(const char *name);

/* kernel/shell/shell.c: the shell itself, run by the boot thread for good. */
void shell_run(void) __noreturn;

/* A command's number argument: decimal or 0x hex, up to 64 bits.  0, or
 * -EINVAL after a message "WHAT: bad number ..." (what: the command). */
int shell_parse_number(const char *what, const char *text, u64 *out);

#endif
