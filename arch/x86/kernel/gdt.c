/*
 * gdt.c - the global descriptor table, the TSS and the LDT.
 *
 * pv386 uses flat segments (base 0, limit 4 GiB) for kernel and user code
 * and data; segmentation exists only because x86 requires it.  Every
 * descriptor is written, and every table loaded, through paravirt_ops:
 * a hypervisor backend may need to check or translate them.
 */
#include <kernel.h>
#include <string.h>
#include <asm/desc.h>
#include <asm/processor.h>
#include <asm/privileged.h>

u64 gdt_table[GDT_ENTRIES] __attribute__((aligned(8)));
u64 ldt_table[LDT_ENTRIES] __attribute__((aligned(8)));
struct tss kernel_tss;
struct thread_struct init_thread;

/* Entries from user mode get a stack of their own: never the boot stack,
 * whose top holds kmain's frame. */
static u8 ring0_stack[8192] __attribute__((aligned(16)));

static u64 ldt_descriptor(const u64 *ldt)
{
	return pack_descriptor((u32)ldt, LDT_ENTRIES * sizeof(u64) - 1,
			       DESC_PRESENT | DESC_LDT, 0);
}

/* Point the GDT's LDT descriptor at a task's own LDT (NULL: the empty
 * one) and load it: a run-time descriptor update, at a context switch. */
void load_task_ldt(const u64 *ldt)
{
	write_gdt_entry(gdt_table, GDT_ENTRY_LDT, ldt_descriptor(ldt ? ldt : ldt_table));
	load_ldt_desc();
}

static void gdt_fill(void)
{
	write_gdt_entry(gdt_table, 0, 0);
	write_gdt_entry(gdt_table, GDT_ENTRY_KERNEL_CS, flat_segment(0, DESC_CODE_R));
	write_gdt_entry(gdt_table, GDT_ENTRY_KERNEL_DS, flat_segment(0, DESC_DATA_W));
	write_gdt_entry(gdt_table, GDT_ENTRY_USER_CS, flat_segment(3, DESC_CODE_R));
	write_gdt_entry(gdt_table, GDT_ENTRY_USER_DS, flat_segment(3, DESC_DATA_W));
	write_gdt_entry(gdt_table, GDT_ENTRY_TSS,
			pack_descriptor((u32)&kernel_tss, sizeof(kernel_tss) - 1,
					DESC_PRESENT | DESC_TSS32, 0));
	write_gdt_entry(gdt_table, GDT_ENTRY_LDT, ldt_descriptor(ldt_table));
}

/* A far jump is the only way to reload %cs; the data segment registers
 * take the new selector directly.  None of this is privileged, but %ss
 * takes only a selector whose RPL is the ring the kernel runs at (1 in
 * a guest; the far jump sets %cs's itself). */
static void reload_segments(void)
{
	asm volatile("ljmp %0, $1f\n"
		     "1:\n\t"
		     "movl %1, %%eax\n\t"
		     "movl %%eax, %%ds\n\t"
		     "movl %%eax, %%es\n\t"
		     "movl %%eax, %%ss\n\t"
		     "xorl %%eax, %%eax\n\t"
		     "movl %%eax, %%fs\n\t"
		     "movl %%eax, %%gs"
		     : : "i" (__KERNEL_CS), "r" (__KERNEL_DS | get_kernel_rpl())
		     : "eax", "memory");
}

static void tss_init(void)
{
	memset(&kernel_tss, 0, sizeof(kernel_tss));
	kernel_tss.ss0 = __KERNEL_DS;
	/* An I/O bitmap offset past the limit means "no bitmap": user-mode
	 * port access is then decided by IOPL alone. */
	kernel_tss.iomap_base = sizeof(kernel_tss);
	init_thread.esp0 = (u32)ring0_stack + sizeof(ring0_stack);
	load_esp0(&kernel_tss, &init_thread);
}

void gdt_init(void)
{
	struct desc_ptr gdtr = {
		.size = sizeof(gdt_table) - 1,
		.address = (u32)gdt_table,
	};

	tss_init();
	gdt_fill();
	load_gdt(&gdtr);
	reload_segments();
	load_tr_desc();
	load_ldt_desc();
	load_TLS(&init_thread, 0);
}
