/*
 * mm.c - address spaces as objects: the struct mm (include/task.h) that
 * a program's tasks share, from its making to its end.
 *
 * exec.c makes one for each program it loads (mm_alloc); each thread the
 * program starts takes one more reference (mm_get, task.c); each task
 * that ends lets go of it (mm_put), and the last one frees the pages,
 * the page tables and the directory.  Code that reads another task's
 * space (the shell's `vm PID`) holds it the same way for the time it
 * reads, through mm_get_unless_zero (task_get_mm, task.c): a space
 * whose last user has gone is not brought back.  Kept apart from task.c, which both
 * calls exec.c and is called by it for this.
 *
 * The slots are a fixed table, as the tasks are: every space in use has
 * a task, so NR_TASKS of them are enough.  mm_slots_lock (a leaf) guards
 * the users counts and so the claiming of a free slot (users 0).
 */
#include <kernel.h>
#include <spinlock.h>
#include <string.h>
#include <task.h>
#include <asm/paging.h>

static struct mm mms[NR_TASKS];
static DEFINE_SPINLOCK(mm_slots_lock, LOCK_RANK_MM_SLOTS);

/* A fresh page directory in a free slot, its one user the caller's
 * task; NULL if there is no memory for the directory or no free slot
 * (only if one was never given back). */
struct mm *mm_alloc(void)
{
	unsigned long flags;
	struct mm *mm;
	u32 *pgd = pgd_alloc();

	if (!pgd)
		return NULL;
	spin_lock_irqsave_call(&mm_slots_lock, &flags);
	for (mm = mms; mm < mms + NR_TASKS && mm->users; mm++)
		;
	if (mm < mms + NR_TASKS) {
		memset(mm, 0, sizeof(*mm));
		mm->users = 1;
	}
	spin_unlock_irqrestore_call(&mm_slots_lock, flags);
	if (mm == mms + NR_TASKS) {
		pgd_free(pgd);
		return NULL;
	}
	mm->pgd = pgd;
	spin_lock_init(&mm->brk_lock, "mm.brk_lock", LOCK_RANK_MM_BRK);
	spin_lock_init(&mm->table_lock, "mm.table_lock", LOCK_RANK_MM_TABLES);
	return mm;
}

/* One user more: a thread of a task that uses it already. */
void mm_get(struct mm *mm)
{
	unsigned long flags;

	spin_lock_irqsave_call(&mm_slots_lock, &flags);
	mm->users++;
	spin_unlock_irqrestore_call(&mm_slots_lock, flags);
}

/*
 * One user more, unless it has none: a space whose users fell to 0 is
 * being freed (or its slot is free, or already another's), and must not
 * be used again.  For a reader that does not run in the space; it then
 * checks that the space is still the one it meant (task_get_mm).
 */
bool mm_get_unless_zero(struct mm *mm)
{
	unsigned long flags;
	bool got;

	spin_lock_irqsave_call(&mm_slots_lock, &flags);
	got = mm->users != 0;
	if (got)
		mm->users++;
	spin_unlock_irqrestore_call(&mm_slots_lock, flags);
	return got;
}

/*
 * One user fewer; the last frees the pages, the page tables and the
 * directory.  No CPU has the space loaded then: each task switched away
 * from it (task.c, task_release) before it let go, and a reader that
 * held it (task_get_mm) never loaded it, so no TLB can hold an entry of
 * it and nothing needs shooting down.  The directory's address
 * is read before the slot can be claimed again.
 */
void mm_put(struct mm *mm)
{
	unsigned long flags;
	u32 *pgd = mm->pgd;
	bool last;

	spin_lock_irqsave_call(&mm_slots_lock, &flags);
	last = --mm->users == 0;
	spin_unlock_irqrestore_call(&mm_slots_lock, flags);
	if (last)
		pgd_free(pgd);
}
