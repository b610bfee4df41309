/*
 * paging.c - the kernel's page tables: RAM mapped 1:1 (virtual =
 * physical) up to KERNEL_SPACE_END, in 4 KiB pages (the 386 has no large
 * pages), supervisor-only.  Every address space shares these page tables
 * (arch/x86/mm/address_space.c copies the directory entries), so the kernel is mapped
 * the same way whichever task runs.
 *
 * Page 0 is left out so that a NULL dereference faults.  Kernel text and
 * read-only data are mapped read-only: the patcher has finished with them
 * before paging is turned on.  With CR0.WP (486 and later) the CPU
 * enforces that in ring 0 too; a 386 has no WP and lets the kernel write
 * anywhere, which the boot log says.  Code is written after that only by
 * kernel_text_poke(), which lifts the protection for the duration.
 */
#include <kernel.h>
#include <bootinfo.h>
#include <page_alloc.h>
#include <asm/cpu.h>
#include <asm/extable.h>
#include <asm/paging.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/trampoline.h>

u32 kernel_page_dir[PT_ENTRIES] __attribute__((aligned(PAGE_SIZE)));
static u32 mapped_bytes;
static bool text_protected;
bool write_protect_obeyed;	/* probed once by paging_init (asm/paging.h) */
static bool text_batch;		/* between kernel_text_batch_begin() and _end() */
/* The table of the KERNEL_MMIO_BASE directory entry: in the image, so it
 * needs no allocation and is never freed (asm/paging.h). */
static u32 mmio_table[PT_ENTRIES] __attribute__((aligned(PAGE_SIZE)));

/* From linker.ld: the read-only part of the image, page-aligned. */
extern char __kernel_ro_start[], __kernel_ro_end[];

bool kernel_text_contains(u32 addr)
{
	return addr >= (u32)__kernel_ro_start && addr < (u32)__kernel_ro_end;
}

/* The kernel's page-table entry for addr (addr < mapped_bytes). */
static u32 *kernel_pte(u32 addr)
{
	u32 *table = (u32 *)(kernel_page_dir[addr / PGDIR_SPAN] & PAGE_MASK);

	return &table[(addr / PAGE_SIZE) % PT_ENTRIES];
}

static void map_kernel_tables(void)
{
	u32 t, nr_tables = (mapped_bytes + PGDIR_SPAN - 1) / PGDIR_SPAN;

	for (t = 0; t < nr_tables; t++) {
		u32 table = page_alloc();

		if (!table)
			panic("paging: no memory for the kernel's page tables");
		kernel_page_dir[t] = table | PTE_PRESENT | PTE_WRITE;
	}
}

/* Plain stores: no %cr3 has held these tables yet (asm/paging.h). */
static void map_identity(void)
{
	u32 addr;

	map_kernel_tables();
	for (addr = PAGE_SIZE; addr < mapped_bytes; addr += PAGE_SIZE)
		*kernel_pte(addr) = addr | PTE_PRESENT |
				    (kernel_text_contains(addr) ? 0 : PTE_WRITE);
}

/* Let ring 3 use the pages of [start, end): both the page-directory
 * entry and the page-table entry must carry the user bit.  Only for the
 * ring-3 trips of the test suite, whose code lives in the kernel image. */
void paging_set_user(u32 start, u32 end)
{
	u32 page;

	for (page = start & PAGE_MASK; page < end; page += PAGE_SIZE) {
		if (page == 0 || page >= mapped_bytes)
			panic("paging_set_user: %08x is not mapped", page);
		u32 *pde = &kernel_page_dir[page / PGDIR_SPAN];

		set_pte_at(kernel_pte(page), *kernel_pte(page) | PTE_USER, page);
		set_pde(pde, *pde | PTE_USER);
	}
	flush_tlb();
}

/* Reloading %cr3 drops every non-global TLB entry: the 386 has no invlpg,
 * and no op for it is in the table. */
static inline void flush_tlb_inline(void)
{
	write_cr3(read_cr3());
}

void flush_tlb(void)
{
	flush_tlb_inline();
}

/*
 * A page of device registers (the local APIC's) at va, uncached: PCD and
 * PWT, so that each load and store reaches the device, in order, and
 * none is served from a cache line.  Paging is on, so the entries change
 * through set_pde and set_pte_at (asm/paging.h's rule).  The directory
 * entry is the kernel's; address_space.c copies it into each task's.
 */
void kernel_map_mmio(u32 va, u32 phys)
{
	u32 *pde = &kernel_page_dir[KERNEL_MMIO_PDE];

	if (va / PGDIR_SPAN != KERNEL_MMIO_PDE)
		panic("kernel_map_mmio: %08x is outside %08x's 4 MiB", va, KERNEL_MMIO_BASE);
	if (!(*pde & PTE_PRESENT))
		set_pde(pde, (u32)mmio_table | PTE_PRESENT | PTE_WRITE);
	set_pte_at(&mmio_table[(va / PAGE_SIZE) % PT_ENTRIES],
		   (phys & PAGE_MASK) | PTE_PRESENT | PTE_WRITE | PTE_PCD | PTE_PWT, va);
	flush_tlb();
}

static void __section(".text.patch_text") __attribute__((noinline))
set_text_writable(u32 start, u32 end, bool writable)
{
	u32 page;

	for (page = start & PAGE_MASK; page < end; page += PAGE_SIZE)
		set_pte_at(kernel_pte(page), (*kernel_pte(page) & ~PTE_WRITE) |
			   (writable ? PTE_WRITE : 0), page);
	flush_tlb_inline();
}

