/*
 * test_vm_race.c - the shell's `vm PID` while PID exits on another CPU:
 * the walk must hold the address space, so that its page directory and
 * tables cannot go back to the allocator - and to a ring-3 program that
 * fills them with entries of its own (user/pgfill.c) - under it.  A walk
 * without that reference follows the program's entries into memory the
 * kernel does not map, and panics.
 *
 * Short-lived programs (spin with no rounds) are started one after
 * another, and `vm` is run on each until it answers that the task is
 * gone, while pgfill takes and fills every frame it can on the other
 * CPUs.  Pass: no panic, every dump whole or refused, every page back.
 */
#include <ktest.h>
#include <kernel.h>
#include <page_alloc.h>
#include <shell.h>
#include <string.h>
#include <task.h>
#include <asm/smp.h>
#include <asm/timer.h>

#define RACE_SECONDS	1
#define FILLERS		2

static int run_vm(const struct shell_command *vm, int pid)
{
	char text[12], *argv[] = { "vm", text, NULL };

	snprintf(text, sizeof(text), "%d", pid);
	return vm->run(2, argv);
}

KTEST(vm_of_a_task_exiting_on_another_cpu)
{
	const struct shell_command *vm = shell_find_command("vm");
	unsigned long pages, deadline, dumps = 0, victims = 0;
	int filler[FILLERS], i, pid, status;
	char ticks[12];

	if (num_online_cpus() < 2)
		KT_SKIP("one CPU: no exit can race the walk");
	KT_EXPECT(vm != NULL);
	if (!vm)
		return;
	sched_sleep_ticks(1);		/* orphans of earlier tests collected */
	pages = pages_free_count();
	snprintf(ticks, sizeof(ticks), "%u", (RACE_SECONDS + 1) * timer_hz());
	for (i = 0; i < FILLERS; i++)
		filler[i] = task_spawn("pgfill", ticks);
	deadline = timer_ticks() + RACE_SECONDS * timer_hz();
	while ((long)(timer_ticks() - deadline) < 0) {
		pid = task_spawn("spin", "0");
		if (pid < 0)
			continue;
		victims++;
		while (run_vm(vm, pid) == 0)
			dumps++;
		KT_EXPECT_EQ(task_wait(pid, &status), pid);
		KT_EXPECT_EQ(status, 0);
	}
	for (i = 0; i < FILLERS; i++) {
		KT_EXPECT(filler[i] > 0);
		KT_EXPECT_EQ(task_wait(filler[i], &status), filler[i]);
		KT_EXPECT_EQ(status, 0);
	}
	printk("test_vm_race: %lu programs, %lu dumps\n", victims, dumps);
	KT_EXPECT(dumps > 0);
	sched_sleep_ticks(1);
	KT_EXPECT_EQ(pages_free_count(), pages);
}
