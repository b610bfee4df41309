/*
 * vm.c - the shell's `vm`: an address space's mappings.
 *
 * Without an argument it shows the space the CPU is in now, found the
 * way the CPU finds it: %cr3, read through the table (read_cr3).  The
 * shell is a kernel thread, so that is the kernel's own space; with a
 * pid it shows that task's page directory.
 */
#include <kernel.h>
#include <shell.h>
#include <task.h>
#include <asm/paging.h>
#include <asm/privileged.h>

static int cmd_vm(int argc, char **argv)
{
	struct task *t;
	u64 pid;

	if (argc > 2) {
		printk("usage: vm [PID]\n");
		return -EINVAL;
	}
	if (argc == 1) {
		printk("vm: the current address space (cr3 %08lx)\n", read_cr3());
		page_table_dump((const u32 *)(read_cr3() & PAGE_MASK));
		return 0;
	}
	if (shell_parse_number("vm", argv[1], &pid))
		return -EINVAL;
	t = pid <= 0x7fffffff ? task_by_pid(pid) : NULL;
	if (!t || t->state == TASK_ZOMBIE) {
		printk("vm: no live task %llu\n", pid);
		return -ESRCH;
	}
	printk("vm: pid %d (%s), page directory %08x\n", t->pid, t->name, (u32)t->pgd);
	page_table_dump(t->pgd);
	return 0;
}
shell_command("vm", cmd_vm, "[PID]", "the mappings of an address space, as ranges");
