/*
 * task_segments.c - segments a task defines for itself: three
 * thread-local slots in the GDT (installed by load_tls at every switch)
 * and a private LDT (installed by load_task_ldt).
 *
 * A task may also free a slot (base = limit = 0) while a segment register
 * still holds its selector: the way back to user mode then meets a bad
 * selector, which entry.S survives (POP_USER_SEGMENT, iret_fault).
 *
 * Segmentation cannot open kernel memory to ring 3 here: whatever base
 * and limit a task asks for, paging still refuses it supervisor pages.
 * The checks below keep segments inside user space anyway, so that a
 * segment means what the program thinks it means.
 */
#include <kernel.h>
#include <task.h>
#include <asm/desc.h>
#include <asm/paging.h>
#include <asm/privileged.h>
#include <asm/process.h>

#define LDT_SELECTOR_TI	4	/* table indicator: the LDT, not the GDT */

u64 user_data_segment(u32 base, u32 limit)
{
	u8 access = DESC_PRESENT | DESC_DPL(3) | DESC_CODE_DATA | DESC_DATA_W;

	if (limit <= (1 << 20))
		return pack_descriptor(base, limit - 1, access, 0x4);
	return pack_descriptor(base, (limit >> 12) - 1, access, DESC_FLAGS_4K32);
}

static bool segment_in_user_space(u32 base, u32 limit)
{
	return limit && base >= USER_BASE && base < USER_END &&
	       limit <= USER_END - base;
}

/* The descriptor for base and limit; base = limit = 0 frees the slot
 * (an empty descriptor).  False if the segment is not in user space. */
static bool make_segment(u32 base, u32 limit, u64 *desc)
{
	if (!base && !limit) {
		*desc = 0;
		return true;
	}
	if (!segment_in_user_space(base, limit))
		return false;
	*desc = user_data_segment(base, limit);
	return true;
}

/* Returns the selector for the slot, or -EINVAL. */
int arch_set_tls(struct task *t, unsigned int slot, u32 base, u32 limit)
{
	u64 desc;

	if (slot >= GDT_ENTRY_TLS_ENTRIES || !make_segment(base, limit, &desc))
		return -EINVAL;
	t->thread.tls_array[slot] = desc;
	if (t == current)
		load_TLS(&t->thread, smp_processor_id());
	return (GDT_ENTRY_TLS_MIN + slot) * 8 + 3;
}

int arch_set_ldt_entry(struct task *t, unsigned int slot, u32 base, u32 limit)
{
	u64 desc;

	if (slot >= LDT_ENTRIES || !make_segment(base, limit, &desc))
		return -EINVAL;
	write_ldt_entry(t->thread.ldt, slot, desc);
	t->thread.has_ldt = true;
	if (t == current)
		load_task_ldt(t->thread.ldt);
	return slot * 8 + LDT_SELECTOR_TI + 3;
}
