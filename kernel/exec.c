/*
 * exec.c - loads a user program (a static ELF32 i386 executable) into a
 * task: a fresh address space, its loadable segments copied in, a first
 * stack page, and the first frame, which starts it at its entry point in
 * ring 3.
 *
 * The image is only trusted as far as it is checked: every segment must
 * lie inside user space and inside the file.  A program that does not
 * load gives an error to whoever spawned it; the kernel goes on.
 */
#include <kernel.h>
#include <bootinfo.h>
#include <elf.h>
#include <exec.h>
#include <string.h>
#include <task.h>
#include <asm/paging.h>
#include <asm/privileged.h>
#include <asm/process.h>
#include <asm/rom.h>

/* A module is a program unless it is the ops ROM (asm/rom.h), which
 * the rom backend uses (a bad one too, so that it is not run either), or
 * a kernel, which only a host runs, as its guest (bootinfo.h). */
static bool module_is_program(const struct boot_module *m)
{
	return !rom_has_magic((const void *)m->start, m->end - m->start) &&
	       !module_is_kernel(m);
}

/* A program by name: packed into the kernel, or a Multiboot module. */
bool program_find(const char *name, struct program *out)
{
	const struct program *p;
	unsigned int i;

	for (p = user_programs; p->name; p++) {
		if (!strcmp(p->name, name)) {
			*out = *p;
			return true;
		}
	}
	for (i = 0; i < boot_info.nr_modules; i++) {
		const struct boot_module *m = &boot_info.modules[i];

		if (module_is_program(m) && !strcmp(m->name, name)) {
			*out = (struct program){ m->name, (const u8 *)m->start,
						 (const u8 *)m->end };
			return true;
		}
	}
	return false;
}

void programs_print(void)
{
	const struct program *p;
	unsigned int i;

	printk("programs:");
	for (p = user_programs; p->name; p++)
		printk(" %s", p->name);
	for (i = 0; i < boot_info.nr_modules; i++)
		if (module_is_program(&boot_info.modules[i]))
			printk(" %s (module)", boot_info.modules[i].name);
	printk("\n");
}

static bool in_user_space(u32 start, u32 size)
{
	return start >= USER_BASE && start < USER_END && size <= USER_END - start;
}

/* Copy len bytes to user address va of t, page by page, through the
 * kernel's 1:1 view of each frame (t's address space is not loaded). */
static void copy_to_task(struct task *t, u32 va, const u8 *src, u32 len)
{
	while (len) {
		u32 chunk = min(len, PAGE_SIZE - va % PAGE_SIZE);

		memcpy((void *)(user_page_frame(t->pgd, va) + va % PAGE_SIZE), src, chunk);
		va += chunk;
		src += chunk;
		len -= chunk;
	}
}

static int load_segment(struct task *t, const struct program *prog,
			const struct elf32_phdr *ph)
{
	u32 size = prog->image_end - prog->image, va;
	int err;

	if (!in_user_space(ph->vaddr, ph->memsz) || !elf_segment_in_file(ph, size))
		return -EINVAL;
	for (va = ph->vaddr & PAGE_MASK; va < ph->vaddr + ph->memsz; va += PAGE_SIZE) {
		err = map_user_page(t->pgd, va, ph->flags & PF_W);
		if (err)
			return err;
	}
	copy_to_task(t, ph->vaddr, prog->image + ph->offset, ph->filesz);
	t->mm->brk_start = max(t->mm->brk_start,
			       (ph->vaddr + ph->memsz + PAGE_SIZE - 1) & PAGE_MASK);
	return 0;
}

static int load_segments(struct task *t, const struct program *prog,
			 const struct elf32_ehdr *h)
{
	const struct elf32_phdr *ph = (const void *)(prog->image + h->phoff);
	unsigned int i;
	int err;

	for (i = 0; i < h->phnum; i++, ph++) {
		if (ph->type != PT_LOAD)
			continue;
		err = load_segment(t, prog, ph);
		if (err)
			return err;
	}
	return t->mm->brk_start ? 0 : -EINVAL;	/* nothing loaded */
}

int exec_load(struct task *t, const struct program *prog, const char *arg)
{
	const struct elf32_ehdr *h = (const void *)prog->image;
	int err = elf_check_header(prog->image, prog->image_end - prog->image);

	if (err)
		return err;
	if (!in_user_space(h->entry, 1))
		return -EINVAL;
	t->mm = mm_alloc();
	if (!t->mm)
		return -ENOMEM;
	t->pgd = t->mm->pgd;
	arch_enter_lazy_mmu_mode();	/* a new space, page by page */
	err = load_segments(t, prog, h);
	if (!err)
		err = map_user_page(t->pgd, USER_STACK_TOP - PAGE_SIZE, true);
	arch_leave_lazy_mmu_mode();
	if (err) {
		struct mm *mm = t->mm;

		/* Cleared before it is let go, as task_release does: a reader
		 * that holds a space checks that the task still names it
		 * (task_get_mm), which must then mean the task holds it. */
		t->mm = NULL;
		t->pgd = kernel_page_dir;
		mm_put(mm);
		return err;
	}
	/* The program's code was written through the kernel's mapping and
	 * will run through the task's: serialize, so no CPU can run bytes
	 * it fetched before they were written. */
	sync_core();
	t->mm->brk = t->mm->brk_start;
	t->stack_bottom = USER_STACK_TOP - USER_STACK_MAX;
	strlcpy(t->arg, arg ? arg : "", sizeof(t->arg));
	arch_task_setup_user(t, h->entry, USER_STACK_TOP);
	return 0;
}
