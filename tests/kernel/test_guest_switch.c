/*
 * test_guest_switch.c - the world switch (arch/x86/host/world_switch.S)
 * with guests of a few instructions at ring 1.  On fixed page tables
 * that map its memory 1:1: hypercalls go out and come back with the
 * host's answer, a privileged instruction and a page fault come back as
 * #GP and #PF, the guest cannot write the Switcher's state page (its
 * GDT, IDT and TSS), nor enter the host by sysenter, a frame that is
 * not a guest's is never entered, and the host is back on its own
 * segments.  On
 * shadow page tables (arch/x86/host/page_tables.c) built from the
 * guest's own: pages fill on demand, faults the guest's tables explain
 * are the guest's, a guest table naming a frame outside its memory is
 * caught, and a dropped shadow fills again.  With the host's own CPU
 * state set (arch/x86/host/cpu_state.c: CR4.TSD and PCE, a watchpoint),
 * the guest runs as on a CPU without it, the host's code between two
 * exits of one run too, and the host has it back when the run ends.
 */
#include <kernel.h>
#include <ktest.h>
#include <page_alloc.h>
#include <string.h>
#include <asm/cpu.h>
#include <asm/debug_regs.h>
#include "../../arch/x86/host/host.h"	/* the host's own: tests reach in */
#include <asm/host_check.h>
#include <asm/hypercall.h>
#include <asm/msr_index.h>
#include <asm/paging.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/switcher.h>
#include <asm/syscall.h>
#include <asm/traps.h>

#define CODE_GPA	0x100000u
#define STACK_GPA	0x3ff000u
#define OUTSIDE_GPA	0x800000u	/* past a 4 MiB guest */

/* The guest until a trap of its own, inside a run (the host's CPU
 * state off): the host's interrupts that come meanwhile are handled,
 * and it goes on. */
static unsigned int next_trap(u32 *cr2)
{
	unsigned int v;

	do
		v = switcher_run(cr2);
	while (hardware_vector(v));
	return v;
}

/* The same as a run of its own: the host's CPU state off around it, as
 * guest_run() has it around its exits. */
static unsigned int run_to_trap(u32 *cr2)
{
	struct host_cpu_state host;
	unsigned int v;

	host_cpu_state_off(&host);
	v = next_trap(cr2);
	host_cpu_state_on(&host);
	return v;
}

/* The guest: two hypercalls, a cli, a read outside its memory, a write
 * to the Switcher's state page. */
static const u8 guest_code[] = {
	0xbb, 0x34, 0x12, 0x00, 0x00,		/* mov $0x1234, %ebx */
	0xb8, 0x07, 0x00, 0x00, 0x00,		/* mov $7, %eax */
	0xcd, HYPERCALL_VECTOR,			/* int $0x1f */
	0x40,					/* inc %eax */
	0xcd, HYPERCALL_VECTOR,			/* int $0x1f */
	0xfa,					/* cli */
	0xa1, 0x00, 0x00, 0x80, 0x00,		/* mov OUTSIDE_GPA, %eax */
	0xc7, 0x05, 0x00, 0x30, 0xc0, 0xff,	/* movl $0, SWITCHER_STATE_PAGE */
	0x00, 0x00, 0x00, 0x00,
	0x0f, 0x34,				/* sysenter */
	0xcd, X86_TRAP_PF,			/* int $14 */
};
#define CLI_OFFSET	15
#define READ_OFFSET	16
#define WRITE_OFFSET	21
#define SYSENTER_OFFSET	31
#define INT14_OFFSET	33

/* Page tables mapping guest memory 1:1 (but page 0), and the Switcher. */
static u32 *guest_page_dir(const struct guest_memory *m)
{
	u32 *pgd = (u32 *)page_alloc();
	u32 va, switcher_table;

	if (!pgd)
		return NULL;
	for (va = PGDIR_SPAN; va <= m->size; va += PGDIR_SPAN) {
		u32 *table = (u32 *)page_alloc();
		unsigned int i;

		if (!table)
			return NULL;
		for (i = 0; i < PT_ENTRIES; i++)
			table[i] = (m->base + va - PGDIR_SPAN + i * PAGE_SIZE) | PTE_PRESENT | PTE_WRITE;
		if (va == PGDIR_SPAN)
			table[0] = 0;
		pgd[(va - PGDIR_SPAN) / PGDIR_SPAN] = (u32)table | PTE_PRESENT | PTE_WRITE;
	}
	switcher_table = page_alloc();
	if (!switcher_table)
		return NULL;
	switcher_map_in_guest(pgd, switcher_table);
	return pgd;
}

