/*
 * tasks.c - the shell's commands about tasks: run a user program,
 * list the tasks, kill one.
 *
 * A program started here is a child of the shell (the boot thread,
 * pid 1), which does not wait for it: the prompt comes back at once,
 * the program runs beside the shell, and the shell reports its end
 * before a later prompt (shell/shell.c collects it).
 */
#include <kernel.h>
#include <exec.h>
#include <shell.h>
#include <task.h>

static int cmd_run(int argc, char **argv)
{
	int pid;

	if (argc < 2 || argc > 3) {
		printk("usage: run PROG [ARG]\n");
		return -EINVAL;
	}
	pid = task_spawn(argv[1], argc == 3 ? argv[2] : NULL);
	if (pid == -ENOENT) {
		printk("run: no program '%s'\n", argv[1]);
		programs_print();
	} else if (pid < 0) {
		printk("run: cannot start %s: error %d\n", argv[1], pid);
	} else {
		printk("run: %s started as pid %d\n", argv[1], pid);
	}
	return pid < 0 ? pid : 0;
}
shell_command("run", cmd_run, "PROG [ARG]", "start a user program beside the shell");

static const char *state_name(const struct task *t)
{
	switch (t->state) {
	case TASK_RUNNABLE: return t == current ? "running" : "runnable";
	case TASK_SLEEPING: return t->timed_sleep ? "sleeping" : "waiting";
	case TASK_ZOMBIE: return "zombie";
	default: return "?";
	}
}

/* Read without a lock, a moment old: only the task table's own slots,
 * which stay slots (a parent pointer names a slot, perhaps reused), never
 * what a task may free on another CPU as it exits (its stack, its
 * address space: `vm PID` holds the space it reads, task_get_mm). */
static void print_task(struct task *t)
{
	printk("  %3d  %4d  %-15s %-9s %-6s %8lu\n", t->pid,
	       t->parent ? t->parent->pid : -1, t->name, state_name(t),
	       t->user ? "user" : "kernel", t->switches);
}

static int cmd_tasks(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk("  pid  ppid  name            state     ring   switches\n");
	task_for_each(print_task);
	return 0;
}
shell_command("tasks", cmd_tasks, "", "every task: pid, parent, name, state");

static int cmd_kill(int argc, char **argv)
{
	u64 pid;
	int err;

	if (argc != 2) {
		printk("usage: kill PID\n");
		return -EINVAL;
	}
	if (shell_parse_number("kill", argv[1], &pid))
		return -EINVAL;
	err = pid > 0x7fffffff ? -ESRCH : task_kill_pid(pid);
	if (err == -ESRCH)
		printk("kill: no task %llu\n", pid);
	else if (err == -EPERM)
		printk("kill: pid %llu is a kernel thread: it cannot be killed\n", pid);
	else
		printk("kill: pid %llu ends on its next way back to user mode\n", pid);
	return err;
}
shell_command("kill", cmd_kill, "PID", "end a user task");
