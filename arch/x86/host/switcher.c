/*
 * switcher.c - the host's side of the world switch: mapping the
 * Switcher's pages, setting up the tables the CPU uses while a guest
 * runs, and running the guest until it traps (world_switch.S does the
 * switch itself; asm/switcher.h has the layout).
 *
 * One guest runs at a time, so there is one regs page and one state
 * page, mapped at SWITCHER_REGS_PAGE and SWITCHER_STATE_PAGE in the
 * host's tables and in the guest's.
 */
#include <kernel.h>
#include <cmdline.h>
#include <string.h>
#include <asm/apic.h>
#include <asm/cpu.h>
#include <asm/desc_defs.h>
#include <asm/host_check.h>
#include <asm/hypercall.h>
#include <asm/irq.h>
#include <asm/paging.h>
#include <asm/privileged.h>
#include <asm/processor.h>
#include <asm/processor-flags.h>
#include <asm/switcher.h>
#include "host.h"

_Static_assert(sizeof(struct switcher_state) <= PAGE_SIZE, "the state is one page");

static u32 host_switcher_table[PT_ENTRIES] __attribute__((aligned(PAGE_SIZE)));
static u8 regs_page[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));
static u8 state_page[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));

#define SWITCHER_PDE	(SWITCHER_ADDR / PGDIR_SPAN)

/* The Switcher's page table entries: code, then regs and state pages;
 * writable says whether the state page is (the host's view) or not. */
static void fill_switcher_table(u32 *table, bool host)
{
	unsigned int i;

	for (i = 0; i < SWITCHER_CODE_PAGES; i++)
		table[i] = ((u32)__switcher_start + i * PAGE_SIZE) | PTE_PRESENT;
	table[SWITCHER_CODE_PAGES] = (u32)regs_page | PTE_PRESENT | PTE_WRITE;
	table[SWITCHER_CODE_PAGES + 1] = (u32)state_page | PTE_PRESENT |
					 (host ? PTE_WRITE : 0);
}

/* Map the Switcher into the host's kernel tables and the page directory
 * running now (a task's copies only the kernel's first 256 entries). */
static void map_switcher_in_host(void)
{
	u32 *pgd = (u32 *)read_cr3();
	u32 pde = (u32)host_switcher_table | PTE_PRESENT | PTE_WRITE;

	if (kernel_page_dir[SWITCHER_PDE] != pde) {
		fill_switcher_table(host_switcher_table, true);
		kernel_page_dir[SWITCHER_PDE] = pde;
	}
	if (pgd[SWITCHER_PDE] != pde) {
		pgd[SWITCHER_PDE] = pde;
		flush_tlb();
	}
}

/* The guest's view of the Switcher, in the page table at table (a
 * frame of the shadow's, page_tables.c): its state page read-only. */
void switcher_map_in_guest(u32 *guest_pgd, u32 table)
{
	fill_switcher_table((u32 *)table, false);
	guest_pgd[SWITCHER_PDE] = table | PTE_PRESENT | PTE_WRITE;
}

/* The Switcher's own entries in the guest's GDT: its ring-0 segments
 * (accessed already: loading one would otherwise make the CPU write the
 * bit into a GDT the guest's page tables map read-only) and the TSS
 * whose esp0 is the top of the regs page. */
static void setup_switcher_segments(struct switcher_state *s)
{
	struct switcher_state *va = SWITCHER_STATE;

	s->guest_gdt_table[GDT_ENTRY_SWITCHER_CS] = flat_segment(0, DESC_CODE_R | DESC_ACCESSED);
	s->guest_gdt_table[GDT_ENTRY_SWITCHER_DS] = flat_segment(0, DESC_DATA_W | DESC_ACCESSED);
	s->guest_gdt_table[GDT_ENTRY_TSS] =
		pack_descriptor((u32)&va->guest_tss, sizeof(s->guest_tss) - 1,
				DESC_PRESENT | DESC_TSS32, 0);
	s->guest_tss = (struct tss){ .esp0 = SWITCHER_REGS_PAGE + PAGE_SIZE,
				     .ss0 = __SWITCHER_DS,
				     .iomap_base = sizeof(struct tss) };
	s->guest_gdt = (struct desc_ptr){ sizeof(s->guest_gdt_table) - 1,
					  (u32)va->guest_gdt_table };
	s->guest_idt = (struct desc_ptr){ sizeof(s->guest_idt_table) - 1,
					  (u32)va->guest_idt_table };
	/* The Switcher's stack below the guest's registers (lss's far
	 * pointers: world_switch.S), and the host's segment to go back to. */
	s->switcher_esp = SWITCHER_REGS_PAGE + PAGE_SIZE - sizeof(struct pt_regs);
	s->switcher_ss = __SWITCHER_DS;
	s->host_ss = __KERNEL_DS;
}

