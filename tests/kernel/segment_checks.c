/*
 * segment_checks.c - probe, in ring 0, two checks of the CPU's
 * segmentation that an emulator may leave out (QEMU's TCG does): the
 * limit of a data segment, and the null selector.  Each probe makes the
 * access under an exception-table entry: if it faults, the fixup says
 * so; if not, the CPU does not check.
 *
 * The limit probe borrows the last TLS slot of the GDT for a 16-byte
 * kernel data segment, with interrupts off, and then puts back the
 * current task's own slots (load_tls), which the next context switch
 * would load anyway.  lar, last, reads a descriptor's access rights.
 */
#include <task.h>
#include <asm/desc.h>
#include <asm/extable.h>
#include <asm/privileged.h>
#include "segment_checks.h"

#define PROBE_SLOT	(GDT_ENTRY_TLS_MIN + GDT_ENTRY_TLS_ENTRIES - 1)

static u32 probe_memory[8];

/* Read 4 bytes at %fs:offset with %fs = sel; true if that faulted.  %fs
 * is the kernel's per-CPU segment (asm/percpu.h): given back after. */
static bool fs_read_faults(u32 sel, u32 offset)
{
	u32 faulted = 1, dummy;

	asm volatile("movl %[sel], %%fs\n"
		     "1: movl %%fs:(%[off]), %[dummy]\n\t"
		     "movl $0, %[faulted]\n"
		     "2:\n\t"
		     "movl %[percpu], %%fs\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : [faulted] "+r" (faulted), [dummy] "=&r" (dummy)
		     : [sel] "r" (sel), [off] "r" (offset), [percpu] "r" (__PERCPU_SEL)
		     : "memory");
	return faulted;
}

bool cpu_checks_segment_limits(void)
{
	unsigned long flags = raw_local_irq_save();
	bool faulted;

	write_gdt_entry(gdt_table, PROBE_SLOT,
			pack_descriptor((u32)probe_memory, 16 - 1,
					DESC_PRESENT | DESC_DPL(0) | DESC_CODE_DATA |
					DESC_DATA_W, 0x4));
	/* Inside the limit must work, or the probe proves nothing. */
	faulted = !fs_read_faults(PROBE_SLOT * 8, 12) && fs_read_faults(PROBE_SLOT * 8, 16);
	load_TLS(&current->thread, 0);
	raw_local_irq_restore(flags);
	return faulted;
}

bool cpu_checks_null_selector(void)
{
	return fs_read_faults(0, (u32)probe_memory);
}

u32 lar(u32 sel)
{
	u32 rights = 0;

	asm volatile("lar %1, %0\n\t"
		     "jz 1f\n\t"
		     "xorl %0, %0\n"
		     "1:" : "+r" (rights) : "r" (sel) : "cc");
	return rights;
}
