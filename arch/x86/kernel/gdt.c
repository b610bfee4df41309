/*
 * gdt.c - the global descriptor tables, the TSSs and the LDT.
 *
 * pv386 uses flat segments (base 0, limit 4 GiB) for kernel and user code
 * and data; segmentation exists only because x86 requires it, and for
 * one more thing: each CPU's GDT has a small segment over its per-CPU
 * area (asm/percpu.h), which the kernel keeps in %fs.  Each CPU has its
 * own GDT and TSS in that area; smp/percpu.c says when they are built and
 * loaded, this file what goes in them.  Every descriptor is written, and
 * every table loaded, through paravirt_ops: a hypervisor backend may
 * need to check or translate them.
 */
#include <kernel.h>
#include <string.h>
#include <asm/desc.h>
#include <asm/percpu.h>
#include <asm/processor.h>
#include <asm/privileged.h>

/* The empty LDT: no CPU ever writes it, so all of them share it. */
u64 ldt_table[LDT_ENTRIES] __attribute__((aligned(8)));
/* The boot thread's state (CPU 0's first task) and every new task's
 * starting point (kernel/task.c copies it). */
struct thread_struct init_thread;

static u64 ldt_descriptor(const u64 *ldt)
{
	return pack_descriptor((u32)ldt, LDT_ENTRIES * sizeof(u64) - 1,
			       DESC_PRESENT | DESC_LDT, 0);
}

/* Point this CPU's LDT descriptor at a task's own LDT (NULL: the empty
 * one) and load it: a run-time descriptor update, at a context switch. */
void load_task_ldt(const u64 *ldt)
{
	write_gdt_entry(this_cpu_ptr()->gdt, GDT_ENTRY_LDT,
			ldt_descriptor(ldt ? ldt : ldt_table));
	load_ldt_desc();
}

/* The per-CPU segment: byte-granular over exactly the area, so that a
 * stray %fs offset faults instead of reading the next CPU's.  32-bit
 * (the D/B flag) like every other data segment here. */
static u64 percpu_segment(const struct percpu *pc)
{
	return pack_descriptor((u32)pc, sizeof(*pc) - 1,
			       DESC_PRESENT | DESC_CODE_DATA | DESC_DATA_W, 0x4);
}

/* CPU pc's GDT: the same layout on every CPU (asm/segment.h), its own
 * TSS and per-CPU area. */
void gdt_fill(struct percpu *pc)
{
	u64 *gdt = pc->gdt;

	write_gdt_entry(gdt, 0, 0);
	write_gdt_entry(gdt, GDT_ENTRY_KERNEL_CS, flat_segment(0, DESC_CODE_R));
	write_gdt_entry(gdt, GDT_ENTRY_KERNEL_DS, flat_segment(0, DESC_DATA_W));
	write_gdt_entry(gdt, GDT_ENTRY_USER_CS, flat_segment(3, DESC_CODE_R));
	write_gdt_entry(gdt, GDT_ENTRY_USER_DS, flat_segment(3, DESC_DATA_W));
	write_gdt_entry(gdt, GDT_ENTRY_TSS,
			pack_descriptor((u32)&pc->tss, sizeof(pc->tss) - 1,
					DESC_PRESENT | DESC_TSS32, 0));
	write_gdt_entry(gdt, GDT_ENTRY_LDT, ldt_descriptor(ldt_table));
	write_gdt_entry(gdt, GDT_ENTRY_PERCPU, percpu_segment(pc));
	/* A host's Switcher runs on these while it changes worlds (asm/segment.h). */
	write_gdt_entry(gdt, GDT_ENTRY_SWITCHER_CS, flat_segment(0, DESC_CODE_R));
	write_gdt_entry(gdt, GDT_ENTRY_SWITCHER_DS, flat_segment(0, DESC_DATA_W));
}

/* A far jump is the only way to reload %cs; the data segment registers
 * take the new selector directly.  None of this is privileged, but %ss
 * takes only a selector whose RPL is the ring the kernel runs at (1 in
 * a guest; the far jump sets %cs's itself).  %fs gets this CPU's area,
 * %gs nothing: from here on the kernel runs with them so, as every
 * entry from user mode sets them again (entry.S). */
void gdt_load_segments(void)
{
	asm volatile("ljmp %0, $1f\n"
		     "1:\n\t"
		     "movl %1, %%eax\n\t"
		     "movl %%eax, %%ds\n\t"
		     "movl %%eax, %%es\n\t"
		     "movl %%eax, %%ss\n\t"
		     "movl %2, %%eax\n\t"
		     "movl %%eax, %%fs\n\t"
		     "xorl %%eax, %%eax\n\t"
		     "movl %%eax, %%gs"
		     : : "i" (__KERNEL_CS), "r" (__KERNEL_DS | get_kernel_rpl()),
		       "i" (__PERCPU_SEL)
		     : "eax", "memory");
}

/* CPU pc's TSS: the ring-0 stack for entries from user mode.  boot is
 * the thread running when the CPU comes up (init_thread on CPU 0): its
 * esp0 becomes the area's own ring-0 stack, never the boot stack, whose
 * top holds kmain's frame (or, on an AP, the start-up's).  Only memory
 * is written here, maybe on another CPU than pc's: the load_esp0 op,
 * which tells a hypervisor the stack, runs on pc's CPU (gdt_load). */
void tss_fill(struct percpu *pc, struct thread_struct *boot)
{
	memset(&pc->tss, 0, sizeof(pc->tss));
	pc->tss.ss0 = __KERNEL_DS;
	/* An I/O bitmap offset past the limit means "no bitmap": user-mode
	 * port access is then decided by IOPL alone. */
	pc->tss.iomap_base = sizeof(pc->tss);
	boot->esp0 = (u32)pc->ring0_stack + sizeof(pc->ring0_stack);
	pc->tss.esp0 = boot->esp0;
}

/* Load CPU pc's GDT and everything that comes from it, on the CPU
 * running this: segments, TR, the empty LDT, null TLS slots, the boot
 * thread's ring-0 stack. */
void gdt_load(struct percpu *pc, const struct thread_struct *boot)
{
	struct desc_ptr gdtr = {
		.size = sizeof(pc->gdt) - 1,
		.address = (u32)pc->gdt,
	};

	load_gdt(&gdtr);
	gdt_load_segments();
	load_tr_desc();
	load_ldt_desc();
	load_TLS(boot, pc->cpu);
	load_esp0(&pc->tss, boot);
}
