/*
 * fpu.c - the x87/SSE registers, shared between tasks lazily or eagerly.
 *
 * Lazily: saving the FPU at every switch would cost each switch hundreds
 * of bytes of copying, though most tasks never touch it.  Instead the
 * switch only sets CR0.TS when the next task is not the one whose state
 * is in this CPU's FPU (its fpu_owner).  That task's first FPU instruction then
 * raises #NM; the handler clears TS (clts), saves the owner's registers,
 * loads the current task's and makes it the owner.
 *
 * Eagerly: TS is never set.  The switch itself saves the owner's
 * registers and loads the next task's whenever they are not the FPU's
 * already - at every switch to another program's task, whether it uses
 * the FPU or not - and no task ever meets a #NM.
 *
 * fxsave/fxrstor where the CPU has FXSR, fnsave/frstor before, either way.
 *
 * Which is cheaper depends on what a trap costs, so the backend chooses
 * (paravirt_ops.eager_fpu): natively a #NM is one trap, and the
 * PARAVIRT=n kernel, native and no table, is lazy too; in a guest a lazy
 * hand-over costs four exits to the host, and its guest backend is eager.
 * The boot option fpu=lazy|eager overrides the choice.  It is made once,
 * in fpu_init: a live backend switch (`pv use`) leaves it as it is.
 * Either mode is right on every backend - the choice is a cost, not a
 * need - while changing it at run time would have to bring every CPU's
 * TS and owner into the other mode's shape at once; and the backends
 * that can replace each other live choose alike anyway (native, trace
 * and rom at ring 0; guest and trace over it at ring 1).
 *
 * A new task's saved state is one clean image (fpu_clean), so its first
 * #NM (or eager switch in) loads every register: fninit alone would leave it the data
 * registers (and so MMX), XMM0-7 and MXCSR of whichever task used the
 * FPU last.
 *
 * Without an FPU (a 386 with no 387, or the `nofpu` option), CR0.EM
 * makes every FPU instruction raise #NM too, and the task is killed.
 */
#include <kernel.h>
#include <cmdline.h>
#include <string.h>
#include <task.h>
#include <asm/cpu.h>
#include <asm/privileged.h>
#include <asm/fpu.h>
#include <asm/percpu.h>
#include <asm/process.h>
#include <asm/processor-flags.h>
#include <asm/smp.h>

#define FCW_DEFAULT	0x037f	/* fninit's: every exception masked,
				   round to nearest, 64-bit precision */
#define FTW_ALL_EMPTY	0xffff	/* fnsave's full tag word; fxsave's is 0 */
#define MXCSR_DEFAULT	0x1f80	/* at reset: every exception masked */

/* NONE before fpu_init, and where there is no FPU. */
enum fpu_mode { FPU_NONE, FPU_LAZY, FPU_EAGER };

static enum fpu_mode fpu_mode, fpu_forced;	/* fpu_forced: fpu=, or NONE */
/* fpu_mode == FPU_LAZY, in the one byte the switch tests first: its lazy
 * path is then the very one it was before there was an eager mode (the
 * native kernel's figures stay where they were). */
static bool switch_lazily;
static bool use_fxsr, pretend_no_fpu;
/* Whose registers this CPU's FPU holds, and whether its CR0.TS is set,
 * are each CPU's own: this_cpu fpu_owner and fpu_ts_set (asm/percpu.h). */
/* What every task starts with: built by fpu_init, which kmain calls
 * before it creates the first task. */
static union fpu_state fpu_clean;

static int set_nofpu(const char *v)
{
	(void)v;
	pretend_no_fpu = true;
	return 0;
}
boot_option("nofpu", set_nofpu, "run as if there were no FPU (CR0.EM)");

static int set_fpu_mode(const char *v)
{
	if (v && !strcmp(v, "lazy"))
		fpu_forced = FPU_LAZY;
	else if (v && !strcmp(v, "eager"))
		fpu_forced = FPU_EAGER;
	else
		return -EINVAL;
	return 0;
}
boot_option("fpu", set_fpu_mode,
	    "lazy or eager: how tasks share the FPU, whatever the backend chooses");

/* fninit resets a present FPU's status word to 0; with none there, the
 * store does not happen and the preset value stays. */
static bool fpu_probe(void)
{
	u16 status = 0x5a5a;

	write_cr0(read_cr0() & ~(X86_CR0_EM | X86_CR0_TS));
	asm volatile("fninit\n\tfnstsw %0" : "+m" (status));
	return (status & 0xff) == 0;
}