/*
 * nofastswitch: the Switcher's fast context switch (world_switch.S's
 * hypercall_entry) off, so that make bench can measure what it saves:
 * the hypercall's gate leads to the host as every other does.  Chosen
 * at each guest's start, when the gates are made; no call tests it.
 */
static bool no_fast_switch;

static int set_nofastswitch(const char *v) { (void)v; no_fast_switch = true; return 0; }
boot_option("nofastswitch", set_nofastswitch,
	    "a host: every context-switch hypercall of a guest exits to the host");

/* Every vector leads back to the host; the hypercall's gate admits the
 * guest kernel (ring 1), int3's and into's its programs too. */
static void setup_switcher_gates(struct switcher_state *s)
{
	unsigned int v;

	for (v = 0; v < 256; v++) {
		unsigned int dpl = v == HYPERCALL_VECTOR ? 1 : v == 3 || v == 4 ? 3 : 0;
		u32 stub = SWITCHER_VA(switcher_stubs) + v * SWITCHER_STUB_SIZE;

		if (v == HYPERCALL_VECTOR && no_fast_switch)
			stub = SWITCHER_VA(switcher_hypercall_to_host);
		s->guest_idt_table[v] = pack_gate(stub, __SWITCHER_CS,
						  DESC_PRESENT | DESC_DPL(dpl) | DESC_INTR_GATE);
	}
	if (no_fast_switch)
		printk("host: the Switcher's fast context switch is off (nofastswitch): "
		       "every context_switch hypercall exits to the host\n");
}

/* world_switch.S moves a virtual-8086 frame's four segments in one copy. */
_Static_assert(offsetof(struct switcher_state, guest_vm86_gs) ==
	       offsetof(struct switcher_state, guest_vm86_es) + 12,
	       "the vm86 segments are not in the CPU's order");

/* The guest's LDT is the first entries of guest_ldt_table, already
 * checked (0: none): its descriptor is the host's, in the guest's GDT. */
void switcher_set_ldt(struct switcher_state *s, unsigned int entries)
{
	struct switcher_state *va = SWITCHER_STATE;

	switcher_segments_changed(s);
	if (!entries || entries > GUEST_LDT_ENTRIES) {
		s->guest_gdt_table[GDT_ENTRY_LDT] = 0;
		s->guest_ldt_sel = 0;
		s->guest_ldt_entries = 0;
		return;
	}
	s->guest_ldt_entries = entries;
	s->guest_gdt_table[GDT_ENTRY_LDT] =
		pack_descriptor((u32)va->guest_ldt_table, entries * sizeof(u64) - 1,
				DESC_PRESENT | DESC_LDT, 0);
	s->guest_ldt_sel = __LDT_SEL;
}

/*
 * Map the Switcher and give the state page the Switcher's own parts;
 * the caller adds the guest's segments and its page directory.  NULL on
 * a 386, or an emulator that ignores CR0.WP (write_protect_holds): there
 * ring 1 writes read-only pages, and nothing would keep a guest from
 * rewriting its GDT or IDT in the state page.
 * NULL in a guest too: the Switcher runs at ring 0, and pv386 does not
 * nest.
 */
struct switcher_state *switcher_setup(void)
{
	struct switcher_state *s = (struct switcher_state *)state_page;

	if (current_ring() != 0 || !write_protect_holds())
		return NULL;
	memset(state_page, 0, sizeof(state_page));
	memset(regs_page, 0, sizeof(regs_page));
	s->segment_tables_gen = 1;	/* no segment seen loadable in it yet */
	map_switcher_in_host();
	setup_switcher_segments(s);
	setup_switcher_gates(s);
	return s;
}

