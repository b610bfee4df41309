/*
 * test_user_faults.c - every exception a user program can provoke kills
 * that program, and only it (user/crash.c, one case per run, beside
 * user/survivor; the checks are in kill_check.c).
 *
 * What user mode cannot show here, and why:
 *   int $n    the gates are DPL 0 for every vector but #BP's and #OF's
 *             (int3, into) and the system call's: #GP, error
 *             (vector << 3) | 2
 *   #NP       set_ldt makes only present segments, and no gate is absent
 *   #AC       needs CR0.AM, which the kernel leaves clear: an unaligned
 *             access with EFLAGS.AC set just works
 *   #NM       only without an FPU (test_user_state.c, `nofpu` in tests/run)
 *   #DF, #MC and the rest: not from user mode at all
 * QEMU's TCG checks neither segment limits nor the null selector on an
 * access, and raises no #XM: those cases are checked where the CPU
 * does (Bochs), and skipped or told apart elsewhere.
 */
#include <ktest.h>
#include <task.h>
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/fpu.h>
#include <asm/process.h>
#include <asm/syscall.h>
#include <asm/traps.h>
#include "console_capture.h"
#include "kill_check.h"
#include "run_program.h"
#include "run_user.h"
#include "segment_checks.h"

/* user/crash.c's exit statuses for a case that did not fault. */
#define CRASH_SURVIVED		100
#define CRASH_NOT_HERE		101
#define CRASH_SIMD_FLAG_ONLY	103

#define KERNEL_MEMORY	"kernel memory"
#define NULL_POINTER	"null pointer"
#define OUTSIDE_USER_SPACE "outside user space"

static const struct kill_expect crash_cases[] = {
	{ "crash", "divide", X86_TRAP_DE, 0, NULL, NULL, NULL },
	{ "crash", "divide_overflow", X86_TRAP_DE, 0, NULL, NULL, NULL },
	{ "crash", "single_step", X86_TRAP_DB, 0, NULL, NULL, NULL },
	{ "crash", "int80_single_step", X86_TRAP_DB, 0, NULL, NULL, NULL },
	{ "crash", "int3", X86_TRAP_BP, 0, NULL, NULL, NULL },
	{ "crash", "into", X86_TRAP_OF, 0, NULL, NULL, NULL },
	{ "crash", "bound", X86_TRAP_BR, 0, NULL, NULL, NULL },
	{ "crash", "ud2", X86_TRAP_UD, 0, NULL, NULL, NULL },
	{ "crash", "lock_nop", X86_TRAP_UD, 0, NULL, NULL, NULL },
	{ "crash", "null_read", X86_TRAP_PF, 0,
	  "00000000 (not present, read, user)", NULL_POINTER, NULL },
	{ "crash", "null_write", X86_TRAP_PF, 0,
	  "00000000 (not present, write, user)", NULL_POINTER, NULL },
	{ "crash", "kernel_read", X86_TRAP_PF, 0,
	  "00100000 (protection, read, user)", KERNEL_MEMORY, NULL },
	{ "crash", "kernel_write", X86_TRAP_PF, 0,
	  "00200000 (protection, write, user)", KERNEL_MEMORY, NULL },
	{ "crash", "high_read", X86_TRAP_PF, 0,
	  "c0000000 (not present, read, user)", OUTSIDE_USER_SPACE, NULL },
	{ "crash", "top_write", X86_TRAP_PF, 0,
	  "fffff000 (not present, write, user)", OUTSIDE_USER_SPACE, NULL },
	{ "crash", "unmapped_read", X86_TRAP_PF, 0,
	  "80000000 (not present, read, user)", NULL, NULL },
	{ "crash", "heap_beyond_brk", X86_TRAP_PF, 0,
	  ADDRESS_ARG " (not present, read, user)", NULL, NULL },
	/* its own code: the page is there, read-only */
	{ "crash", "text_write", X86_TRAP_PF, 0,
	  "4??????? (protection, write, user)", NULL, NULL },
	/* the stack may grow to 256 KiB below 0xc0000000, no further */
	{ "crash", "stack_overflow", X86_TRAP_PF, 0,
	  "bffbfffc (not present, write, user)", "stack overflow", NULL },
	{ "crash", "stack_jump", X86_TRAP_PF, 0,
	  "bf?????? (not present, write, user)", NULL, NULL },
	{ "crash", "null_ss", X86_TRAP_GP, 0, NULL, NULL, NULL },
	{ "crash", "nested_task_iret", X86_TRAP_TS, 0, NULL, NULL, NULL },
	{ "crash", "int:0", X86_TRAP_GP, 0 << 3 | 2, NULL, NULL, NULL },
	{ "crash", "int:2", X86_TRAP_GP, 2 << 3 | 2, NULL, NULL, NULL },
	{ "crash", "int:8", X86_TRAP_GP, 8 << 3 | 2, NULL, NULL, NULL },
	{ "crash", "int:14", X86_TRAP_GP, 14 << 3 | 2, NULL, NULL, NULL },
	{ "crash", "int:32", X86_TRAP_GP, 32 << 3 | 2, NULL, NULL, NULL },	/* the timer */
	{ "crash", "int:47", X86_TRAP_GP, 47 << 3 | 2, NULL, NULL, NULL },
	{ "crash", "int:129", X86_TRAP_GP, 129 << 3 | 2, NULL, NULL, NULL },
	{ "crash", "int:255", X86_TRAP_GP, 255 << 3 | 2, NULL, NULL, NULL },
};