static void free_guest_page_dir(u32 *pgd)
{
	unsigned int d;

	for (d = 0; d < PT_ENTRIES; d++)
		if (pgd[d] & PTE_PRESENT)
			page_free(pgd[d] & PAGE_MASK);
	page_free((u32)pgd);
}

/* pv386's kernel and user segments, as a guest asks for them (ring 0
 * for its kernel), through the host's checks. */
static bool give_guest_segments(struct switcher_state *s)
{
	static const struct { unsigned int index, dpl; u8 type; } segs[] = {
		{ GDT_ENTRY_KERNEL_CS, 0, DESC_CODE_R }, { GDT_ENTRY_KERNEL_DS, 0, DESC_DATA_W },
		{ GDT_ENTRY_USER_CS, 3, DESC_CODE_R }, { GDT_ENTRY_USER_DS, 3, DESC_DATA_W },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(segs); i++) {
		u64 d = flat_segment(segs[i].dpl, segs[i].type);

		if (guest_check_gdt_entry(segs[i].index, d, &s->guest_gdt_table[segs[i].index]))
			return false;
	}
	return true;
}

/* The code and stack segments the host runs in now. */
static u32 current_cs(void)
{
	u32 cs;

	asm("mov %%cs, %0" : "=r" (cs));
	return cs & 0xffff;
}

static u32 current_ss(void)
{
	u32 ss;

	asm("mov %%ss, %0" : "=r" (ss));
	return ss & 0xffff;
}

static void first_registers(struct pt_regs *r)
{
	memset(r, 0, sizeof(*r));
	r->cs = __KERNEL_CS | GUEST_KERNEL_RPL;
	r->ds = r->es = r->fs = r->gs = r->ss = __KERNEL_DS | GUEST_KERNEL_RPL;
	r->eip = CODE_GPA;
	r->esp = STACK_GPA;
	r->eflags = X86_EFLAGS_IF | X86_EFLAGS_FIXED;
}

/* Junk in the upper halves of the six selector words of r. */
static void dirty_selectors(struct pt_regs *r)
{
	r->gs |= 0xdead0000;
	r->fs |= 0xdead0000;
	r->es |= 0xdead0000;
	r->ds |= 0xdead0000;
	r->cs |= 0xdead0000;
	r->ss |= 0xdead0000;
}

static bool selectors_zero_extended(const struct pt_regs *r)
{
	return !((r->gs | r->fs | r->es | r->ds | r->cs | r->ss) >> 16);
}

/*
 * A software `int $14` at ring 1: through the real gate as
 * the host sets it up, ring 0 only, it is #GP with the vector in the
 * error code; through a gate that admitted ring 1, the CPU would push
 * no error code, and the Switcher must refuse the short frame whole
 * (GUEST_TRAP_BAD_FRAME) rather than hand the host the guest's %ds as
 * the vector.  The selectors the host reads are zero-extended, whatever
 * the regs page held (a CPU may push them with 16-bit stores).
 */
static void check_trap_frames(struct ktest_ctx *kt_ctx, struct switcher_state *s,
			      struct pt_regs *r)
{
	u64 *gate = &s->guest_idt_table[X86_TRAP_PF];
	u64 ring0_gate = *gate;
	u32 cr2;

	r->eip = CODE_GPA + INT14_OFFSET;
	dirty_selectors(r);
	KT_EXPECT_EQ(run_to_trap(&cr2), X86_TRAP_GP);
	KT_EXPECT_EQ(r->error_code, X86_TRAP_PF << 3 | 2);
	KT_EXPECT_EQ(r->eip, CODE_GPA + INT14_OFFSET);
	KT_EXPECT(selectors_zero_extended(r));

	*gate = (ring0_gate & ~((u64)DESC_DPL(3) << 40)) | (u64)DESC_DPL(1) << 40;
	r->ds = __USER_DS;		/* what a shifted frame would read as its vector */
	KT_EXPECT_EQ(run_to_trap(&cr2), GUEST_TRAP_BAD_FRAME);
	*gate = ring0_gate;
	first_registers(r);
}

