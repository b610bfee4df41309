/*
 * process.c - the x86 side of tasks: the frames a new task starts from,
 * and the context switch, which puts the next task's CPU state in place
 * through paravirt_ops before it changes stacks:
 *
 *   load_esp0      its kernel stack, for entries from ring 3
 *   write_cr3      its address space
 *   load_tls       its thread-local segments, on every switch
 *   write_gdt_entry + load_ldt_desc   its LDT, when either has its own
 *   set_debugreg   its watchpoints, when either task has some
 *   clts / CR0.TS  the FPU, lazily; or its registers, eagerly (fpu.c)
 *   read_pmc       the performance counter it used (pmc.c)
 *
 * all between start_context_switch and end_context_switch: a backend
 * may hold them back and do them at the end at once (a guest's one
 * hypercall; natively nothing, the two sites patched to NOPs).
 *
 * Its I/O privilege: on a PC the next task gets its own back when it
 * resumes in schedule() (irq_restore of the flags it saved there) or,
 * new, from the first iret's frame (ioperm.c); a guest, whose IOPL its
 * host keeps, says it with set_iopl_mask when the two tasks' differ.
 */
#include <kernel.h>
#include <task.h>
#include <asm/desc.h>
#include <asm/paging.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/fpu.h>
#include <asm/process.h>
#include <asm/processor-flags.h>
#include <asm/syscall.h>
#include <asm/tlbflush.h>

void kernel_thread_start(void);		/* entry.S */

/* What switch_stacks pops: the callee-saved registers, then where to
 * return.  A new task's frame returns into sched_first_switch (it
 * releases the run queue's lock that the switch to it was made under,
 * kernel/sched.c) and that, through `then`, to where the task starts. */
struct switch_frame {
	u32 edi, esi, ebx, ebp;
	u32 ret;
};

struct first_switch_frame {
	struct switch_frame frame;
	u32 then;		/* sched_first_switch's return address */
};

/* Where a task's kernel stack starts: it grows down from its last page. */
static u32 kstack_top(const struct task *t)
{
	return t->kstack + KSTACK_PAGES * PAGE_SIZE;
}

/* The frame a task's entries from ring 3 leave at the top of its stack. */
struct pt_regs *task_user_regs(struct task *t)
{
	return (struct pt_regs *)kstack_top(t) - 1;
}

/* A new user task: a pt_regs that returns to the program's entry point
 * in ring 3, under a switch frame that "returns" to the end of the trap
 * path, which pops it. */
void arch_task_setup_user(struct task *t, u32 entry, u32 user_esp)
{
	struct pt_regs *regs = task_user_regs(t);
	struct first_switch_frame *frame = (struct first_switch_frame *)regs - 1;

	*regs = (struct pt_regs){
		.eax = syscall_sysenter_enabled(),	/* for user/lib/crt0.S */
		.ds = __USER_DS, .es = __USER_DS, .fs = 0, .gs = 0,
		.eip = entry, .cs = __USER_CS,
		.eflags = X86_EFLAGS_IF | X86_EFLAGS_FIXED,
		.esp = user_esp, .ss = __USER_DS,
	};
	*frame = (struct first_switch_frame){
		.frame.ret = (u32)sched_first_switch, .then = (u32)ret_from_trap };
	t->thread.esp0 = kstack_top(t);
	t->kernel_esp = (u32)frame;
	fpu_init_task(t);
}

/* The boot thread, running on the boot stack since _start: the first
 * task, whose state is already in place. */
void arch_task_setup_boot(struct task *t)
{
	this_cpu_write(current_task, t);
}

/* A kernel thread: a switch frame that "returns" to kernel_thread_start
 * (entry code), which calls fn, handed over in EBX. */
void arch_task_setup_kernel(struct task *t, void (*fn)(void))
{
	struct first_switch_frame *frame = (struct first_switch_frame *)kstack_top(t) - 1;

	*frame = (struct first_switch_frame){ .frame.ebx = (u32)fn,
		.frame.ret = (u32)sched_first_switch, .then = (u32)kernel_thread_start };
	t->thread.esp0 = kstack_top(t);
	t->kernel_esp = (u32)frame;
	fpu_init_task(t);	/* it never uses the FPU (-mgeneral-regs-only), but
				   no task holds an image but the clean one */
}

/* Out of line: most switches have no watchpoints, and this loop through
 * the table would make every switch save registers for it. */
static void __attribute__((noinline)) switch_debugregs(const struct thread_struct *next)
{
	int i;

	set_debugreg(7, 0);		/* disarm before changing addresses */
	if (!next->dr7)
		return;
	for (i = 0; i < NR_WATCHPOINTS; i++)
		set_debugreg(i, next->debugreg[i]);
	set_debugreg(7, next->dr7);
}

/* What the task must not keep once it is gone. */
void arch_task_release(struct task *t)
{
	fpu_release(t);
}

/*
 * A new page directory, and each space's cpu_mask (task.h) told: this
 * CPU's bit set in next's BEFORE %cr3 holds it (a shootdown that reads
 * the mask without the bit made its change before this load, which
 * then sees it: asm/tlbflush.h), and cleared in prev's only AFTER %cr3
 * has left it (until then the TLB may hold prev's entries).  Kernel
 * threads have no space (mm NULL) and use the kernel's directory.
 * Always inlined: write_cr3's patch site stays in arch_switch_to, where
 * `sites` and the suite name it.
 */
static inline __attribute__((always_inline))
void switch_address_space(struct task *prev, struct task *next)
{
	unsigned int cpu = smp_processor_id();

	if (next->mm)
		cpumask_set_atomic(&next->mm->cpu_mask, cpu);
	write_cr3((u32)next->pgd);
	if (prev->mm)
		cpumask_clear_atomic(&prev->mm->cpu_mask, cpu);
}

/* Interrupts are off: nothing may see half of one task's state and half
 * of the other's. */
void arch_switch_to(struct task *prev, struct task *next)
{
	struct thread_struct *p = &prev->thread, *n = &next->thread;

	/* This CPU's area read where it is used, each time one %fs load: a
	 * pointer to it kept across the ops' calls would take a callee-saved
	 * register, and its push, pop and stack frame, on every switch. */
	this_cpu_write(current_task, next);

	arch_start_context_switch();
	load_esp0(&this_cpu_ptr()->tss, n);
	if (prev->pgd != next->pgd)
		switch_address_space(prev, next);
	load_TLS(n, smp_processor_id());
	if (p->has_ldt || n->has_ldt)
		load_task_ldt(n->has_ldt ? n->ldt : NULL);
	if (p->dr7 || n->dr7)
		switch_debugregs(n);
	if (p->iopl != n->iopl)
		set_iopl_mask(n->iopl);
	pmc_switch(prev, next);
	fpu_switch(prev, next);
	arch_end_context_switch();
	switch_stacks(&prev->kernel_esp, next->kernel_esp);
}
