/*
 * asm/segment.h - the layout of pv386's GDT and the selectors built from it.
 *
 * Included from C and from assembly.  The order matches the order in which
 * gdt.c fills the table; a selector is (index << 3) | RPL.
 *
 * sysexit takes the user CS and SS from the SYSENTER_CS MSR (the kernel
 * CS): CS + 16 and CS + 24.  So kernel CS, kernel DS, user CS and user DS
 * must stay four consecutive entries, in this order.
 */
#ifndef ASM_SEGMENT_H
#define ASM_SEGMENT_H

#define GDT_ENTRY_KERNEL_CS	1
#define GDT_ENTRY_KERNEL_DS	2
#define GDT_ENTRY_USER_CS	3
#define GDT_ENTRY_USER_DS	4
#define GDT_ENTRY_TSS		5
#define GDT_ENTRY_LDT		6
#define GDT_ENTRY_TLS_MIN	7	/* three thread-local slots, as in Linux */
#define GDT_ENTRY_TLS_ENTRIES	3
/* This CPU's per-CPU area (asm/percpu.h): the same index in every CPU's
 * GDT, a different base in each.  The kernel keeps its selector in %fs. */
#define GDT_ENTRY_PERCPU	(GDT_ENTRY_TLS_MIN + GDT_ENTRY_TLS_ENTRIES)
#define GDT_ENTRIES		(GDT_ENTRY_PERCPU + 1)
/*
 * Past pv386's layout, the ring-0 code and data segments of a host's
 * Switcher (arch/x86/host/world_switch.S), at the same index in every
 * CPU's GDT and in a guest's, as lguest had LGUEST_CS and LGUEST_DS: its
 * %cs and %ss then stay loadable at every instruction while it loads one
 * GDT in place of the other, and an NMI taken anywhere in it returns.
 * A guest never writes them (its host keeps its own there).
 */
#define GDT_ENTRY_SWITCHER_CS	GDT_ENTRIES
#define GDT_ENTRY_SWITCHER_DS	(GDT_ENTRIES + 1)
#define GDT_TABLE_ENTRIES	(GDT_ENTRIES + 2)	/* what a GDT holds */

#define __KERNEL_CS	(GDT_ENTRY_KERNEL_CS * 8)
#define __KERNEL_DS	(GDT_ENTRY_KERNEL_DS * 8)
#define __USER_CS	(GDT_ENTRY_USER_CS * 8 + 3)
#define __USER_DS	(GDT_ENTRY_USER_DS * 8 + 3)
#define __TSS_SEL	(GDT_ENTRY_TSS * 8)
#define __LDT_SEL	(GDT_ENTRY_LDT * 8)
/* RPL 0 like __KERNEL_DS in %ds and %es: a data segment register takes
 * it at ring 1 too (max(CPL, RPL) <= DPL, which a guest's host raises to
 * 1), so the entry code needs no ring-dependent selector. */
#define __PERCPU_SEL	(GDT_ENTRY_PERCPU * 8)

/* A guest of a pv386 host runs its kernel at ring 1 (docs/guest.md):
 * its selectors carry this RPL where the CPU checks it (%ss). */
#define GUEST_KERNEL_RPL	1

#define LDT_ENTRIES	8	/* a small fixed LDT: enough to show how one works */
#define GUEST_LDT_ENTRIES	LDT_ENTRIES	/* the most a guest's may hold */

#endif