/*
 * Write len bytes of kernel code at addr: the one routine that does.
 * Interrupts are off throughout, so nothing runs the code half-written,
 * and the pages are writable only for the duration.  sync_core then
 * makes the CPU drop anything it had fetched from the old bytes.  It
 * lives in the patcher's fenced section: the patch sites it runs (the
 * irq and %cr3 ops) are never rewritten, so it never runs code it is
 * rewriting.  Before paging is on there is nothing to lift.
 */
void __section(".text.patch_text") __attribute__((noinline))
kernel_text_poke(void *addr, const void *bytes, unsigned int len)
{
	unsigned long flags = raw_local_irq_save();
	volatile u8 *dst = addr;
	const u8 *src = bytes;
	u32 start = (u32)addr;

	if (text_protected && !text_batch)
		set_text_writable(start, start + len, true);
	/* Words where it can: an emulator pays for each store into code
	 * (QEMU drops the translations it made of it), and x86 stores
	 * unaligned words fine. */
	for (; len >= 4; len -= 4, dst += 4, src += 4)
		*(volatile u32 *)dst = *(const u32 *)src;
	while (len--)
		*dst++ = *src++;
	if (text_protected && !text_batch)
		set_text_writable(start, (u32)dst, false);
	sync_core();
	raw_local_irq_restore(flags);
}

/*
 * A batch of kernel_text_poke() calls - a live switch of backend
 * rewrites every site - with the text made writable once around them
 * rather than once per write: two TLB flushes instead of two per site.
 * The caller keeps interrupts off from begin to end, so nothing but
 * kernel_text_poke() writes meanwhile; each write still serializes.
 */
void __section(".text.patch_text") __attribute__((noinline))
kernel_text_batch_begin(void)
{
	if (text_protected)
		set_text_writable((u32)__kernel_ro_start, (u32)__kernel_ro_end, true);
	text_batch = true;
	sync_core();	/* the code writer's rule: leave serialized */
}

void __section(".text.patch_text") __attribute__((noinline))
kernel_text_batch_end(void)
{
	text_batch = false;
	if (text_protected)
		set_text_writable((u32)__kernel_ro_start, (u32)__kernel_ro_end, false);
	sync_core();
}

/*
 * Whether ring 0 really cannot write a read-only page: CR0.WP set, and
 * obeyed.  A 386 has no WP; an emulator may keep the bit and ignore it
 * (DOSBox 0.74 does).  Asked once, as paging comes on (traps are set up
 * by then), for write_protect_holds().  The probe writes a byte of the
 * read-only kernel text back as it is: a fault (taken by the exception
 * table) proves it; a write that goes through changes nothing.
 * Interrupts off: no live patch may have the text writable meanwhile.
 */
static bool probe_write_protect(void)
{
	volatile u8 *probe = (volatile u8 *)__kernel_ro_start;
	unsigned long flags;
	int faulted = 1;

	if (!cpu_has_write_protect() || !text_protected)
		return false;
	flags = raw_local_irq_save();
	asm volatile("1: movb %[v], (%[p])\n\t"
		     "movl $0, %[f]\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : [f] "+r" (faulted) : [p] "r" (probe), [v] "q" (*probe) : "memory");
	raw_local_irq_restore(flags);
	return faulted;
}

void paging_init(void)
{
	unsigned long cr0;

	mapped_bytes = min(memory_top(), KERNEL_SPACE_END) & PAGE_MASK;
	if (mapped_bytes < (u32)__kernel_ro_end)
		panic("paging: %u KiB of RAM does not even hold the kernel",
		      mapped_bytes >> 10);
	map_identity();
	write_cr3((u32)kernel_page_dir);
	cr0 = read_cr0() | X86_CR0_PG;
	if (cpu_has_write_protect())	/* the kernel obeys read-only pages */
		cr0 |= X86_CR0_WP;
	write_cr0(cr0);
	text_protected = true;
	write_protect_obeyed = probe_write_protect();
	printk("paging: on, %u MiB mapped 1:1, page 0 unmapped, kernel text "
	       "%08x-%08x read-only%s\n", mapped_bytes >> 20, (u32)__kernel_ro_start,
	       (u32)__kernel_ro_end, write_protect_obeyed ? "" :
	       cpu_has_write_protect() ? " (CR0.WP set but ignored: ring 0 writes read-only "
	       "pages; system calls check them in software)" :
	       " (386: no CR0.WP, ring 0 ignores read-only pages)");
}

/*
 * Paging on for an AP, from trampoline.S's ap_start32 with paging off
 * (memory is 1:1, so this code and the block read the same either way):
 * the boot CPU's CR4 (PSE, PGE, the FPU's bits), the kernel's page
 * directory, the boot CPU's CR0 with PG and WP, which the boot CPU put
 * in the block (smpboot.c).  Through the ops, as paging_init does on the
 * boot CPU: the trampoline keeps only what must run before the table
 * can be reached.  No per-CPU area is loaded yet, and no backend op
 * needs one: the trace backend counts these three in its "no CPU
 * known" row (paravirt/backends/trace.c).
 */
void paging_start_ap(const struct trampoline_block *b)
{
	if (b->has_cr4)
		write_cr4(b->cr4);
	write_cr3(b->cr3);
	write_cr0(b->cr0);
}

