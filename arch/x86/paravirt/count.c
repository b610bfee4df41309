/*
 * count.c - counts the calls that reach each op of the table.
 *
 * Counting costs a normal boot nothing: the table holds the backend's
 * functions.  Booted with `test`, kmain starts counting before anything
 * else runs: every slot of paravirt_ops then points at a stub
 * (paravirt/count_entry.S) that counts and jumps to the function.  A
 * site the patcher inlined never reaches the table, so in a patched boot
 * the counts show what is left of the indirection; with `nopatch` every
 * call is counted, and the suite demands that every op was called
 * (op coverage, printed at the end of the suite by paravirt/coverage.c).
 *
 * The patcher looks through the stubs (paravirt_op_function) so that it
 * decides for the real function, and counting does not change what a
 * site becomes.  A backend chosen later (pv=, `pv use`) goes in behind
 * the stubs (paravirt_install_ops).
 *
 * The trace backend (paravirt/backends/trace.c) counts too, but something else:
 * every call its functions receive, per op and per site, inlined sites
 * being direct calls under it.  opcount counts what reaches the table,
 * whatever the backend - the indirection that is left - so the two stay
 * separate: each answers its own question, and opcount over trace
 * shows what trace's direct calls took away from the table.
 */
#include <kernel.h>
#include <cmdline.h>
#include <asm/cpu.h>
#include <asm/paravirt.h>

u32 paravirt_op_calls[PARAVIRT_NR_SLOTS];
void *paravirt_op_real[PARAVIRT_NR_SLOTS];
extern void *const paravirt_count_stubs[PARAVIRT_NR_SLOTS];

static bool counting;

static void **slots(void)
{
	return (void **)&paravirt_ops;
}

void paravirt_count_start(void)
{
	unsigned int s;

	if (counting)
		return;
	for (s = PARAVIRT_FIRST_OP_SLOT; s < PARAVIRT_NR_SLOTS; s++) {
		paravirt_op_real[s] = slots()[s];
		slots()[s] = paravirt_count_stubs[s];
	}
	counting = true;
}

/*
 * Put a backend's functions into the table (at boot for pv=, and for
 * each live switch): while counting, behind the stubs, which must stay
 * in the table to go on counting.  The caller keeps interrupts off.
 */
void paravirt_install_ops(const struct paravirt_ops *ops)
{
	unsigned int s;

	if (!counting) {
		paravirt_ops = *ops;
		return;
	}
	paravirt_ops.name = ops->name;
	paravirt_ops.kernel_rpl = ops->kernel_rpl;
	for (s = PARAVIRT_FIRST_OP_SLOT; s < PARAVIRT_NR_SLOTS; s++)
		paravirt_op_real[s] = ((void *const *)ops)[s];
}

/* `opcount`: count without running the suite (e.g. with run=). */
static int set_opcount(const char *v)
{
	(void)v;
	paravirt_count_start();
	return 0;
}
early_boot_option("opcount", set_opcount, "count the calls that reach each paravirt op");

/* The function behind slot s, whether or not a stub counts its calls. */
void *paravirt_op_function(unsigned int s)
{
	if (counting && slots()[s] == paravirt_count_stubs[s])
		return paravirt_op_real[s];
	return slots()[s];
}

bool paravirt_counting(void)
{
	return counting;
}
