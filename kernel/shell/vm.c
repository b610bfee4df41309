/*
 * vm.c - the shell's `vm`: an address space's mappings.
 *
 * Without an argument it shows the space the CPU is in now, found the
 * way the CPU finds it: %cr3, read through the table (read_cr3).  The
 * shell is a kernel thread, so that is the kernel's own space; with a
 * pid it shows that task's page directory.  That task may exit on
 * another CPU while the walk goes on, and its directory and tables go
 * back to the allocator and on to anyone, a ring-3 program that fills
 * them included: so the walk holds the space (task_get_mm) and lets go
 * after it.
 */
#include <kernel.h>
#include <shell.h>
#include <task.h>
#include <asm/paging.h>
#include <asm/privileged.h>

static int cmd_vm(int argc, char **argv)
{
	char name[TASK_NAME_LEN];
	struct mm *mm;
	u32 *pgd;
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
	if (pid > 0x7fffffff || task_get_mm(pid, &mm, name, sizeof(name))) {
		printk("vm: no live task %llu\n", pid);
		return -ESRCH;
	}
	pgd = mm ? mm->pgd : kernel_page_dir;	/* a kernel thread: the kernel's */
	printk("vm: pid %d (%s), page directory %08x\n", (int)pid, name, (u32)pgd);
	page_table_dump(pgd);
	if (mm)
		mm_put(mm);
	return 0;
}
shell_command("vm", cmd_vm, "[PID]", "the mappings of an address space, as ranges");
