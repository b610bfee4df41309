/*
 * asm/switcher.h - the Switcher: the pages a host maps at the same
 * address in its own page tables and in a guest's, through which the CPU
 * passes from one world to the other (arch/x86/host/world_switch.S).
 *
 *   SWITCHER_ADDR + 0        its code, two pages (read-only to the guest)
 *   SWITCHER_REGS_PAGE       the guest's registers: the stack every trap
 *                            out of the guest lands on (read-write: they
 *                            are only the guest's own registers)
 *   SWITCHER_STATE_PAGE      struct switcher_state: the host's saved
 *                            state and the guest's GDT, IDT and TSS as the
 *                            CPU uses them (read-only to the guest)
 *
 * The top 4 MiB of the address space: pv386's layout leaves 3-4 GiB
 * unused (asm/paging.h), in a host and in a guest.  Ring 1 is
 * "supervisor" to the MMU, so only CR0.WP keeps a guest kernel from
 * writing a read-only page: a host needs a 486 or later.
 */
#ifndef ASM_SWITCHER_H
#define ASM_SWITCHER_H

#include <asm/segment.h>

#define SWITCHER_ADDR		0xffc00000
#define SWITCHER_CODE_PAGES	2
#define SWITCHER_REGS_PAGE	(SWITCHER_ADDR + SWITCHER_CODE_PAGES * 4096)
#define SWITCHER_STATE_PAGE	(SWITCHER_REGS_PAGE + 4096)
#define SWITCHER_STUB_SIZE	16	/* one trap stub per vector, this far apart */
#define SWITCHER_FAST_SHADOWS	4	/* shadows the fast switch may load */

/* The guest's GDT is pv386's layout plus the Switcher's ring-0 code and
 * data segments (asm/segment.h), which only the Switcher loads (its gates
 * use them); the host's GDT has them too, at the same indices. */
#define GUEST_GDT_ENTRIES	GDT_TABLE_ENTRIES
#define __SWITCHER_CS		(GDT_ENTRY_SWITCHER_CS * 8)
#define __SWITCHER_DS		(GDT_ENTRY_SWITCHER_DS * 8)

/* Not vectors: what switcher_run() returns when the guest did not trap. */
#define GUEST_TRAP_NONE		256	/* its frame is not a guest's: not run */
#define GUEST_TRAP_BAD_FRAME	257	/* a trap frame not whole (world_switch.S) */
#define GUEST_TRAP_BAD_SEGMENT	258	/* its CS or SS would not load: not run */
#define GUEST_TRAP_HOST_IRQ	259	/* the host's local APIC interrupted: handled */
#define GUEST_TRAP_HOST_NMI	260	/* the machine's NMI while the guest ran: handled */
/* A machine check or a debug trap at ring 0, in the Switcher itself:
 * which, switcher_traps_in_switcher() */
#define GUEST_TRAP_IN_SWITCHER	261

#ifndef __ASSEMBLER__

#include <types.h>
#include <asm/desc_defs.h>
#include <asm/percpu.h>
#include <asm/traps.h>