/* The guest's registers, in the regs page (the host's view). */
struct pt_regs *switcher_guest_regs(void)
{
	return (struct pt_regs *)(regs_page + PAGE_SIZE - sizeof(struct pt_regs));
}

/* A hardware interrupt that came while the guest ran is the host's: its
 * handler runs as if it had interrupted the host's kernel here (the
 * PIC's through irq_dispatch, the local APIC's through its gate's, the
 * NMI's through the exceptions'). */
static void run_host_irq(unsigned int vector)
{
	struct pt_regs regs = { .vector = vector, .cs = __KERNEL_CS,
				.eflags = X86_EFLAGS_FIXED };

	trap_dispatch(&regs);
}

/* The host's interrupts: the PIC's IRQs, whose vectors a guest never
 * has, an exit switcher_run() found to be the local APIC's, and the
 * machine's NMI. */
bool hardware_vector(unsigned int v)
{
	return (v >= FIRST_EXTERNAL_VECTOR && v < FIRST_EXTERNAL_VECTOR + NR_IRQS) ||
	       v == GUEST_TRAP_HOST_IRQ || v == GUEST_TRAP_HOST_NMI;
}

/*
 * The NMIs that came while the guest ran (its exit on vector 2: a
 * guest's own `int $2` is a #GP, interrupts.c) or while the Switcher
 * switched (noted there: world_switch.S) are the host's.  Each runs
 * the host's own NMI handler, after the switch, where it would have run
 * had the host's kernel been interrupted here: the same count, the same
 * handling as an NMI anywhere else in the host.  Two that came in one
 * switch stay two.
 */
static unsigned long nmis_handled, nmis_noted;	/* for `guest stats` */

static void run_host_nmis(unsigned int from_guest, unsigned int noted)
{
	unsigned int n;

	nmis_noted += noted;
	for (n = from_guest + noted; n; n--) {
		nmis_handled++;
		run_host_irq(X86_TRAP_NMI);
	}
}

/* The NMIs handed to the host this way; *noted: those of them that came
 * inside the Switcher. */
unsigned long switcher_nmi_count(unsigned long *noted)
{
	*noted = nmis_noted;
	return nmis_handled;
}

/* A machine check or a debug trap that came at ring 0 in the Switcher
 * (world_switch.S): a bit per vector, until the next entry. */
u32 switcher_traps_in_switcher(void)
{
	return ((struct switcher_state *)state_page)->traps_in_switcher;
}

/*
 * Whether an exit on vector v was the host's local APIC interrupting
 * (its timer, an IPI): the APIC has it in service.  The guest keeps its
 * own gates on those vectors, so its `int $v` exits the same way, but
 * with nothing in service.  Asked before the handler's EOI clears it.
 * (A spurious interrupt is never in service: one while the guest ran
 * would reach the guest's gate 0xff, if it has one.)
 */
static bool host_apic_interrupt(unsigned int v)
{
	return apic_present() && apic_vector(v) && apic_in_service(v);
}

/*
 * Whether the frame the Switcher will iret to is a guest's: ring 1 or 3
 * (never the Switcher's ring 0), its stack at the same ring, interrupts
 * on (the host's must keep coming), no I/O privilege, no vm86.  NT is
 * the guest's own (popf sets it at ring 1): the Switcher's iret is not
 * nested whatever the frame says, and the guest's own would switch to
 * its TSS's back link, which is 0: #TS, a trap like any other.  The host's own code writes these registers (its answers, the
 * traps it reflects); this keeps any mistake there from becoming ring 0
 * for the guest.
 */
static bool guest_frame(const struct pt_regs *r)
{
	return (r->cs & 3) != 0 && (r->ss & 3) == (r->cs & 3) &&
	       (r->eflags & X86_EFLAGS_IF) &&
	       !(r->eflags & (X86_EFLAGS_IOPL | X86_EFLAGS_VM));
}

/* The descriptor behind a guest's selector, as the CPU would find it in
 * the guest's GDT or LDT; 0 (never loadable) past the table's end. */