/*
 * A descriptor the guest rewrote under a loaded segment register: the
 * Switcher's entry, which reloads every register, would fault
 * on it at ring 0.  A data register is entered null instead; a CS that
 * would not load is not entered at all (GUEST_TRAP_BAD_SEGMENT).
 */
#define PRESENT_BIT	(1ull << 47)

/*
 * CS and SS after a delivered trap are judged once per generation of
 * the tables (switcher.c's loadable_seen): a selector never seen
 * loadable in this generation is judged, whatever the data registers
 * are known to do; and a generation number that wrapped around to the
 * one a selector was seen in does not make it count again.
 */
static void check_cs_ss_seen(struct ktest_ctx *kt_ctx, struct switcher_state *s,
			     struct pt_regs *r)
{
	u64 *kernel_cs = &s->guest_gdt_table[GDT_ENTRY_KERNEL_CS];
	u32 cr2;

	r->eip = CODE_GPA;
	KT_EXPECT_EQ(run_to_trap(&cr2), HYPERCALL_VECTOR);	/* all six known to load */
	r->eip = CODE_GPA;
	r->cs = (__USER_CS & ~3) | 1;	/* DPL 3: no code segment for ring 1 */
	switcher_cs_ss_changed(s, false);	/* as a delivery's write does */
	KT_EXPECT_EQ(run_to_trap(&cr2), GUEST_TRAP_BAD_SEGMENT);
	r->cs = __KERNEL_CS | 1;

	s->segment_tables_gen = 0xffffffffu;	/* the next change wraps to 1 */
	switcher_segments_changed(s);
	KT_EXPECT_EQ(run_to_trap(&cr2), HYPERCALL_VECTOR);	/* seen loadable in 1 */
	r->eip = CODE_GPA;
	*kernel_cs &= ~PRESENT_BIT;
	s->segment_tables_gen = 0xffffffffu;	/* and 1 again */
	switcher_segments_changed(s);
	KT_EXPECT_EQ(run_to_trap(&cr2), GUEST_TRAP_BAD_SEGMENT);
	*kernel_cs |= PRESENT_BIT;
	switcher_segments_changed(s);
}

static void check_stale_segments(struct ktest_ctx *kt_ctx, struct switcher_state *s,
				 struct pt_regs *r)
{
	u64 *user_ds = &s->guest_gdt_table[GDT_ENTRY_USER_DS];
	u64 *kernel_cs = &s->guest_gdt_table[GDT_ENTRY_KERNEL_CS];
	u32 cr2;

	r->eip = CODE_GPA;		/* a hypercall first */
	r->fs = __USER_DS;
	*user_ds &= ~PRESENT_BIT;
	switcher_segments_changed(s);		/* as a hypercall's write does */
	KT_EXPECT_EQ(run_to_trap(&cr2), HYPERCALL_VECTOR);
	KT_EXPECT_EQ(r->fs, 0);
	*user_ds |= PRESENT_BIT;

	r->eip = CODE_GPA;
	*kernel_cs &= ~PRESENT_BIT;
	switcher_segments_changed(s);
	KT_EXPECT_EQ(run_to_trap(&cr2), GUEST_TRAP_BAD_SEGMENT);
	KT_EXPECT_EQ(r->eip, CODE_GPA);		/* nothing ran */
	*kernel_cs |= PRESENT_BIT;
	switcher_segments_changed(s);
	check_cs_ss_seen(kt_ctx, s, r);
	first_registers(r);
}

