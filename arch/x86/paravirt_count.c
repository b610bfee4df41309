/*
 * paravirt_count.c - counts the calls that reach each op of the table.
 *
 * Counting costs a normal boot nothing: the table holds the backend's
 * functions.  Booted with `test`, kmain starts counting before anything
 * else runs: every slot of paravirt_ops then points at a stub
 * (paravirt_count_entry.S) that counts and jumps to the function.  A
 * site the patcher inlined never reaches the table, so in a patched boot
 * the counts show what is left of the indirection; with `nopatch` every
 * call is counted, and the suite demands that every op was called
 * (op coverage, printed at the end of the suite).
 *
 * The patcher looks through the stubs (paravirt_op_function) so that it
 * decides for the real function, and counting does not change what a
 * site becomes.
 */
#include <kernel.h>
#include <cmdline.h>
#include <asm/cpu.h>
#include <asm/paravirt.h>
#include <asm/patch.h>
#include <asm/syscall.h>

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

/* pv= puts its backend in after the early options have started counting:
 * the new functions go behind the stubs, which stay in the table, so
 * counting goes on (and the patcher still sees the real functions). */
void paravirt_count_install(const struct paravirt_ops *ops)
{
	unsigned int s;

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

/* Why the running CPU cannot do op s, or NULL if it can. */
static const char *op_unavailable(unsigned int s)
{
	if (s == PARAVIRT_SLOT(read_tsc) && !cpu_has(X86_FEATURE_TSC))
		return "no TSC";
	if ((s == PARAVIRT_SLOT(read_msr) || s == PARAVIRT_SLOT(write_msr)) &&
	    !cpu_has(X86_FEATURE_MSR))
		return "no MSRs";
	if ((s == PARAVIRT_SLOT(read_cr4) || s == PARAVIRT_SLOT(write_cr4)) &&
	    !boot_cpu.has_cr4)
		return "no CR4";
	if (s == PARAVIRT_SLOT(irq_enable_sysexit) && !syscall_sysenter_enabled())
		return "no sysenter";
	if (s == PARAVIRT_SLOT(wbinvd) && boot_cpu.family < 4)
		return "no wbinvd";
	return NULL;
}

static void print_op_list(const char *what, bool unavailable)
{
	unsigned int s;
	bool first = true;

	for (s = PARAVIRT_FIRST_OP_SLOT; s < PARAVIRT_NR_SLOTS; s++) {
		const char *why = op_unavailable(s);

		if (paravirt_op_calls[s] || !why != !unavailable)
			continue;
		printk("%s %s", first ? what : "", paravirt_op_name(s));
		if (why)
			printk(" (%s)", why);
		first = false;
	}
}

/*
 * "op coverage: N/M": how many of the M ops were reached through the
 * table; then the ops this CPU cannot do, and the ones never called.
 * Returns true when every op the CPU can do was reached.
 */
bool paravirt_coverage_report(void)
{
	unsigned int s, called = 0, lacking = 0;
	unsigned int total = PARAVIRT_NR_OPS;

	for (s = PARAVIRT_FIRST_OP_SLOT; s < PARAVIRT_NR_SLOTS; s++) {
		called += paravirt_op_calls[s] != 0;
		lacking += !paravirt_op_calls[s] && op_unavailable(s);
	}
	printk("op coverage: %u/%u", called, total);
	if (!paravirt_patching_disabled())
		printk(" reached the table (%u sites inlined instead)",
		       paravirt_patch_stats()->inlined);
	print_op_list(", not on this CPU:", true);
	print_op_list(", never called:", false);
	printk("\n");
	return called + lacking == total;
}
