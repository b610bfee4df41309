/*
 * run.c - the run= boot option: user programs started at boot.
 *
 *     run=hello,fpu:3      start hello, and fpu with the argument "3"
 *
 * The boot thread spawns them in order, waits for all of them and
 * reports how each ended.
 */
#include <kernel.h>
#include <cmdline.h>
#include <run.h>
#include <string.h>
#include <task.h>
#include <asm/privileged.h>

static char run_list[128];

static int parse_run(const char *value)
{
	if (!value || !*value)
		return -EINVAL;
	strlcpy(run_list, value, sizeof(run_list));
	return 0;
}
boot_option("run", parse_run, "user programs to start: name[:arg],...");

/* Spawn one "name[:arg]" entry (cut out of the list in place). */
static void run_one(char *entry)
{
	char *arg = strstr(entry, ":");
	int pid;

	if (arg)
		*arg++ = '\0';
	pid = task_spawn(entry, arg);
	if (pid < 0)
		printk("run: cannot start %s: error %d\n", entry, pid);
	else
		printk("run: %s started as pid %d\n", entry, pid);
}

void run_programs(void)
{
	char list[sizeof(run_list)], *p = list, *entry;
	int pid, status;

	if (!run_list[0])
		return;
	strlcpy(list, run_list, sizeof(list));
	while (*p) {
		entry = p;
		while (*p && *p != ',')
			p++;
		if (*p)
			*p++ = '\0';
		run_one(entry);
	}
	while ((pid = task_wait(-1, &status)) > 0)
		printk("run: pid %d exited with status %d\n", pid, status);
#ifdef CONFIG_PARAVIRT
	if (paravirt_counting())	/* opcount: which ops the programs reached */
		paravirt_coverage_report();
#endif
	printk("run: done\n");
}
