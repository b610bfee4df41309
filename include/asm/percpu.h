/*
 * asm/percpu.h - each CPU's own data: the per-CPU area, and how the
 * kernel reaches the one of the CPU it runs on.
 *
 * Everything that describes "the CPU" rather than the machine lives in a
 * struct percpu, one per CPU: its GDT, its TSS and the sysenter stack
 * right above it, a ring-0 stack for its boot thread, its running task,
 * its FPU owner, its idle task, whether it must reschedule, whether a
 * guest's CPU state is in force, its number and its local APIC's id.
 * arch/x86/kernel/smp/percpu.c builds them.
 *
 * The kernel reaches its own CPU's area through %fs, as Linux i386 has
 * since 2.6.20-22 (its "PDA", first through %gs, then %fs, which i386
 * user space's TLS leaves alone, so reloading it costs less): each CPU's GDT has an entry GDT_ENTRY_PERCPU whose base is that CPU's
 * area, and every entry into the kernel loads __PERCPU_SEL into %fs
 * (entry.S, load_kernel_segments).  The same instruction then reads a
 * different area on each CPU, with no CPU number to look up first:
 * this_cpu_read(current_task) is one `movl %fs:offset, %reg`.  The
 * user's own %fs is saved in pt_regs on entry and given back on exit.
 *
 * When %fs is NOT the per-CPU selector, nothing here may be used:
 *   - before percpu_init_boot_cpu() (kmain runs it right after the
 *     Multiboot parse and the command line's early pass: those, the
 *     exception table and the platform read no per-CPU field);
 *   - on an AP before percpu_load_this_cpu();
 *   - in entry code between RESTORE_ALL and the iret/sysexit, and in
 *     sysenter_entry before SAVE_ALL (the user's %fs is loaded there);
 *     that code calls no C.
 * The host's world switch keeps the host's %fs on its stack and pops it
 * after the host's GDT is back, so the host's C code always has it.
 *
 * The contract with the AP start-up (arch/x86/kernel/smp/smpboot.c):
 *   1. on the boot CPU, before sending the AP its SIPI:
 *        percpu_setup_ap(cpu, apic_id)  - allocates and builds CPU cpu's
 *        area (GDT, TSS, ring-0 stack); 0, or -ENOMEM;
 *   2. on the AP itself, in C on any flat kernel stack, with paging on
 *      and interrupts off, before it reads `current` or any per-CPU field
 *      (and before it calls any traced op: the trace backend counts in C):
 *        percpu_load_this_cpu(cpu)      - loads that GDT, the segments
 *        (%fs the per-CPU one), TR, the empty LDT, null TLS slots, the
 *        area's ring-0 stack as esp0, and the sysenter MSRs if the boot
 *        CPU uses sysenter;
 *   3. then its idle task, which the boot CPU made and put in the area
 *      (sched_create_idle), becomes its current task:
 *      this_cpu_write(current_task, this_cpu_read(idle_task)).
 * CPU 0's area is static and built by percpu_init_boot_cpu() (kmain,
 * where gdt_init ran before): the boot CPU's tables exist before the
 * page allocator does.
 */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

#include <types.h>
#include <stddef.h>
#include <asm/segment.h>
#include <asm/desc_defs.h>
#include <asm/cpumask.h>

#define PERCPU_RING0_STACK	8192
#define SYSENTER_STACK_SIZE	1024

struct task;