KTEST(guest_world_switch)
{
	unsigned long free_before = pages_free_count();
	struct guest_memory m;
	struct switcher_state *s;
	struct pt_regs *r;
	u32 *pgd, cr2;
	unsigned int v;

	KT_NOT_IN_GUEST("a guest cannot host: the Switcher runs at ring 0");
	if (guest_memory_alloc(&m, GUESTMEM_MIN_MIB))
		KT_SKIP("no room for guest memory");
	memcpy(guest_memory_ptr(&m, CODE_GPA, sizeof(guest_code)), guest_code, sizeof(guest_code));
	s = switcher_setup();
	if (!s) {
		guest_memory_free(&m);
		KT_SKIP("no host here: no CR0.WP that holds (a 386, or an emulator) "
			"to keep ring 1 off the Switcher's pages");
	}
	pgd = guest_page_dir(&m);
	KT_EXPECT(pgd != NULL && give_guest_segments(s));
	if (!pgd) {
		guest_memory_free(&m);
		return;
	}
	s->guest_cr3 = (u32)pgd;
	r = switcher_guest_regs();
	first_registers(r);

	KT_EXPECT_EQ(run_to_trap(&cr2), HYPERCALL_VECTOR);
	KT_EXPECT_EQ(r->eax, 7);
	KT_EXPECT_EQ(r->ebx, 0x1234);
	KT_EXPECT_EQ(r->eip, CODE_GPA + 12);
	KT_EXPECT_EQ(r->cs, __KERNEL_CS | 1);
	KT_EXPECT_EQ(r->esp, STACK_GPA);

	r->eax = 41;			/* the host's answer */
	KT_EXPECT_EQ(run_to_trap(&cr2), HYPERCALL_VECTOR);
	KT_EXPECT_EQ(r->eax, 42);

	KT_EXPECT_EQ(run_to_trap(&cr2), X86_TRAP_GP);	/* cli at ring 1 */
	KT_EXPECT_EQ(r->eip, CODE_GPA + CLI_OFFSET);
	KT_EXPECT_EQ(r->error_code, 0);

	r->eip++;
	KT_EXPECT_EQ(run_to_trap(&cr2), X86_TRAP_PF);	/* not its memory */
	KT_EXPECT_EQ(cr2, OUTSIDE_GPA);
	KT_EXPECT_EQ(r->eip, CODE_GPA + READ_OFFSET);

	r->eip = CODE_GPA + WRITE_OFFSET;
	KT_EXPECT_EQ(run_to_trap(&cr2), X86_TRAP_PF);	/* the state page */
	KT_EXPECT_EQ(cr2, SWITCHER_STATE_PAGE);
	KT_EXPECT_EQ(r->error_code & (PF_PROT | PF_WRITE), PF_PROT | PF_WRITE);
	/* A frame that is not a guest's is never entered: the Switcher's
	 * ring-0 code segment, a stack at another ring, I/O privilege,
	 * interrupts off. */
	r->eip = CODE_GPA;
	r->cs = __SWITCHER_CS;
	KT_EXPECT_EQ(run_to_trap(&cr2), GUEST_TRAP_NONE);
	r->cs = __KERNEL_CS | 1;
	r->ss = __USER_DS;
	KT_EXPECT_EQ(run_to_trap(&cr2), GUEST_TRAP_NONE);
	r->ss = __KERNEL_DS | 1;
	r->eflags |= X86_EFLAGS_IOPL;
	KT_EXPECT_EQ(run_to_trap(&cr2), GUEST_TRAP_NONE);
	r->eflags &= ~(X86_EFLAGS_IOPL | X86_EFLAGS_IF);
	KT_EXPECT_EQ(run_to_trap(&cr2), GUEST_TRAP_NONE);
	KT_EXPECT_EQ(r->eip, CODE_GPA);		/* nothing ran */
	r->eflags |= X86_EFLAGS_IF;

	/* sysenter would enter the host at ring 0: it must fault instead
	 * (#UD on a CPU without it; QEMU's 486 gives #GP), and the host
	 * keep its own. */
	r->eip = CODE_GPA + SYSENTER_OFFSET;
	v = run_to_trap(&cr2);
	KT_EXPECT(v == X86_TRAP_GP || (!syscall_sysenter_enabled() && v == X86_TRAP_UD));
	KT_EXPECT_EQ(r->eip, CODE_GPA + SYSENTER_OFFSET);
	KT_EXPECT_EQ(current_cs(), __KERNEL_CS);	/* the host's, not the Switcher's */
	KT_EXPECT_EQ(current_ss(), __KERNEL_DS);

	check_trap_frames(kt_ctx, s, r);
	check_stale_segments(kt_ctx, s, r);
	free_guest_page_dir(pgd);
	guest_memory_free(&m);
	KT_EXPECT_EQ(pages_free_count(), free_before);
}

/* ---- shadow page tables (arch/x86/host/page_tables.c) ---- */

#define GUEST_PD	0x20000u	/* the guest's own page directory */
#define GUEST_PT0	0x21000u	/* its table for 0-4 MiB */
#define GUEST_PT1	0x22000u	/* and for 4-8 MiB: one bad entry */
#define PLANTED		0xfeedf00du

/* Reads a page, copies it to another, writes a read-only page, reads an
 * unmapped one, makes a hypercall, reads a page whose frame is not the
 * guest's. */