static void set_ts(void)
{
	write_cr0(read_cr0() | X86_CR0_TS);
	this_cpu_write(fpu_ts_set, true);
}

/* fninit's state with every register, pointer and XMM register zero,
 * in the format fpu_restore loads. */
static void build_clean_image(void)
{
	if (use_fxsr) {
		fpu_clean.fxsave.fcw = FCW_DEFAULT;
		fpu_clean.fxsave.mxcsr = MXCSR_DEFAULT;
	} else {
		fpu_clean.fnsave.fcw = FCW_DEFAULT;
		fpu_clean.fnsave.ftw = FTW_ALL_EMPTY;
	}
}

/* fpu='s mode, else the backend's (the table's now: pv= has chosen). */
static enum fpu_mode chosen_mode(void)
{
	if (fpu_forced != FPU_NONE)
		return fpu_forced;
	return paravirt_eager_fpu() ? FPU_EAGER : FPU_LAZY;
}

void fpu_init(void)
{
	bool present = !pretend_no_fpu && fpu_probe();
	unsigned long cr0;

	cr0 = read_cr0() & ~(X86_CR0_EM | X86_CR0_MP | X86_CR0_NE);
	if (!present) {
		write_cr0(cr0 | X86_CR0_EM);
		printk("fpu: %s: CR0.EM set, a task using floating point is killed\n",
		       pretend_no_fpu ? "off (nofpu)" : "none");
		return;
	}
	/* MP: wait/fwait obey TS too.  NE (486 and later): FPU errors raise
	 * #MF rather than the PC's old IRQ 13 route. */
	cr0 |= X86_CR0_MP | (boot_cpu.family >= 4 ? X86_CR0_NE : 0);
	write_cr0(cr0);
	use_fxsr = cpu_has(X86_FEATURE_FXSR) && boot_cpu.has_cr4;
	if (use_fxsr)
		write_cr4(read_cr4() | X86_CR4_OSFXSR |
			  (cpu_has(X86_FEATURE_SSE) ? X86_CR4_OSXMMEXCPT : 0));
	build_clean_image();
	fpu_mode = chosen_mode();
	switch_lazily = fpu_mode == FPU_LAZY;
	if (switch_lazily)
		set_ts();	/* no task's registers are loaded yet */
	printk("fpu: present, switched %s with %s%s\n",
	       fpu_mode == FPU_EAGER ? "eagerly" : "lazily",
	       use_fxsr ? "fxsave/fxrstor" : "fnsave/frstor",
	       fpu_forced == FPU_NONE ? "" : fpu_forced == FPU_EAGER ? " (fpu=eager)" :
	       " (fpu=lazy)");
}

bool fpu_present(void)
{
	return fpu_mode != FPU_NONE;
}

bool fpu_eager(void)
{
	return fpu_mode == FPU_EAGER;
}

static void fpu_save(struct thread_struct *t)
{
	if (use_fxsr)
		asm volatile("fxsave %0" : "=m" (t->fpu.fxsave));
	else
		asm volatile("fnsave %0\n\tfwait" : "=m" (t->fpu.fnsave));
}

static void fpu_restore(struct thread_struct *t)
{
	if (use_fxsr)
		asm volatile("fxrstor %0" : : "m" (t->fpu.fxsave));
	else
		asm volatile("frstor %0" : : "m" (t->fpu.fnsave));
}

/* CR0.TS clear, for the FPU instructions that follow. */
static inline void clts_if_set(void)
{
	if (this_cpu_read(fpu_ts_set)) {
		clts();
		this_cpu_write(fpu_ts_set, false);
	}
}

/* The owner's registers saved, and this FPU no one's.  Out of line:
 * only a task that used the FPU in its slice pays for it (lazily). */
static void __attribute__((noinline)) fpu_give_back(struct task *owner)
{
	clts_if_set();
	fpu_save(&owner->thread);
	this_cpu_write(fpu_owner, NULL);
}

/* A new task: its first #NM, or eager switch in, loads the clean image. */
void fpu_init_task(struct task *t)
{
	t->thread.fpu = fpu_clean;
}

/* The current task's registers into the FPU, whose owner's (if any) are
 * saved first; TS is clear.  Inlined: it is the #NM's whole work. */
