/*
 * syscall.c - the x86 ways into kernel/syscall.c.
 *
 * int $0x80 is a DPL-3 trap gate: the common trap path saves the
 * registers and returns through INTERRUPT_RETURN (the table's iret).
 * sysenter, where the CPU has it (SEP, less the Pentium Pro's broken
 * one: cpu.c), is set up through write_msr: the kernel code segment,
 * entry point, and a stack for the entry's first instruction, which
 * loads the task's kernel stack from the TSS.  It returns through
 * ENABLE_INTERRUPTS_SYSEXIT (the table's irq_enable_sysexit).
 */
#include <kernel.h>
#include <cmdline.h>
#include <arch_door.h>
#include <uapi/syscalls.h>
#include <task.h>
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/msr_index.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/syscall.h>
#include <asm/uaccess.h>

void sysenter_entry(void);

static bool sysenter_on, sysenter_disabled;

static int set_nosysenter(const char *v)
{
	(void)v;
	sysenter_disabled = true;
	return 0;
}
boot_option("nosysenter", set_nosysenter, "system calls by int $0x80 only");

static void syscall_from_regs(struct pt_regs *regs)
{
	regs->eax = do_syscall(regs, regs->eax, regs->ebx, regs->ecx, regs->edx);
}

/* int $0x80 comes through a trap gate: interrupts stay on, as a system
 * call that takes long (write) or sleeps wants them.  trap_dispatch does
 * the rest, preemption included. */
static void int80_handler(struct pt_regs *regs)
{
	syscall_from_regs(regs);
}

/*
 * From entry.S, still on the user's EFLAGS less IF.  One op replaces
 * them: interrupts on, IOPL the task's (the kernel keeps it there, and
 * sysexit leaves it to the user), everything else clear: NT would turn
 * the next iret in this context into a task switch, TF would single-step
 * the kernel (a #DB the trap handler then quietly ends), AC and DF are
 * the user's business.  Flags do not survive a system call (the ABI
 * says so), and sysexit does not restore them anyway.  The user stub
 * pushed its return address at the stack pointer it left in EBP.
 */
void sysenter_dispatch(struct pt_regs *regs)
{
	u32 ret;

	regs->eflags = X86_EFLAGS_IF | X86_EFLAGS_FIXED | current->thread.iopl;
	raw_local_irq_restore(regs->eflags);
	if (copy_from_user(&ret, regs->esp, sizeof(ret)))
		kill_current(EXIT_KILLED(X86_TRAP_GP), "sysenter with a bad stack pointer %08x",
			     regs->esp);
	regs->eip = ret;
	regs->esp += sizeof(ret);
	syscall_from_regs(regs);
	exit_to_user_mode(regs);
}

bool syscall_sysenter_enabled(void)
{
	return sysenter_on;
}

/*
 * While a guest runs, its programs may execute sysenter too, and the CPU
 * would take them straight into this kernel's entry at ring 0, on the
 * guest's page tables.  With SYSENTER_CS 0 a sysenter raises #GP, which
 * the guest gets back like any fault (arch/x86/host/switcher.c).
 */
void sysenter_block(void)
{
	if (sysenter_on)
		wrmsr_safe(MSR_IA32_SYSENTER_CS, 0);
}

void sysenter_unblock(void)
{
	if (sysenter_on)
		wrmsr_safe(MSR_IA32_SYSENTER_CS, __KERNEL_CS);
}

/*
 * This CPU's SYSENTER MSRs.  The stack is its per-CPU area's sysenter
 * stack, right above its TSS (asm/percpu.h): entry.S's first instruction
 * finds esp0 at a fixed offset below the stack's top, so each CPU's
 * sysenter leads to its own TSS.  That stack is used for one instruction
 * and by a #DB raised right there (the user set TF), trap handler and
 * all; test_user_faults checks that such a frame leaves the TSS whole.
 */
static int sysenter_write_msrs(void)
{
	struct percpu *pc = this_cpu_ptr();

	return wrmsr_safe(MSR_IA32_SYSENTER_CS, __KERNEL_CS) ||
	       wrmsr_safe(MSR_IA32_SYSENTER_ESP,
			  (u32)pc->sysenter_stack + sizeof(pc->sysenter_stack)) ||
	       wrmsr_safe(MSR_IA32_SYSENTER_EIP, (u32)sysenter_entry);
}

/* An AP's share (percpu_load_this_cpu): the boot CPU decided whether the
 * kernel uses sysenter, and every CPU then does, or none. */
void syscall_cpu_init(void)
{
	if (sysenter_on && sysenter_write_msrs())
		panic("syscall: CPU %u's SYSENTER MSRs refused a write", smp_processor_id());
}

static void sysenter_init(void)
{
	if (!cpu_has(X86_FEATURE_SEP) || sysenter_disabled) {
		printk("syscall: int $0x80 only (%s)\n",
		       sysenter_disabled ? "nosysenter" : "no sysenter on this CPU");
		return;
	}
	if (sysenter_write_msrs()) {
		printk("syscall: the SYSENTER MSRs refused a write: int $0x80 only\n");
		return;
	}
	sysenter_on = true;
	printk("syscall: int $0x%x and sysenter\n", SYSCALL_VECTOR);
}

void syscall_init(void)
{
	set_syscall_gate(SYSCALL_VECTOR, int80_handler);
	sysenter_init();
}