static const u8 shadowed_code[] = {
	0xa1, 0x00, 0x10, 0x10, 0x00,		/* mov 0x101000, %eax */
	0xa3, 0x00, 0x20, 0x10, 0x00,		/* mov %eax, 0x102000 */
	0xa3, 0x00, 0x30, 0x10, 0x00,		/* mov %eax, 0x103000 (read-only) */
	0xa1, 0x00, 0x00, 0x20, 0x00,		/* mov 0x200000, %eax (absent) */
	0xcd, HYPERCALL_VECTOR,			/* int $0x1f */
	0xa1, 0x00, 0x00, 0x40, 0x00,		/* mov 0x400000, %eax (bad frame) */
};

/* The guest's tables: 1-4 MiB 1:1, but 0x103000 read-only and 0x200000
 * absent; 0x400000 maps a frame past the end of a 4 MiB guest. */
static void write_guest_tables(struct guest_memory *m)
{
	u32 *pd = guest_memory_ptr(m, GUEST_PD, PAGE_SIZE);
	u32 *pt0 = guest_memory_ptr(m, GUEST_PT0, PAGE_SIZE);
	u32 *pt1 = guest_memory_ptr(m, GUEST_PT1, PAGE_SIZE);
	unsigned int i;

	memset(pd, 0, PAGE_SIZE);
	memset(pt0, 0, PAGE_SIZE);
	memset(pt1, 0, PAGE_SIZE);
	for (i = 0x100; i < PT_ENTRIES; i++)
		pt0[i] = i * PAGE_SIZE | PTE_PRESENT | PTE_WRITE;
	pt0[0x103] &= ~PTE_WRITE;
	pt0[0x200] = 0;
	pt1[0] = OUTSIDE_GPA * 8 | PTE_PRESENT | PTE_WRITE;
	pd[0] = GUEST_PT0 | PTE_PRESENT | PTE_WRITE;
	pd[1] = GUEST_PT1 | PTE_PRESENT | PTE_WRITE;
}

/* Run until a trap the shadow does not explain away; a shadow that
 * keeps filling (a fill that does not satisfy the access) stops after
 * MAX_FILLS with SHADOW_FILLED, which no check expects. */
#define MAX_FILLS	16

static unsigned int run_shadowed(struct shadow *sh, u32 *cr2, enum shadow_result *res)
{
	unsigned int v, fills = 0;

	do {
		v = run_to_trap(cr2);
		*res = v == X86_TRAP_PF ?
		       shadow_fault(sh, *cr2, &switcher_guest_regs()->error_code) : SHADOW_GUEST_FAULT;
	} while (v == X86_TRAP_PF && *res == SHADOW_FILLED && ++fills < MAX_FILLS);
	return v;
}

KTEST(guest_shadow_paging)
{
	unsigned long free_before = pages_free_count(), fills;
	enum shadow_result res;
	struct guest_memory m;
	struct switcher_state *s;
	struct shadow sh;
	struct pt_regs *r;
	u32 cr2;

	KT_NOT_IN_GUEST("a guest cannot host: the Switcher runs at ring 0");
	if (guest_memory_alloc(&m, GUESTMEM_MIN_MIB))
		KT_SKIP("no room for guest memory");
	s = switcher_setup();
	if (!s || shadow_init(&sh, &m, NULL, GUEST_PD)) {
		guest_memory_free(&m);
		KT_SKIP(s ? "no room for a shadow" :
			"no host here: no CR0.WP that holds (a 386, or an emulator)");
	}
	memcpy(guest_memory_ptr(&m, CODE_GPA, sizeof(shadowed_code)), shadowed_code,
	       sizeof(shadowed_code));
	*(u32 *)guest_memory_ptr(&m, 0x101000, 4) = PLANTED;
	write_guest_tables(&m);
	KT_EXPECT(give_guest_segments(s));
	s->guest_cr3 = (u32)sh.pgd;
	r = switcher_guest_regs();
	first_registers(r);

	KT_EXPECT_EQ(run_shadowed(&sh, &cr2, &res), X86_TRAP_PF);
	KT_EXPECT_EQ(res, SHADOW_GUEST_FAULT);		/* its read-only page */
	KT_EXPECT_EQ(cr2, 0x103000);
	KT_EXPECT_EQ(r->error_code, PF_PROT | PF_WRITE);	/* as its tables say */
	KT_EXPECT_EQ(r->eip, CODE_GPA + 10);
	KT_EXPECT_EQ(sh.fills, 3);			/* code, read, write */
	KT_EXPECT_EQ(*(u32 *)guest_memory_ptr(&m, 0x102000, 4), PLANTED);

	r->eip += 5;
	KT_EXPECT_EQ(run_shadowed(&sh, &cr2, &res), X86_TRAP_PF);
	KT_EXPECT_EQ(res, SHADOW_GUEST_FAULT);		/* absent in its tables */
	KT_EXPECT_EQ(cr2, 0x200000);
	KT_EXPECT_EQ(r->error_code, 0);			/* a read, not present */

	r->eip += 5;
	KT_EXPECT_EQ(run_shadowed(&sh, &cr2, &res), HYPERCALL_VECTOR);
	KT_EXPECT_EQ(r->eax, PLANTED);

	KT_EXPECT_EQ(run_shadowed(&sh, &cr2, &res), X86_TRAP_PF);
	KT_EXPECT_EQ(res, SHADOW_BAD_TABLE);		/* a frame not its own */
	KT_EXPECT_EQ(cr2, 0x400000);

	fills = sh.fills;				/* after a cr3 load: again */
	shadow_drop(&sh);
	r->eip = CODE_GPA;
	KT_EXPECT_EQ(run_shadowed(&sh, &cr2, &res), X86_TRAP_PF);
	KT_EXPECT_EQ(cr2, 0x103000);
	KT_EXPECT_EQ(sh.fills, fills + 3);

	shadow_free(&sh);
	guest_memory_free(&m);
	KT_EXPECT_EQ(pages_free_count(), free_before);
}