static inline __attribute__((always_inline)) void fpu_hand_over(struct task *owner)
{
	if (owner)
		fpu_save(&owner->thread);
	/* What is left - a dead owner's registers - may hold an unmasked
	 * error, which the restore would raise (#MF) here in the kernel.
	 * fninit also zeroes the last-instruction and operand pointers,
	 * which AMD's fxrstor leaves alone unless an error is pending: so
	 * no task inherits where another's code and data were. */
	asm volatile("fninit");
	fpu_restore(&current->thread);
	this_cpu_write(fpu_owner, current);
}

/* #NM from ring 3 (lazily; eagerly only where a guest's TS is set, see
 * fpu_trap_next_use).  False when there is no FPU to give. */
bool fpu_handle_nm(struct pt_regs *regs)
{
	struct task *owner = this_cpu_read(fpu_owner);

	(void)regs;
	if (fpu_mode == FPU_NONE)
		return false;
	clts();
	this_cpu_write(fpu_ts_set, false);
	if (owner == current)		/* TS was a guest's (fpu_trap_next_use) */
		return true;
	fpu_hand_over(owner);
	return true;
}

/*
 * The eager switch: next's registers loaded now unless they are the
 * FPU's already.  A kernel thread never uses the FPU
 * (-mgeneral-regs-only), so a switch to one leaves it alone: its owner
 * finds its registers still there when it comes back, if no one took
 * them meanwhile (the one kernel thread that does use the FPU, a host's
 * guest thread, takes it in fpu_load_for_guest).  The rule of more than
 * one CPU is the lazy switch's (below).  next is current already:
 * arch_switch_to makes it so first.
 */
static void __attribute__((noinline)) fpu_switch_eagerly(struct task *prev, struct task *next)
{
	struct task *owner = this_cpu_read(fpu_owner);

	clts_if_set();	/* a guest's TS (fpu_trap_next_use), never a program's */
	if (owner == prev && num_online_cpus() > 1) {
		fpu_give_back(prev);
		owner = NULL;
	}
	if (next->user && next != owner)
		fpu_hand_over(owner);
}

/*
 * At a switch, lazily: TS set unless the next task's state is already
 * loaded.  With more than one CPU, a task that owns this FPU gives its
 * registers back to memory as it leaves: it may next run on another CPU,
 * whose #NM (or eager switch) would load its image from memory - stale
 * while the registers stayed here.  (Linux 2.6's i386 did the same: saved
 * at switch-out, restored lazily.)  With one CPU the registers wait for
 * the owner's return.
 */
void fpu_switch(struct task *prev, struct task *next)
{
	struct task *owner;
	bool ts_set;

	if (!switch_lazily) {
		if (fpu_mode == FPU_EAGER)
			fpu_switch_eagerly(prev, next);
		return;
	}
	owner = this_cpu_read(fpu_owner);
	if (owner == prev && num_online_cpus() > 1) {
		fpu_give_back(prev);
		owner = NULL;
	}
	ts_set = this_cpu_read(fpu_ts_set);
	if (next != owner && !ts_set)
		set_ts();
	else if (next == owner && ts_set) {
		clts();
		this_cpu_write(fpu_ts_set, false);
	}
}

/* A guest of this host (arch/x86/host/) whose own CR0.TS is set must
 * see its next FPU instruction trap, even where the host's FPU is the
 * guest thread's already. */
void fpu_trap_next_use(void)
{
	if (fpu_mode != FPU_NONE && !this_cpu_read(fpu_ts_set))
		set_ts();
}

/*
 * The current task, a host's thread about to enter its guest
 * (arch/x86/host/run.c), is a kernel thread whose code - the guest's -
 * uses the FPU.  Eagerly, the switch to it left the FPU alone: its
 * registers are loaded here.  Lazily, the #NM of its first use does it.
 */
void fpu_load_for_guest(void)
{
	struct task *owner;

	if (fpu_mode != FPU_EAGER)
		return;
	owner = this_cpu_read(fpu_owner);
	if (owner == current)
		return;
	clts_if_set();
	fpu_hand_over(owner);
}

/* A task that is gone runs nowhere: no CPU may keep it as the owner
 * whose registers a later #NM would save into freed memory. */
void fpu_release(struct task *t)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (per_cpu(cpu) && per_cpu(cpu)->fpu_owner == t)
			per_cpu(cpu)->fpu_owner = NULL;
}