KTEST(user_faults_kill_only_the_task)
{
	unsigned int i;

	for (i = 0; i < sizeof(crash_cases) / sizeof(crash_cases[0]); i++)
		check_kill(kt_ctx, &crash_cases[i]);
}

/* Limits and null selectors, where the CPU checks them. */
KTEST(user_segment_faults_kill_only_the_task)
{
	static const struct kill_expect limit = {
		"crash", "segment_limit", X86_TRAP_GP, 0, NULL, NULL, NULL };
	static const struct kill_expect stack_limit = {
		"crash", "stack_segment_limit", X86_TRAP_SS, 0, NULL, NULL, NULL };
	static const struct kill_expect null_use = {
		"crash", "null_fs_use", X86_TRAP_GP, 0, NULL, NULL, NULL };

	if (!cpu_checks_segment_limits() || !cpu_checks_null_selector())
		KT_SKIP("this CPU (an emulator) checks no segment limits or null selectors");
	check_kill(kt_ctx, &limit);
	check_kill(kt_ctx, &stack_limit);
	check_kill(kt_ctx, &null_use);
}

/* An x87 error, unmasked: #MF, with CR0.NE (486 and later). */
KTEST(user_x87_error_kills_only_the_task)
{
	static const struct kill_expect mf = {
		"crash", "x87_error", X86_TRAP_MF, 0, NULL, NULL, NULL };

	if (!fpu_present())
		KT_SKIP("no FPU");
	if (!(read_cr0() & X86_CR0_NE))
		KT_SKIP("CR0.NE clear: FPU errors go to IRQ 13");
	check_kill(kt_ctx, &mf);
}

/* An SSE error, unmasked: #XM, or, where the CPU (QEMU's TCG) sets the
 * flag in MXCSR but raises nothing, crash says so with its own status.
 * Without CR4.OSXMMEXCPT it would be #UD: that fails. */
KTEST(user_simd_error_kills_only_the_task)
{
	static const struct kill_expect xm = {
		"crash", "simd_error", X86_TRAP_XF, 0, NULL, NULL, NULL };
	unsigned long xf = trap_count(X86_TRAP_XF);
	int status;

	if (!cpu_has(X86_FEATURE_SSE) || !fpu_present())
		KT_SKIP("no SSE");
	status = run_program("crash", "simd_error");
	if (status == CRASH_SIMD_FLAG_ONLY) {
		KT_EXPECT_EQ(trap_count(X86_TRAP_XF), xf);
		KT_SKIP("this CPU (an emulator) raises no #XM");
	}
	check_kill(kt_ctx, &xm);
}

/* EFLAGS.AC is the task's to set; without CR0.AM it changes nothing. */
KTEST(user_alignment_check_needs_cr0_am)
{
	static const struct kill_expect ac = {
		"crash", "alignment", X86_TRAP_AC, 0, NULL, NULL, NULL };

	if (read_cr0() & X86_CR0_AM)
		check_kill(kt_ctx, &ac);
	else
		check_end(kt_ctx, "crash", "alignment", CRASH_SURVIVED, NULL);
}

/*
 * iret from ring 3 with EFLAGS.VM set in its frame (user/crash.c).  A
 * CPU ignores VM at CPL 3 (Bochs, real ones): the return goes to CS
 * 0x1000, a selector of RPL 0, and raises #GP(0x1000).  QEMU's TCG
 * enters virtual-8086 mode instead, where the first fetch, at 1000:0000,
 * faults on a kernel page: the frame's CS has RPL 0, and a kernel that
 * asked only CS took the fault for its own and panicked.  A first run
 * shows which kind of CPU this is; the second is the one checked.
 */