/* ---- the host's own CPU state (arch/x86/host/cpu_state.c) ---- */

#define WATCHED_GPA	0x101000u	/* the host's watchpoint, in the guest's reach */

/* rdtsc, rdpmc and a write to WATCHED_GPA, each followed by a hypercall:
 * the way back when it runs as on a CPU the host left alone. */
static const u8 host_state_code[] = {
	0x0f, 0x31,				/* rdtsc */
	0xcd, HYPERCALL_VECTOR,			/* int $0x1f */
	0x31, 0xc9,				/* xor %ecx, %ecx: counter 0 */
	0x0f, 0x33,				/* rdpmc */
	0xcd, HYPERCALL_VECTOR,			/* int $0x1f */
	0xa3, 0x00, 0x10, 0x10, 0x00,		/* mov %eax, WATCHED_GPA */
	0xcd, HYPERCALL_VECTOR,			/* int $0x1f */
};
#define RDTSC_OFFSET	0
#define RDPMC_OFFSET	4
#define WATCHED_OFFSET	10

/* Run the guest from offset, in a run of its own; the host's CR4 and
 * DR7 back after. */
static unsigned int run_from(struct ktest_ctx *kt_ctx, u32 offset, unsigned long cr4, u32 dr7)
{
	struct pt_regs *r = switcher_guest_regs();
	unsigned int v;
	u32 cr2;

	r->eip = CODE_GPA + offset;
	v = run_to_trap(&cr2);
	if (boot_cpu.has_cr4)
		KT_EXPECT_EQ(read_cr4(), cr4);
	KT_EXPECT_EQ(get_debugreg(7) & ~DR7_ALWAYS_ONE, dr7);
	KT_EXPECT_EQ(get_debugreg(0), WATCHED_GPA);
	return v;
}

/* Whether SYSENTER_CS holds cs, where the CPU has sysenter on. */
static bool sysenter_cs_is(u32 cs)
{
	u64 value;

	return !syscall_sysenter_enabled() ||
	       (!rdmsr_safe(MSR_IA32_SYSENTER_CS, &value) && value == cs);
}

/*
 * Two exits in one run, as guest_run() makes them: between the two the
 * host's code runs with the guest's state still in force (none of the
 * host's CR4 bits but the FPU's, no watchpoint armed, SYSENTER_CS 0),
 * the second entry runs as the first, and the host has its own back
 * once the run is over.
 */
