/*
 * install.c - puts a backend's table into paravirt_ops, and counts the
 * calls that reach each op when asked.
 *
 * Every table the kernel runs on comes in through paravirt_install_ops:
 * the native one at boot (paravirt.c), the one pv= names (backends.c)
 * and each live switch (switch.c).  It keeps the table it was given, so
 * that what a slot holds - the question the patcher and the reports ask
 * - has one answer, paravirt_installed_op(), whatever paravirt_ops
 * itself holds.
 *
 * Counting costs a normal boot nothing.  Booted with `test` or
 * `opcount`, every slot of paravirt_ops points at a stub
 * (count_entry.S) that counts and jumps to the installed function.  A
 * site the patcher inlined never reaches the table, so in a patched boot
 * the counts show what is left of the indirection; with `nopatch` every
 * call is counted, and the suite demands that every op was called (op
 * coverage, coverage.c).
 *
 * The trace backend (backends/trace.c) counts too, but something else:
 * every call its functions receive, per op and per site, inlined sites
 * being direct calls under it.  The count here is of what reaches the
 * table, whatever the backend - the indirection that is left - so the
 * two stay separate: each answers its own question, and counting over
 * trace shows what trace's direct calls took away from the table.
 */
#include <kernel.h>
#include <cmdline.h>
#include <asm/paravirt.h>

/* The installed backend's table, as it gave it; the counting stubs jump
 * through it. */
struct paravirt_ops paravirt_installed_ops;
u32 paravirt_op_calls[PARAVIRT_NR_SLOTS];
extern void *const paravirt_count_stubs[PARAVIRT_NR_SLOTS];

static bool counting;

static void point_slots_at_count_stubs(void)
{
	void **slots = (void **)&paravirt_ops;
	unsigned int s;

	for (s = PARAVIRT_FIRST_OP_SLOT; s < PARAVIRT_NR_SLOTS; s++)
		slots[s] = paravirt_count_stubs[s];
}

/* Into paravirt_ops, behind the counting stubs if counting.  The caller
 * keeps interrupts off once the kernel runs. */
void paravirt_install_ops(const struct paravirt_ops *ops)
{
	paravirt_installed_ops = *ops;
	paravirt_ops = *ops;
	if (counting)
		point_slots_at_count_stubs();
}

void *paravirt_installed_op(unsigned int slot)
{
	return ((void *const *)&paravirt_installed_ops)[slot];
}

void paravirt_count_start(void)
{
	counting = true;
	point_slots_at_count_stubs();
}

bool paravirt_counting(void)
{
	return counting;
}

/* `opcount`: count without running the suite (e.g. with run=). */
static int set_opcount(const char *v)
{
	(void)v;
	paravirt_count_start();
	return 0;
}
early_boot_option("opcount", set_opcount, "count the calls that reach each paravirt op");