KTEST(user_iret_to_vm86_kills_only_the_task)
{
	static const struct kill_expect refused = {
		"crash", "vm86_iret", X86_TRAP_GP, 0x1000, NULL, NULL, NULL };
	static const struct kill_expect entered = {
		"crash", "vm86_iret", X86_TRAP_PF, 0, "00010000 (protection, read, user)",
		"in virtual-8086 mode at 1000:0000, which only a faulty CPU lets ring 3 enter",
		"00000000" };

	if (ktest_left_out("crash:vm86_iret"))
		return;
	if (run_program("crash", "vm86_iret") == EXIT_KILLED(X86_TRAP_PF)) {
		printk("ktest:   this CPU entered virtual-8086 mode from ring 3\n");
		check_kill(kt_ctx, &entered);
	} else {
		check_kill(kt_ctx, &refused);
	}
}

/*
 * The other way a task in virtual-8086 mode meets the kernel: an
 * interrupt (or a system gate) taken there, whose frame goes back to it
 * through trap_dispatch.  On a CPU that enters that mode the next fetch
 * faults at once, so an interrupt lands there only by chance: a thread
 * of this test hands trap_dispatch such a frame instead, on a software
 * vector with a handler that does nothing.  The task must die there,
 * never return to the frame.
 */
#define VM86_PROBE_VECTOR	0xf3

static volatile bool vm86_frame_survived;

static void do_nothing(struct pt_regs *regs)
{
	(void)regs;
}

static void vm86_frame_thread(void)
{
	struct pt_regs regs = {
		.vector = VM86_PROBE_VECTOR, .cs = 0x1000, .eip = 0x1234,
		.eflags = X86_EFLAGS_VM | X86_EFLAGS_IF | X86_EFLAGS_FIXED,
	};

	trap_dispatch(&regs);
	vm86_frame_survived = true;
}

KTEST(user_vm86_frame_is_never_resumed)
{
	char want[120];
	struct task *t;
	int pid;

	vm86_frame_survived = false;
	set_system_gate(VM86_PROBE_VECTOR, do_nothing);
	capture_start();
	t = task_create_kernel("vm86-frame", vm86_frame_thread);
	pid = t->pid;
	while (t->state != TASK_ZOMBIE && t->state != TASK_UNUSED)
		sched_yield();
	capture_stop();
	set_system_gate(VM86_PROBE_VECTOR, NULL);
	KT_EXPECT(!vm86_frame_survived);
	snprintf(want, sizeof(want), "task %d (vm86-frame) killed: in virtual-8086 mode "
		 "at 1000:1234, which only a faulty CPU lets ring 3 enter", pid);
	KT_EXPECT_EQ(captured_lines(want), 1);
}

/* sysenter with bad values for the kernel to use on the way back. */
KTEST(user_sysenter_misuse_kills_only_the_task)
{
	static const struct kill_expect kernel_eip = {
		"crash", "sysenter_kernel_eip", X86_TRAP_PF, 0,
		"00100000 (protection, read, user)", KERNEL_MEMORY, "00100000" };

	if (!syscall_sysenter_enabled()) {
		KT_EXPECT_EQ(run_program("crash", "sysenter_kernel_eip"), CRASH_NOT_HERE);
		KT_SKIP("no sysenter here");
	}
	/* The return address is on a stack the kernel cannot read from
	 * user mode: no exception, a kill of its own. */
	check_end(kt_ctx, "crash", "sysenter_kernel_stack", EXIT_KILLED(X86_TRAP_GP),
		  "sysenter with a bad stack pointer 00100000");
	/* The return address is in the kernel: sysexit goes there, in
	 * ring 3, and the fetch faults. */
	check_kill(kt_ctx, &kernel_eip);
}

/*
 * TF set at sysenter makes the CPU raise #DB at sysenter_entry's first
 * instruction, before it has loaded the task's kernel stack.  When that
 * first stack was the TSS itself (&kernel_tss.esp0 + 4), the #DB frame
 * wrote EFLAGS over esp0 and CS over the TSS's link field, and the next
 * instruction took that EFLAGS value for the kernel stack: with TF alone
 * a stack in page 0 and a triple fault (tests/run:
 * user-sysenter-single-step-*), with NT and AC set too a stack in low
 * memory, and the kernel went on there.  The link field shows it: the
 * kernel never switches tasks in hardware, so it must stay 0.
 */
KTEST(user_sysenter_single_step_leaves_tss_alone)
{
	if (!syscall_sysenter_enabled()) {
		KT_EXPECT_EQ(run_program("crash", "sysenter_single_step_nt"), CRASH_NOT_HERE);
		KT_SKIP("no sysenter here");
	}
	check_end(kt_ctx, "crash", "sysenter_single_step_nt", CRASH_SURVIVED, NULL);
	KT_EXPECT_EQ(kernel_tss.prev, 0);
}
