/*
 * trace.c - the trace backend: native underneath (guest, in a guest),
 * but every call counted, per op and per patch site.
 *
 * Its table holds a stub per op (paravirt/backends/trace_entry.S) that
 * counts and then jumps to the real function through
 * paravirt_trace_inner, a copy of the table the backend of this ring
 * (paravirt_ring_backend()) prepared: backends never call each other
 * except through a table.  Because the stubs are
 * not the native functions, the patcher makes every site a direct call
 * (or jmp) to them - the patcher's direct-call path - and `pv use
 * trace` can switch to it at run time (paravirt/switch.c).
 *
 * A site is found from the return address of its call: the sites'
 * records are sorted by address once, when the backend is prepared, and
 * searched by halves on each call.  Calls that come from no site (ops
 * the kernel calls through the table directly, such as cpuid) count per
 * op only, and so do iret and sysexit, which are jumped to.
 *
 * The counters are 32-bit, and each is bumped by one `lock incl`: an
 * interrupt cannot split it, nor can another CPU's bump of the same
 * counter, so counting is exact with interrupts on or off and on any
 * number of CPUs.  The op counts are kept per CPU (which CPU met the
 * contended locks, whose IPIs): a stub finds its CPU through
 * %fs, if %fs holds the per-CPU selector - not before a CPU has loaded
 * its area (the boot CPU's first ops, an AP's start-up), nor in the
 * stretches with the user's %fs, where only iret's and sysexit's stubs
 * run.  Those calls count in a row of their own, "no CPU known"; an
 * op's total is every row.  A site's count is the machine's.  No spinlock (LOCK_RANK_TRACE stays free):
 * the stubs count the irq ops that spin_lock_irqsave itself calls, and
 * the atomic add costs the same one instruction as the plain one (the
 * op's instruction count is measured); only its bus cycle is dearer.
 * The 386 has the lock prefix too.  They are never reset: counts add up
 * across switches.
 */
#include <kernel.h>
#include <string.h>
#include <asm/atomic.h>
#include <asm/bench.h>
#include <asm/paravirt.h>
#include <asm/patch.h>
#include <asm/percpu.h>
#include <asm/segment.h>

#define TRACE_MAX_SITES	1024

struct paravirt_ops paravirt_trace_inner;	/* the stubs jump through it */
/* Calls whose CPU is unknown (iret and sysexit always: trace_entry.S). */
u32 paravirt_trace_op_calls[PARAVIRT_NR_SLOTS];
static u32 cpu_op_calls[NR_CPUS][PARAVIRT_NR_SLOTS];	/* the rest, by CPU */
extern void *const paravirt_trace_stubs[PARAVIRT_NR_SLOTS];

static struct paravirt_ops trace_ops;
static u16 by_address[TRACE_MAX_SITES];	/* site indexes, sorted by address */
static u32 site_calls[TRACE_MAX_SITES];	/* by site index */
static unsigned int nr_sites;

static const struct paravirt_patch_site *site_at(unsigned int index)
{
	return &__start_parainstructions[index];
}

/* One more, atomically (see the top of this file). */
static void count_one(u32 *counter)
{
	asm volatile("lock incl %0" : "+m" (*counter));
}

/* Insertion sort: a few hundred records, once (nr_sites says it is
 * done: a stub running meanwhile must not search a half-sorted list). */
static void sort_sites(void)
{
	unsigned int i, j, n = __stop_parainstructions - __start_parainstructions;

	if (nr_sites)
		return;
	for (i = 0; i < n; i++) {
		u16 index = i;

		for (j = i; j > 0 && site_at(by_address[j - 1])->instr >
				     site_at(index)->instr; j--)
			by_address[j] = by_address[j - 1];
		by_address[j] = index;
	}
	nr_sites = n;
}

/* The index of the site a call returning to ret came from, or -1.  A
 * call ends inside its site, so ret lies in (instr, instr + len]. */
