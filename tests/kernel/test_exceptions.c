/*
 * test_exceptions.c - every CPU exception vector, 0 to 31, goes through
 * its IDT gate and entry stub to the handler, is counted on its own
 * vector (trap_count), and the kernel goes on.
 *
 * Where an instruction can provoke the exception safely in ring 0, it
 * does, under an exception-table entry (faults) or as a trap the
 * handler continues after: #DE, #BP, #OF, #BR, #UD, #NM, #NP, #SS, #GP,
 * #PF.
 * The rest are raised by hand (exception_raise.S): `int $n` for vectors
 * without an error code, and for those with one (8, 10-14, 17, 21, 29,
 * 30) the frame the CPU would push, error code included.  Raised by hand
 * because the CPU cannot be made to raise them here: #DF, #TS, #AC
 * (ring 3 only), #MC, #CP and the reserved ones; #MF and #XM are real in
 * user mode (test_user_faults.c), but here they would disturb the FPU
 * registers a user task may own.
 */
#include <ktest.h>
#include <task.h>
#include <asm/desc.h>
#include <asm/extable.h>
#include <asm/hypercall.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/switcher.h>
#include <asm/traps.h>

#define NR_EXCEPTIONS		32
#define PROBE_SLOT		(GDT_ENTRY_TLS_MIN + GDT_ENTRY_TLS_ENTRIES - 1)

extern void (*const raise_int_vector[NR_EXCEPTIONS])(void);
void raise_with_error_code(u32 vector, u32 error, u32 eflags);

/* ---- provoked by an instruction ---- */

static void divide_by_zero(void)
{
	u32 eax = 1, edx = 0, zero = 0;

	asm volatile("1: divl %2\n2:\n\t" _ASM_EXTABLE(1b, 2b)
		     : "+a" (eax), "+d" (edx) : "r" (zero));
}

static void breakpoint(void)
{
	asm volatile("int3");
}

/* into with OF set: a trap, reported, and the kernel goes on. */
static void overflow(void)
{
	asm volatile("movl $0x7fffffff, %%eax\n\t"
		     "addl $1, %%eax\n\t"
		     "into" : : : "eax", "cc");
}

static void bound_exceeded(void)
{
	static const s32 bounds[2] = { 0, 10 };
	s32 index = 100;

	asm volatile("1: boundl %0, %1\n2:\n\t" _ASM_EXTABLE(1b, 2b)
		     : : "r" (index), "m" (bounds));
}

static void invalid_opcode(void)
{
	asm volatile("1: ud2\n2:\n\t" _ASM_EXTABLE(1b, 2b));
}

/* CR0.TS set: the next FPU instruction raises #NM before it runs. */
static void device_not_available(void)
{
	unsigned long cr0 = read_cr0();

	write_cr0(cr0 | X86_CR0_TS);
	asm volatile("1: fnop\n2:\n\t" _ASM_EXTABLE(1b, 2b));
	write_cr0(cr0);
}

/* A data segment in a borrowed GDT slot, marked not present: loading it
 * into %fs raises #NP, into %ss #SS, both naming the selector.  It is
 * the kernel's own level (ring 1 in a guest): a segment it may not load
 * would raise #GP before its presence is looked at. */
static void load_absent_segment(bool into_ss)
{
	unsigned int rpl = get_kernel_rpl();
	u64 absent = pack_descriptor(0, 0xfffff, DESC_DPL(rpl) | DESC_CODE_DATA |
				     DESC_DATA_W, DESC_FLAGS_4K32);
	u32 sel = PROBE_SLOT * 8 | rpl;

	write_gdt_entry(gdt_table, PROBE_SLOT, absent);
	if (into_ss)
		asm volatile("1: movl %0, %%ss\n2:\n\t" _ASM_EXTABLE(1b, 2b) : : "r" (sel));
	else
		asm volatile("1: movl %0, %%fs\n2:\n\t" _ASM_EXTABLE(1b, 2b) : : "r" (sel));
	load_TLS(&current->thread, 0);
}

static void segment_not_present(void)
{
	load_absent_segment(false);
}

static void stack_segment_fault(void)
{
	load_absent_segment(true);
}

static void general_protection(void)
{
	asm volatile("1: movl %0, %%fs\n2:\n\t" _ASM_EXTABLE(1b, 2b) : : "r" (0xfff8));
}

static void page_fault(void)
{
	u32 v;

	asm volatile("1: movl 0x10, %0\n2:\n\t" _ASM_EXTABLE(1b, 2b) : "=r" (v));
}

static void (*const provoke[NR_EXCEPTIONS])(void) = {
	[X86_TRAP_DE] = divide_by_zero,
	[X86_TRAP_BP] = breakpoint,
	[X86_TRAP_OF] = overflow,
	[X86_TRAP_BR] = bound_exceeded,
	[X86_TRAP_UD] = invalid_opcode,
	[X86_TRAP_NM] = device_not_available,
	[X86_TRAP_NP] = segment_not_present,
	[X86_TRAP_SS] = stack_segment_fault,
	[X86_TRAP_GP] = general_protection,
	[X86_TRAP_PF] = page_fault,
};

/* ---- raised by hand ---- */