static u64 guest_descriptor(const struct switcher_state *s, u32 sel)
{
	unsigned int index = (sel & 0xffff) >> 3;

	if (sel & 4)
		return index < s->guest_ldt_entries ? s->guest_ldt_table[index] : 0;
	return index < GUEST_GDT_ENTRIES ? s->guest_gdt_table[index] : 0;
}

/* What segments_loadable knows (asm/switcher.h). */
#define SEGMENTS_DATA_LOADABLE	1u	/* DS, ES, FS and GS */
#define SEGMENTS_CS_SS_LOADABLE	2u
#define SEGMENTS_LOADABLE	(SEGMENTS_DATA_LOADABLE | SEGMENTS_CS_SS_LOADABLE)

/*
 * Whether sel loads into CS or SS (kind) at ring cpl: the CPU's rules
 * are asked once per generation of the tables, and a yes remembered,
 * one selector per kind and ring - the descriptor behind it cannot
 * change without a new generation.  The guest kernel's code segment
 * and stack, which every delivered trap puts in CS and SS, are then
 * judged once, not at every delivery.
 */
static bool code_or_stack_loadable(struct switcher_state *s, enum guest_segment_kind kind,
				   u32 sel, unsigned int cpl)
{
	struct segment_seen *seen = &s->loadable_seen[kind == GUEST_SEGMENT_CODE][cpl & 3];

	sel &= 0xffff;
	if (seen->gen == s->segment_tables_gen && seen->sel == sel)
		return true;
	if (!guest_segment_loadable(kind, sel, guest_descriptor(s, sel), cpl))
		return false;
	*seen = (struct segment_seen){ s->segment_tables_gen, sel };
	return true;
}

/*
 * The frame's segments as the Switcher's entry will load them.  The
 * guest may have rewritten a descriptor since it loaded the register: a
 * CPU keeps what it loaded, but the Switcher reloads each, and a fault
 * there would be the host's.  A data register that would not load is
 * made null instead - the guest's next use of it faults, in the guest,
 * as after an iret to an outer ring; a CS or SS that would not load
 * leaves nothing to run (false).  The data registers are judged only if
 * they are not known to load (segments_loadable).
 */
static bool guest_segments_load(struct switcher_state *s, struct pt_regs *r)
{
	u32 *data[] = { &r->ds, &r->es, &r->fs, &r->gs };
	unsigned int cpl = r->cs & 3, i;

	if (!(s->segments_loadable & SEGMENTS_DATA_LOADABLE))
		for (i = 0; i < ARRAY_SIZE(data); i++)
			if (!guest_segment_loadable(GUEST_SEGMENT_DATA, *data[i],
						    guest_descriptor(s, *data[i]), cpl))
				*data[i] = 0;
	return code_or_stack_loadable(s, GUEST_SEGMENT_CODE, r->cs, cpl) &&
	       code_or_stack_loadable(s, GUEST_SEGMENT_STACK, r->ss, cpl);
}

/*
 * Judged at the next entry only if something they depend on changed: a
 * register the CPU loaded while the guest ran, from the tables as they
 * are, loads again; only a table write (a hypercall) or the host's own
 * write of CS and SS (a delivered trap) can make one stale.  Asked at
 * every entry, the CPU's rules cost a world switch a third more.  A
 * table write starts a new generation: nothing judged before counts.
 * A generation number that wraps would make old yeses count again, so
 * they are forgotten then.
 */
void switcher_segments_changed(struct switcher_state *s)
{
	s->segments_loadable = 0;
	if (++s->segment_tables_gen == 0) {
		memset(s->loadable_seen, 0, sizeof(s->loadable_seen));
		s->segment_tables_gen = 1;	/* never 0, which a slot unused holds */
	}
}

/*
 * A delivered trap changes CS and SS only: to the guest's gate selector
 * and its ring-1 stack (interrupts.c), a ring at or inside the one the
 * trap came from.  A data register that loaded at that ring loads at an
 * inner one too (its DPL was at least the CPL), so they stay known to
 * load - but for a trap from virtual-8086 mode, where they hold what
 * the CPU (an emulator: no CPU lets ring 3 there) left in them.
 */
