/*
 * debug.c - the shell's commands for looking inside the running
 * kernel: bt (JOS's backtrace: the shell's own stack, with function
 * names), ktest (the in-kernel tests, and back to the prompt) and bench
 * (the hot ops measured where they run).
 */
#include <kernel.h>
#include <bench.h>
#include <ktest.h>
#include <shell.h>
#include <task.h>
#include <asm/cpu.h>
#include <asm/traps.h>

static int cmd_bt(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk("bt: the shell's stack, innermost frame first\n");
	dump_stack();
	return 0;
}
shell_command("bt", cmd_bt, "", "a backtrace of the shell itself, with symbols");

/* The tests collect their own children with wait(): a program the shell
 * started would be taken for one of theirs. */
static int cmd_ktest(int argc, char **argv)
{
	unsigned int others = tasks_alive() - 2;	/* not idle, not the shell */
	int failed;

	if (argc > 2) {
		printk("usage: ktest [WORD]\n");
		return -EINVAL;
	}
	if (others) {
		printk("ktest: %u other task%s running; the tests need the machine "
		       "to themselves (kill them first)\n", others, others == 1 ? " is" : "s are");
		return -EBUSY;
	}
	failed = ktest_run_matching(argc == 2 ? argv[1] : "");
	return failed < 0 ? failed : 0;
}
shell_command("ktest", cmd_ktest, "[WORD]", "run the in-kernel tests (names containing WORD)");

static int cmd_bench(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (!cpu_has(X86_FEATURE_TSC)) {
		printk("bench: this CPU has no time-stamp counter to measure with\n");
		return -ENODEV;
	}
	printk("bench: per op, in %s\n", bench_counts_instructions() ?
	       "instructions (QEMU -icount: the TSC counts instructions)" :
	       "TSC cycles (not under QEMU -icount: a clock, not a count)");
	bench_ops_in_place();
	return 0;
}
shell_command("bench", cmd_bench, "", "the hot ops' cost, measured in place");
