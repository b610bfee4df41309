/*
 * test_percpu.c - the per-CPU area (asm/percpu.h) on the boot CPU: that
 * %fs reaches CPU 0's area in kernel code, from boot and after an entry
 * from ring 3, that `current` read through it is the task whose stack
 * the kernel runs on, that this CPU's GDT describes its own area and
 * TSS, and that sysenter's first instruction finds esp0 in this CPU's
 * TSS.  (The user's own %fs and %gs across system calls, yields and
 * interrupts: user/tls.c, in test_user_state.c.)
 */
#include <ktest.h>
#include <string.h>
#include <task.h>
#include <uapi/errno.h>
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/msr_index.h>
#include <asm/paging.h>
#include <asm/percpu.h>
#include <asm/privileged.h>
#include <asm/syscall.h>
#include <asm/traps.h>
#include <generated/asm-offsets.h>
#include "user_trip.h"

extern char __user_text_start[], __user_text_end[];
extern char __user_data_start[], __user_data_end[];

static u16 read_fs(void)
{
	u32 sel;

	asm volatile("movl %%fs, %0" : "=r" (sel));
	return sel & 0xffff;
}

/* The selector's index: a guest's host may hand back its RPL changed. */
static u16 selector_index(u16 sel)
{
	return sel & ~3u;
}

KTEST(percpu_boot_cpu_is_cpu_0)
{
	struct desc_ptr gdtr;

	KT_EXPECT_EQ(smp_processor_id(), 0);
	KT_EXPECT(this_cpu_ptr() == per_cpu(0));
	KT_EXPECT(per_cpu(0)->self == per_cpu(0));
	KT_EXPECT_EQ(per_cpu(0)->cpu, 0);
	KT_EXPECT_EQ(selector_index(read_fs()), __PERCPU_SEL);
	/* The CPU runs on CPU 0's own GDT, whose per-CPU entry covers
	 * exactly CPU 0's area and whose TSS entry is that area's TSS. */
	store_gdt(&gdtr);
	KT_EXPECT_EQ(gdtr.address, (u32)per_cpu(0)->gdt);
	KT_EXPECT_EQ(descriptor_base(per_cpu(0)->gdt[GDT_ENTRY_PERCPU]), (u32)per_cpu(0));
	KT_EXPECT_EQ(descriptor_limit(per_cpu(0)->gdt[GDT_ENTRY_PERCPU]),
		     sizeof(struct percpu) - 1);
	KT_EXPECT_EQ(descriptor_base(per_cpu(0)->gdt[GDT_ENTRY_TSS]), (u32)&per_cpu(0)->tss);
}

/* current, read through %fs, is the task whose kernel stack this code
 * runs on, is in the task table under its pid, and is the field of CPU
 * 0's area as plain memory holds it. */
KTEST(percpu_current_is_the_running_task)
{
	u32 esp = (u32)__builtin_frame_address(0);
	struct task *t = current;

	KT_EXPECT(t != NULL);
	KT_EXPECT(t == per_cpu(0)->current_task);
	KT_EXPECT(task_by_pid(t->pid) == t);
	KT_EXPECT(esp >= t->kstack && esp < t->kstack + t->kstack_size);
	KT_EXPECT_EQ(this_cpu_read(idle_task)->pid, 0);
}

/* A write through %fs lands in CPU 0's area, and a read comes from it. */
KTEST(percpu_this_cpu_write_lands_in_cpu_0s_area)
{
	unsigned long flags = raw_local_irq_save();
	u32 saved = per_cpu(0)->apic_id;

	this_cpu_write(apic_id, 0x1234);
	KT_EXPECT_EQ(per_cpu(0)->apic_id, 0x1234);
	per_cpu(0)->apic_id = 0x4321;
	asm volatile("" : : : "memory");	/* the read below is not ordered by itself */
	KT_EXPECT_EQ(this_cpu_read(apic_id), 0x4321);
	this_cpu_write(apic_id, saved);
	raw_local_irq_restore(flags);
}

/* What the kernel saw at an int from ring 3 (user_trip.S): its own %fs
 * in the handler, and the user's in the frame. */
static u16 trip_kernel_fs, trip_user_fs;
static u8 trip_stack[4096] __attribute__((aligned(16)));

static void trip_arrived(struct pt_regs *regs)
{
	trip_kernel_fs = read_fs();
	trip_user_fs = regs->fs & 0xffff;
	user_trip_resume(1);
}

/* The iret into ring 3 leaves the user no %fs of the kernel's (the CPU
 * nulls a data segment of a lower DPL than the new CPL), so the entry
 * must load the per-CPU one itself. */