struct percpu {
	/* The fields this_cpu_read/write reach in one move (8 or 32 bits). */
	struct percpu *self;		/* this area's address: this_cpu_ptr() */
	u32 cpu;			/* 0 for the boot CPU, then in start-up order */
	u32 apic_id;			/* its local APIC's, SMP_NO_APIC_ID if none */
	struct task *current_task;	/* `current` (asm/current.h) */
	struct task *fpu_owner;		/* whose state is in this FPU (fpu.c) */
	bool fpu_ts_set;		/* CR0.TS as fpu.c last set it */
	struct task *idle_task;		/* what runs when nothing is runnable */
	bool need_resched;		/* the timer asked for a switch */
	bool guest_cpu_state;		/* a guest's CPU state, not the host's, is in
					   force (arch/x86/host/cpu_state.c) */
	u64 pmc_at_switch;		/* counter 0 when the task came in (pmc.c) */
	u64 gdt[GDT_TABLE_ENTRIES] __attribute__((aligned(8)));
	u8 ring0_stack[PERCPU_RING0_STACK] __attribute__((aligned(16)));
	/*
	 * The TSS, and the stack sysenter switches to right above it.
	 * sysenter_entry's first instruction reads esp0 at a fixed negative
	 * offset from that stack's top (SYSENTER_esp0 in asm-offsets), as
	 * Linux 2.6 did: each CPU's SYSENTER_ESP MSR then leads to its own
	 * TSS without %fs, which still holds the user's selector there.
	 * Aligned so that the TSS's 104 bytes never cross a page.
	 */
	struct tss tss __attribute__((aligned(128)));
	u8 sysenter_stack[SYSENTER_STACK_SIZE];
};

_Static_assert(offsetof(struct percpu, sysenter_stack) ==
	       offsetof(struct percpu, tss) + sizeof(struct tss),
	       "the sysenter stack lies right above the TSS");

/* Every CPU's area, by number; NULL for one never set up. */
extern struct percpu *percpu_areas[NR_CPUS];

/* Another CPU's area (or this one's, found by number). */
#define per_cpu(n)	(percpu_areas[n])

/* The per-CPU fields this_cpu_read/write handle: 32 bits (a pointer, a
 * number) or 8 (a flag, read as the bool it is: widening a 32-bit flag
 * to bool would cost its readers a test and a setne each). */
#define PERCPU_CHECK_FIELD(field) \
	_Static_assert(sizeof(((struct percpu *)0)->field) == 4 || \
		       sizeof(((struct percpu *)0)->field) == 1, \
		       "this_cpu_read/write take an 8- or 32-bit field")

#define PERCPU_OFFSET(field)	offsetof(struct percpu, field)

/*
 * This CPU's field, in one instruction.  volatile: the asm reads memory
 * the compiler does not see (need_resched changes under an interrupt,
 * current_task across a switch), so it is never cached or dropped.  It
 * is not ordered against plain stores through per_cpu(n)->field: code
 * that mixes the two for the same field needs a compiler barrier in
 * between.  __builtin_choose_expr picks the byte or the long form by the
 * field's size at compile time; the other is never compiled.
 */
#define this_cpu_read(field) ({						\
	PERCPU_CHECK_FIELD(field);					\
	__typeof__(((struct percpu *)0)->field) pcp_val__;		\
	__builtin_choose_expr(sizeof(pcp_val__) == 1,			\
		({ asm volatile("movb %%fs:%c1, %0" : "=q" (pcp_val__)	\
				: "i" (PERCPU_OFFSET(field))); }),	\
		({ asm volatile("movl %%fs:%c1, %0" : "=r" (pcp_val__)	\
				: "i" (PERCPU_OFFSET(field))); }));	\
	pcp_val__; })

#define this_cpu_write(field, val) do {					\
	PERCPU_CHECK_FIELD(field);					\
	__typeof__(((struct percpu *)0)->field) pcp_val__ = (val);	\
	__builtin_choose_expr(sizeof(pcp_val__) == 1,			\
		({ asm volatile("movb %0, %%fs:%c1" : : "qi" (pcp_val__), \
				"i" (PERCPU_OFFSET(field)) : "memory"); }), \
		({ asm volatile("movl %0, %%fs:%c1" : : "ri" (pcp_val__), \
				"i" (PERCPU_OFFSET(field)) : "memory"); })); \
} while (0)

/* This CPU's area as a pointer, for fields wider than 32 bits and for
 * addresses (its GDT, its TSS). */
#define this_cpu_ptr()		this_cpu_read(self)

static inline unsigned int smp_processor_id(void)
{
	return this_cpu_read(cpu);
}

/* The boot CPU: build CPU 0's area and load its tables and %fs. */
void percpu_init_boot_cpu(void);

/* Step 1 of the contract above (boot CPU): 0 or -ENOMEM. */
int percpu_setup_ap(unsigned int cpu, unsigned int apic_id);

/* Step 2 (on the CPU itself): load CPU cpu's tables and %fs. */
void percpu_load_this_cpu(unsigned int cpu);

#endif