struct switcher_state {
	u32 host_cr3;
	u32 host_esp, host_ss;		/* lss's far pointer back to the host's stack */
	u32 switcher_esp, switcher_ss;	/* and the Switcher's own: the regs page */
	u32 guest_cr3;			/* the guest's shadow page directory */
	struct desc_ptr host_gdt, host_idt;
	struct desc_ptr guest_gdt, guest_idt;
	struct tss guest_tss;
	u64 guest_gdt_table[GUEST_GDT_ENTRIES] __attribute__((aligned(8)));
	u64 guest_idt_table[256] __attribute__((aligned(8)));
	/* The guest's LDT, checked, and __LDT_SEL if it has one (else 0). */
	u64 guest_ldt_table[GUEST_LDT_ENTRIES] __attribute__((aligned(8)));
	u32 guest_ldt_sel;
	u32 guest_ldt_entries;		/* how many of them the LDT holds */
	/* Which of the regs page's segments are known to load as they are
	 * (switcher.c: SEGMENTS_*): 0 after a change of the tables, only
	 * the data registers after the host's write of CS and SS. */
	u32 segments_loadable;
	/* The GDT's and LDT's generation: one more at every change of
	 * either.  Which code and stack selectors were found loadable in
	 * it, one per kind and ring (switcher.c), so that a delivered trap,
	 * which gives CS and SS the guest's gate selector and stack, does
	 * not judge them again. */
	u32 segment_tables_gen;
	struct segment_seen { u32 gen, sel; } loadable_seen[2][4];
	/* A trap from virtual-8086 mode: the data segments the CPU pushed
	 * above its frame, moved here (world_switch.S). */
	u32 guest_vm86_es, guest_vm86_ds, guest_vm86_fs, guest_vm86_gs;
	/* The guest's watchpoints, checked (host_check.h): the Switcher
	 * arms them going in and disarms them coming out, if dr7 has any. */
	u32 guest_dr[4], guest_dr7;
	/* Traps taken at ring 0, inside the Switcher, noted there and left
	 * for the host once back (world_switch.S): NMIs, how many; any other
	 * vector, a bit.  Only under the host's cr3 is this page writable. */
	u32 nmis_in_switcher, traps_in_switcher;
	/*
	 * The context-switch hypercall's fast path (world_switch.S), which
	 * switches without leaving the guest's page tables: the shadows it
	 * may load, by the guest's page directory (guest_cr3 0: none), the
	 * ring-1 stacks it may set (above min, at most max: host_check.h's
	 * rule for any stack the guest names), and
	 * whether the host lets it run now (0: every switch comes to the
	 * host).  All the host's to write (switcher.c); the fast path only
	 * counts.  The guest's cr3 above is what the CPU ran it on last:
	 * the Switcher writes it at every exit.
	 */
	struct { u32 guest_cr3, pgd; } fast_shadows[SWITCHER_FAST_SHADOWS];
	u32 fast_stack_min, fast_stack_max;
	u32 fast_switch_on;
	u32 fast_switches;
};

/* The guest's registers at the end of the regs page, as a trap leaves
 * them: the same frame as the kernel's own traps, always from a lower
 * ring (the guest never runs at ring 0), so esp and ss are there. */
#define SWITCHER_GUEST_REGS \
	((struct pt_regs *)(SWITCHER_REGS_PAGE + 4096 - sizeof(struct pt_regs)))
#define SWITCHER_STATE	((struct switcher_state *)SWITCHER_STATE_PAGE)

extern const char __switcher_start[], __switcher_end[];
extern const char switch_to_guest[], switcher_stubs[], switcher_hypercall_to_host[];

/* Where a Switcher label runs: its offset in the code pages. */
#define SWITCHER_VA(label)	(SWITCHER_ADDR + (u32)((label) - __switcher_start))

/* arch/x86/host/switcher.c */
struct switcher_state *switcher_setup(void);
void switcher_set_ldt(struct switcher_state *s, unsigned int entries);
/* The guest's GDT or LDT changed: its segments are judged again before
 * the next entry. */
void switcher_segments_changed(struct switcher_state *s);
/* The host wrote the regs page's CS and SS (a delivered trap), and its
 * data registers too if data_too (from virtual-8086 mode): those are
 * judged again, CS and SS once per generation of the tables. */
void switcher_cs_ss_changed(struct switcher_state *s, bool data_too);
void switcher_map_in_guest(u32 *guest_pgd, u32 table);	/* table: a zeroed frame */
struct pt_regs *switcher_guest_regs(void);
unsigned int switcher_run(u32 *cr2);	/* the trap's vector */
bool hardware_vector(unsigned int vector);	/* the host's interrupt: handled */
u32 switcher_traps_in_switcher(void);	/* after GUEST_TRAP_IN_SWITCHER: the vectors' bits */
/* NMIs the Switcher handed the host; *noted: those that came inside it */
unsigned long switcher_nmi_count(unsigned long *noted);

/* arch/x86/host/cpu_state.c: the host-only CPU state (CR4 bits, its
 * watchpoints, SYSENTER_CS) off for a whole guest_run; switcher_run()
 * enters a guest only while it is off. */
struct host_cpu_state {
	unsigned long cr4, guest_cr4;	/* the host's, and what the guest runs with */
	u32 dr7, dr[4];
	unsigned long switches;		/* the task's switch count when turned off */
};
void host_cpu_state_off(struct host_cpu_state *saved);
void host_cpu_state_on(const struct host_cpu_state *saved);

/* Whether this CPU runs with a guest's state: switcher_run() asks at
 * every entry, so one load of the per-CPU flag, not a call. */
static inline bool guest_cpu_state_in_force(void)
{
	return this_cpu_read(guest_cpu_state);
}

#endif
#endif