void switcher_cs_ss_changed(struct switcher_state *s, bool data_too)
{
	s->segments_loadable &= ~SEGMENTS_CS_SS_LOADABLE;
	if (data_too)
		s->segments_loadable &= ~SEGMENTS_DATA_LOADABLE;
}

/*
 * Into the Switcher by a far call to its own code segment, which the
 * host's GDT has as the guest's does (asm/segment.h): it runs on it
 * throughout, and its lret comes back to the host's.  EAX, ECX and EDX
 * are lost, as in a call; it saves the rest.
 */
static void enter_switcher(void)
{
	struct { u32 offset; u16 selector; } __attribute__((packed))
		entry = { SWITCHER_VA(switch_to_guest), __SWITCHER_CS };

	asm volatile("lcall *%0" : : "m" (entry) : "eax", "ecx", "edx", "memory", "cc");
}

/*
 * Run the guest until it traps, and return the trap's vector (its
 * registers: switcher_guest_regs()), or GUEST_TRAP_NONE without running
 * it if its frame is not a guest's, or GUEST_TRAP_BAD_SEGMENT without
 * running it if its CS or SS would not load, or GUEST_TRAP_BAD_FRAME if
 * the trap's frame was not whole (world_switch.S; then no register is
 * the guest's).  Whatever it returns is below 256 or one of those.  A hardware interrupt is the host's:
 * its handler has run when this returns its vector (the PIC's), or
 * GUEST_TRAP_HOST_IRQ (the local APIC's), or GUEST_TRAP_HOST_NMI (the
 * machine's NMI while the guest ran; one that came while the Switcher
 * switched is handled too, whatever else it returns), and the caller may
 * run the guest on, or do what the host must first (a guest that never
 * traps must not keep the host from its scheduler).  A page fault's
 * address is in *cr2, read before anything else can fault.  The host's
 * own CPU state (cpu_state.c: CR4 bits, watchpoints, SYSENTER_CS) must
 * be off already, for the whole run (guest_run): entering a guest with
 * it on would hand the guest the host's, so that is a panic.  A machine
 * check or a debug trap at ring 0 in the Switcher is
 * GUEST_TRAP_IN_SWITCHER, whatever the exit was.
 */
unsigned int switcher_run(u32 *cr2)
{
	struct switcher_state *s = (struct switcher_state *)state_page;
	struct pt_regs *regs = switcher_guest_regs();
	unsigned long flags;
	unsigned int vector;

	if (!guest_cpu_state_in_force())
		panic("host: a guest entered with the host's own CPU state on "
		      "(guest_run turns it off: cpu_state.c)");
	*cr2 = 0;
	if (!guest_frame(regs))
		return GUEST_TRAP_NONE;
	if (s->segments_loadable != SEGMENTS_LOADABLE && !guest_segments_load(s, regs))
		return GUEST_TRAP_BAD_SEGMENT;
	s->segments_loadable = SEGMENTS_LOADABLE;
	flags = raw_local_irq_save();

	s->host_cr3 = read_cr3();
	store_gdt(&s->host_gdt);
	store_idt(&s->host_idt);
	regs->vector = GUEST_TRAP_NONE;
	s->nmis_in_switcher = 0;
	s->traps_in_switcher = 0;
	enter_switcher();
	vector = regs->vector;
	if (vector > GUEST_TRAP_BAD_FRAME)	/* only the stubs write it: never so */
		vector = GUEST_TRAP_BAD_FRAME;
	if (host_apic_interrupt(vector))
		vector = GUEST_TRAP_HOST_IRQ;
	*cr2 = vector == X86_TRAP_PF ? read_cr2() : 0;
	run_host_nmis(vector == X86_TRAP_NMI, s->nmis_in_switcher);
	if (vector == X86_TRAP_NMI)
		vector = GUEST_TRAP_HOST_NMI;
	else if (hardware_vector(vector))
		run_host_irq(regs->vector);
	if (s->traps_in_switcher)
		vector = GUEST_TRAP_IN_SWITCHER;
	raw_local_irq_restore(flags);
	return vector;
}