static void check_state_between_exits(struct ktest_ctx *kt_ctx, unsigned long cr4, u32 dr7)
{
	struct pt_regs *r = switcher_guest_regs();
	struct host_cpu_state host;
	unsigned int i;
	u32 cr2;

	host_cpu_state_off(&host);
	for (i = 0; i < 2; i++) {
		r->eip = CODE_GPA + WATCHED_OFFSET;
		KT_EXPECT_EQ(next_trap(&cr2), HYPERCALL_VECTOR);	/* no #DB */
		if (boot_cpu.has_cr4)
			KT_EXPECT_EQ(read_cr4() & (X86_CR4_TSD | X86_CR4_PCE), 0);
		KT_EXPECT_EQ(get_debugreg(7) & DR7_ENABLES, 0);
		KT_EXPECT(sysenter_cs_is(0));
		KT_EXPECT(guest_cpu_state_in_force());
	}
	host_cpu_state_on(&host);
	KT_EXPECT(!guest_cpu_state_in_force());
	if (boot_cpu.has_cr4)
		KT_EXPECT_EQ(read_cr4(), cr4);
	KT_EXPECT_EQ(get_debugreg(7) & ~DR7_ALWAYS_ONE, dr7);
	KT_EXPECT_EQ(get_debugreg(0), WATCHED_GPA);
	KT_EXPECT(sysenter_cs_is(__KERNEL_CS));
}

/*
 * The host sets what a host may set for itself - CR4.TSD (its programs
 * may not read the TSC), CR4.PCE (they may read the counters), a
 * watchpoint on an address the guest writes - and the guest runs as on
 * a CPU with none of them: rdtsc runs, rdpmc at ring 1 raises #GP (a
 * CPU before the P6 may lack it: #UD), the write raises no #DB; and the
 * host has each back after every run, and none of them between the
 * exits of one.  (SYSENTER_CS, the list's last item: guest_world_switch's
 * sysenter, and check_state_between_exits.)
 */
KTEST(guest_runs_without_the_hosts_cpu_state)
{
	unsigned long cr4 = boot_cpu.has_cr4 ? read_cr4() : 0, test_cr4 = cr4;
	u32 dr7 = DR7_LOCAL_ENABLE(0) | DR7_RW_WRITE(0) | DR7_LEN(0, DR7_LEN_4);
	u32 saved_dr0 = get_debugreg(0), saved_dr7 = get_debugreg(7);
	bool p6 = boot_cpu.family >= 6;		/* rdpmc, and CR4.PCE, for sure */
	struct guest_memory m;
	struct switcher_state *s;
	unsigned int v;
	u32 *pgd;

	KT_NOT_IN_GUEST("a guest cannot host: the Switcher runs at ring 0");
	if (guest_memory_alloc(&m, GUESTMEM_MIN_MIB))
		KT_SKIP("no room for guest memory");
	memcpy(guest_memory_ptr(&m, CODE_GPA, sizeof(host_state_code)), host_state_code,
	       sizeof(host_state_code));
	s = switcher_setup();
	pgd = s ? guest_page_dir(&m) : NULL;
	if (!pgd) {
		guest_memory_free(&m);
		KT_SKIP("no Switcher (no CR0.WP that holds), or no room for the guest's tables");
	}
	KT_EXPECT(give_guest_segments(s));
	s->guest_cr3 = (u32)pgd;
	first_registers(switcher_guest_regs());
	if (boot_cpu.has_cr4 && cpu_has(X86_FEATURE_TSC))
		test_cr4 |= X86_CR4_TSD;
	if (boot_cpu.has_cr4 && p6)
		test_cr4 |= X86_CR4_PCE;
	if (boot_cpu.has_cr4)
		write_cr4(test_cr4);
	set_debugreg(0, WATCHED_GPA);
	set_debugreg(7, dr7);

	if (cpu_has(X86_FEATURE_TSC))
		KT_EXPECT_EQ(run_from(kt_ctx, RDTSC_OFFSET, test_cr4, dr7), HYPERCALL_VECTOR);
	v = run_from(kt_ctx, RDPMC_OFFSET, test_cr4, dr7);
	KT_EXPECT(v == X86_TRAP_GP || (!p6 && v == X86_TRAP_UD));
	KT_EXPECT_EQ(switcher_guest_regs()->eip, CODE_GPA + RDPMC_OFFSET + 2);
	KT_EXPECT_EQ(run_from(kt_ctx, WATCHED_OFFSET, test_cr4, dr7), HYPERCALL_VECTOR);
	check_state_between_exits(kt_ctx, test_cr4, dr7);

	set_debugreg(7, saved_dr7);
	set_debugreg(0, saved_dr0);
	if (boot_cpu.has_cr4)
		write_cr4(cr4);
	free_guest_page_dir(pgd);
	guest_memory_free(&m);
}
