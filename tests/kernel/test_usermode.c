/*
 * test_usermode.c - the two ops that leave the kernel: iret and
 * irq_enable_sysexit, each tested by a real trip to ring 3 and back
 * (user_trip.S).  While the user code runs, interrupts are on, so timer
 * interrupts from ring 3 also exercise the privilege-changing iret.
 */
#include <ktest.h>
#include <string.h>
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/msr_index.h>
#include <asm/processor.h>
#include <asm/paging.h>
#include <asm/processor-flags.h>
#include <asm/privileged.h>
#include <asm/traps.h>
#include "user_trip.h"

extern char __user_text_start[], __user_text_end[];
extern char __user_data_start[], __user_data_end[];

static u8 trip_kernel_stack[4096] __attribute__((aligned(16)));
static struct pt_regs trip_regs;
static u32 trip_regs_address;

/* int $USER_TRIP_VECTOR from ring 3 lands here, on trip_kernel_stack. */
static void user_trip_arrived(struct pt_regs *regs)
{
	trip_regs = *regs;
	trip_regs_address = (u32)regs;
	user_trip_resume(1);
}

/* The trip gets a ring-0 stack of its own, given to the CPU with the
 * load_esp0 op; the kernel's own is put back afterwards. */
static int run_trip(int method)
{
	struct thread_struct trip = { .esp0 = (u32)trip_kernel_stack +
					       sizeof(trip_kernel_stack) };
	unsigned long flags = raw_local_irq_save();
	int result;

	paging_set_user((u32)__user_text_start, (u32)__user_text_end);
	paging_set_user((u32)__user_data_start, (u32)__user_data_end);
	load_esp0(&kernel_tss, &trip);
	set_system_gate(USER_TRIP_VECTOR, user_trip_arrived);
	memset(&trip_regs, 0, sizeof(trip_regs));
	trip_regs_address = 0;

	result = user_trip(method);

	set_system_gate(USER_TRIP_VECTOR, NULL);
	load_esp0(&kernel_tss, &init_thread);
	raw_local_irq_restore(flags);
	return result;
}

static void check_user_registers(struct ktest_ctx *kt_ctx)
{
	/* The CPU switched to the stack load_esp0 gave it. */
	KT_EXPECT(trip_regs_address >= (u32)trip_kernel_stack &&
		  trip_regs_address < (u32)trip_kernel_stack + sizeof(trip_kernel_stack));
	KT_EXPECT_EQ(trip_regs.cs & 0xffff, __USER_CS);
	KT_EXPECT_EQ(trip_regs.ss & 0xffff, __USER_DS);
	KT_EXPECT_EQ(trip_regs.eax, USER_TRIP_MAGIC);
	KT_EXPECT_EQ(trip_regs.esp, (u32)user_trip_stack_top);
	KT_EXPECT(trip_regs.eflags & X86_EFLAGS_IF);
}

KTEST(iret_to_user_mode_and_back)
{
	KT_EXPECT_EQ(run_trip(TRIP_BY_IRET), 1);
	check_user_registers(kt_ctx);
}

KTEST(irq_enable_sysexit_to_user_mode_and_back)
{
	u64 saved_cs;

	if (!cpu_has(X86_FEATURE_SEP))
		KT_SKIP("no sysenter/sysexit on this CPU");
	/* sysexit derives the user CS and SS from this kernel CS; without
	 * it, sysexit would fault, so stop here if it cannot be set. */
	if (rdmsr_safe(MSR_IA32_SYSENTER_CS, &saved_cs) ||
	    wrmsr_safe(MSR_IA32_SYSENTER_CS, __KERNEL_CS)) {
		KT_EXPECT(!"SYSENTER_CS MSR not writable");
		return;
	}
	KT_EXPECT_EQ(run_trip(TRIP_BY_SYSEXIT), 1);
	check_user_registers(kt_ctx);
	wrmsr_safe(MSR_IA32_SYSENTER_CS, saved_cs);
}