static int site_of_return(u32 ret)
{
	unsigned int lo = 0, hi = nr_sites;

	while (lo < hi) {		/* the first site starting at or after ret */
		unsigned int mid = (lo + hi) / 2;

		if (site_at(by_address[mid])->instr < ret)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	lo = by_address[lo - 1];
	return ret <= site_at(lo)->instr + site_at(lo)->len ? (int)lo : -1;
}

/* The counts of the CPU running this: its row, if %fs is the kernel's
 * per-CPU selector (a user cannot load it: its DPL is the kernel's),
 * else the row of calls with no CPU known. */
static u32 *this_cpu_counts(void)
{
	u16 fs;
	u32 cpu;

	asm volatile("movw %%fs, %0" : "=r" (fs));
	if ((fs & ~3) != __PERCPU_SEL)
		return paravirt_trace_op_calls;
	cpu = smp_processor_id();
	return cpu < NR_CPUS ? cpu_op_calls[cpu] : paravirt_trace_op_calls;
}

/* From every called op's stub, before it jumps to the real function. */
void paravirt_trace_count(unsigned int slot, u32 ret)
{
	int site = site_of_return(ret);

	count_one(&this_cpu_counts()[slot]);
	if (site >= 0)
		count_one(&site_calls[site]);
}

/* The op's calls on every CPU, and those whose CPU is unknown. */
u32 paravirt_trace_calls(unsigned int slot)
{
	u32 n;
	unsigned int cpu;

	if (slot >= PARAVIRT_NR_SLOTS)
		return 0;
	n = paravirt_trace_op_calls[slot];
	for_each_possible_cpu(cpu)
		n += cpu_op_calls[cpu][slot];
	return n;
}

u32 paravirt_trace_cpu_calls(unsigned int cpu, unsigned int slot)
{
	return cpu < NR_CPUS && slot < PARAVIRT_NR_SLOTS ? cpu_op_calls[cpu][slot] : 0;
}

/* The function slot's stub jumps to, for `pvops`. */
void *paravirt_trace_wrapped(unsigned int slot)
{
	return slot < PARAVIRT_NR_SLOTS ? ((void **)&paravirt_trace_inner)[slot] : NULL;
}

/* Calls counted at one site (0 for one whose op is jumped to). */
u32 paravirt_trace_site_calls(const struct paravirt_patch_site *site)
{
	unsigned int index = site - __start_parainstructions;

	return index < nr_sites ? site_calls[index] : 0;
}

/*
 * The padding instructions the sites would have run, had the table
 * trace wraps been patched in rather than trace's own: each site's
 * calls times its padding there, one instruction or none
 * (paravirt_site_padding).  make bench counts a path so, in a run of
 * its own, to tell what the NOPs cost from the rest (asm/bench.h).
 * Each site's padding is worked out at the first count asked for: the
 * patcher has its environment by then.
 */
static u8 site_padding[TRACE_MAX_SITES];
static bool padding_known;

static void learn_padding(void)
{
	unsigned int i;

	for (i = 0; i < nr_sites; i++)
		site_padding[i] = paravirt_site_padding(site_at(i),
							paravirt_trace_wrapped(site_at(i)->slot));
	barrier();		/* the table before the flag: no CPU sums half of it */
	padding_known = true;
}

int paravirt_trace_padding(u32 *count)
{
	unsigned int i;
	u32 sum = 0;

	if (!trace_ops.name || strcmp(paravirt_ops.name, trace_ops.name))
		return -ENODEV;		/* not running: the counts stand still */
	if (!padding_known)
		learn_padding();
	for (i = 0; i < nr_sites; i++)
		if (site_padding[i])
			sum += site_calls[i];
	*count = sum;
	return 0;
}

/*
 * The native (or guest) table, copied, and a stub in each op slot.  Run
 * at boot before the console (pv=trace) or by `pv use trace`; doing it
 * again changes nothing, and keeps the counts.
 */
static const struct paravirt_ops *trace_prepare(const char **why)
{
	const struct paravirt_backend *inner = paravirt_find_backend(paravirt_ring_backend());
	const struct paravirt_ops *ops = inner ? inner->prepare(why) : NULL;
	unsigned int slot;

	if (!ops) {
		*why = inner ? *why : "the backend it wraps is missing";
		return NULL;
	}
	if (__stop_parainstructions - __start_parainstructions > TRACE_MAX_SITES) {
		*why = "more patch sites than it can count";
		return NULL;
	}
	paravirt_trace_inner = *ops;
	trace_ops = *ops;	/* its kernel_rpl and eager_fpu too: the same CPU */
	trace_ops.name = "trace";
	for (slot = PARAVIRT_FIRST_OP_SLOT; slot < PARAVIRT_NR_SLOTS; slot++)
		((void **)&trace_ops)[slot] = paravirt_trace_stubs[slot];
	sort_sites();
	return &trace_ops;
}
paravirt_backend("trace", trace_prepare,
		 "native (or guest), every call counted per op and per site (direct calls)");