static void raise_vector(unsigned int v)
{
	unsigned long flags = raw_local_irq_save();

	if (raise_int_vector[v])
		raise_int_vector[v]();
	else	/* an error code with the vector in it, to tell them apart */
		raise_with_error_code(v, v << 3, raw_local_save_flags());
	raw_local_irq_restore(flags);
}

/* Each vector once: it must be counted once, on itself. */
static void check_vector(struct ktest_ctx *kt_ctx, unsigned int v, void (*fn)(void))
{
	unsigned long before[NR_EXCEPTIONS];
	unsigned int i;

	for (i = 0; i < NR_EXCEPTIONS; i++)
		before[i] = trap_count(i);
	if (fn)
		fn();
	else
		raise_vector(v);
	for (i = 0; i < NR_EXCEPTIONS; i++) {
		unsigned long want = before[i] + (i == v);

		if (trap_count(i) != want) {
			kt_ctx->failures++;
			printk("ktest:   vector %u: vector %u counted %lu times\n",
			       v, i, trap_count(i) - before[i]);
		}
	}
}

/* In a guest, `int $0x1f` is a hypercall: the host's, never the guest
 * kernel's vector (asm/hypercall.h); and `int $1`, `int $2`, `int $7`,
 * `int $18` are #GP
 * (the host admits ring 0 only there: software_int_..._is_gp_in_a_guest
 * below).  Named as left out, not skipped. */
static bool left_out_in_guest(unsigned int v)
{
	if (current_ring() == 0)
		return false;
	if (v == HYPERCALL_VECTOR)
		printk("ktest:   vector %u left out in a guest: int $%u is the host's hypercall\n",
		       v, v);
	else if (v == X86_TRAP_DB || v == X86_TRAP_NMI || v == X86_TRAP_NM || v == X86_TRAP_MC)
		printk("ktest:   vector %u left out in a guest: int $%u is #GP there\n", v, v);
	else
		return false;
	return true;
}

KTEST(every_exception_vector_is_handled)
{
	unsigned int v;

	for (v = 0; v < NR_EXCEPTIONS; v++)
		if (provoke[v] || !left_out_in_guest(v))
			check_vector(kt_ctx, v, provoke[v]);
}

/* The same vectors raised by hand reach the same handler as the real
 * instructions above: both ways counted on the vector. */
KTEST(provokable_vectors_also_raised_by_hand)
{
	unsigned int v;

	for (v = 0; v < NR_EXCEPTIONS; v++)
		if (provoke[v] && v != X86_TRAP_PF && !left_out_in_guest(v))
			check_vector(kt_ctx, v, NULL);
}

/*
 * A software `int` at ring 1, in a guest, through a gate the CPU would
 * enter with an error code (8, 10-14, 17), through one whose exception
 * the host acts on itself (#DB 1, NMI 2, #NM 7, #MC 18) or through a hardware
 * interrupt's (the timer's, 32): the CPU pushes no error code for an
 * int, so the host's real gates for these admit ring 0 only, and the
 * guest gets what a CPU gives for a gate its ring may not use: #GP with
 * the vector in the error code, at the int itself.  Its handler for the
 * vector never runs: with the frame one word short, it would have read
 * its own %ds as the vector; and a host that took an int $7 for its own
 * lazy-FPU trap would resume past it.  At ring 0 the CPU would take
 * such an int without an error code: a kernel's own bug, not tried.
 */
#define SOFTWARE_INT(n) \
	case n: asm volatile("1: int $" #n "\n2:\n\t" _ASM_EXTABLE(1b, 2b)); break

static void software_int(unsigned int v)
{
	switch (v) {
	SOFTWARE_INT(1); SOFTWARE_INT(2); SOFTWARE_INT(7); SOFTWARE_INT(8);
	SOFTWARE_INT(10); SOFTWARE_INT(11); SOFTWARE_INT(12); SOFTWARE_INT(13);
	SOFTWARE_INT(14); SOFTWARE_INT(17); SOFTWARE_INT(18); SOFTWARE_INT(32);
	}
}

KTEST(software_int_through_an_error_code_gate_is_gp_in_a_guest)
{
	static const unsigned int vectors[] = { 1, 2, 7, 8, 10, 11, 12, 13, 14, 17, 18, 32 };
	unsigned int i;

	if (current_ring() == 0)
		KT_SKIP("at ring 0 the CPU takes such an int, without an error code");
	for (i = 0; i < ARRAY_SIZE(vectors); i++) {
		unsigned int v = vectors[i];
		unsigned long gp = trap_count(X86_TRAP_GP);
		unsigned long own = v < NR_EXCEPTIONS ? trap_count(v) : 0;

		software_int(v);
		if (trap_count(X86_TRAP_GP) != gp + 1 ||
		    (v != X86_TRAP_GP && v < NR_EXCEPTIONS && trap_count(v) != own)) {
			kt_ctx->failures++;
			printk("ktest:   int $%u: #GP counted %lu times, #%u %lu times\n", v,
			       trap_count(X86_TRAP_GP) - gp, v,
			       v < NR_EXCEPTIONS ? trap_count(v) - own : 0);
		}
	}
}