KTEST(percpu_fs_is_loaded_on_entry_from_user_mode)
{
	struct thread_struct trip = { .esp0 = (u32)trip_stack + sizeof(trip_stack) };
	unsigned long flags = raw_local_irq_save();
	int result;

	paging_set_user((u32)__user_text_start, (u32)__user_text_end);
	paging_set_user((u32)__user_data_start, (u32)__user_data_end);
	load_esp0(&kernel_tss, &trip);
	set_system_gate(USER_TRIP_VECTOR, trip_arrived);
	trip_kernel_fs = trip_user_fs = 0xffff;
	result = user_trip(TRIP_BY_IRET);
	set_system_gate(USER_TRIP_VECTOR, NULL);
	load_esp0(&kernel_tss, &current->thread);
	raw_local_irq_restore(flags);

	KT_EXPECT_EQ(result, 1);
	KT_EXPECT_EQ(selector_index(trip_kernel_fs), __PERCPU_SEL);
	KT_EXPECT_EQ(trip_user_fs, 0);
	KT_EXPECT_EQ(selector_index(read_fs()), __PERCPU_SEL);
}

/* sysenter_entry reads esp0 at SYSENTER_esp0 below the stack the MSR
 * names: that must be this CPU's TSS, with this CPU's sysenter stack
 * right above it (the MSR is the CPU's own, and so is the TSS). */
KTEST(percpu_sysenter_finds_this_cpus_tss)
{
	struct percpu *pc = this_cpu_ptr();
	u64 msr_esp;

	if (!syscall_sysenter_enabled())
		KT_SKIP("int $0x80 only on this CPU");
	KT_EXPECT(!rdmsr_safe(MSR_IA32_SYSENTER_ESP, &msr_esp));
	KT_EXPECT_EQ((u32)msr_esp, (u32)pc->sysenter_stack + sizeof(pc->sysenter_stack));
	KT_EXPECT_EQ((u32)msr_esp + SYSENTER_esp0, (u32)&pc->tss.esp0);
	KT_EXPECT_EQ(pc->tss.esp0, current->thread.esp0);
}

#define ACCESSED_BIT	((u64)DESC_ACCESSED << 40)	/* in the access byte */

/* What the AP start-up will get from percpu_setup_ap (asm/percpu.h's
 * contract): an area for that CPU whose GDT describes that area and its
 * TSS, whose TSS gives its own ring-0 stack, and its number and APIC id.
 * It takes the last CPU number no area has yet (none started on it);
 * the area stays, to be rebuilt by the start-up if that CPU comes up. */
KTEST(percpu_setup_ap_builds_that_cpus_area)
{
	unsigned int cpu = NR_CPUS - 1;
	struct percpu *pc;

	while (cpu > 0 && per_cpu(cpu))
		cpu--;
	if (cpu == 0)
		KT_SKIP("every CPU number has an area already");
	KT_EXPECT_EQ(percpu_setup_ap(cpu, 0x42), 0);
	pc = per_cpu(cpu);
	KT_EXPECT(pc != NULL && pc != per_cpu(0));
	if (!pc)
		return;
	KT_EXPECT(pc->self == pc);
	KT_EXPECT_EQ(pc->cpu, cpu);
	KT_EXPECT_EQ(pc->apic_id, 0x42);
	KT_EXPECT(pc->current_task == NULL);
	KT_EXPECT_EQ(descriptor_base(pc->gdt[GDT_ENTRY_PERCPU]), (u32)pc);
	KT_EXPECT_EQ(descriptor_base(pc->gdt[GDT_ENTRY_TSS]), (u32)&pc->tss);
	/* The same kernel code segment as CPU 0's, but for the accessed bit,
	 * which a CPU may set in a descriptor it loads (Bochs does in CPU
	 * 0's), and which the fresh area's does not have yet. */
	KT_EXPECT_EQ(pc->gdt[GDT_ENTRY_KERNEL_CS] | ACCESSED_BIT,
		     per_cpu(0)->gdt[GDT_ENTRY_KERNEL_CS] | ACCESSED_BIT);
	KT_EXPECT_EQ(pc->tss.esp0, (u32)pc->ring0_stack + sizeof(pc->ring0_stack));
	KT_EXPECT_EQ(pc->tss.ss0, __KERNEL_DS);
	/* This CPU's own area is untouched. */
	KT_EXPECT(this_cpu_ptr() == per_cpu(0));
	KT_EXPECT_EQ(smp_processor_id(), 0);
	KT_EXPECT_EQ(percpu_setup_ap(0, 0), -EINVAL);
	KT_EXPECT_EQ(percpu_setup_ap(NR_CPUS, 0), -EINVAL);
}
