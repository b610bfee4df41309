/*
 * test_guest_guards.c - the host's guards on a guest's way in, one
 * refusal per clause: each row fails one clause of its
 * guard and passes all the others, so that a guard that loses a clause
 * fails its test.
 *
 *   guard                       clause                        row
 *   switcher.c guest_frame      CS not ring 0                 the Switcher's own ring-0 CS and SS
 *                               SS at CS's ring               a ring-3 SS under a ring-1 CS
 *                               IF on                         IF off
 *                               no I/O privilege              IOPL 3
 *                               not virtual-8086              VM set
 *   page_tables.c, the Switcher's slot (va >= SWITCHER_ADDR), in
 *                               shadow_fault                  a fault at the slot's first byte
 *                               guest_user_page               the slot's first byte
 *                               shadow_pte (shadow_forget,    the slot's first page
 *                                 shadow_write_protect)
 *                               shadow_forget_pde             the slot's directory entry
 *     shadow_pte_changed's own clause is a second guard before
 *     shadow_pte's: without it the row still passes (checked), and
 *     without shadow_pte's it fails.
 *   port_io.c guest_port_io     the flat user CS              an LDT code selector at RPL 3
 *                               an I/O #GP (error code 0)     error code 8
 *                               the program's IOPL 3          IOPL 0
 *                               an in or out                  cli
 *                               all its bytes readable        the port byte on an absent page
 *
 * Each guard is called directly, with a frame or tables built here:
 * the guest never runs what a guard let through by mistake, but the
 * row sees it let through (or, for the frame, the trap it came back
 * with).  Loaders' checks: test_guest_refusals.c.
 */
#include <kernel.h>
#include <ktest.h>
#include <string.h>
#include "../../arch/x86/host/host.h"	/* the host's own: tests reach in */
#include <asm/desc_defs.h>
#include <asm/host_check.h>
#include <asm/paging.h>
#include <asm/processor-flags.h>
#include <asm/segment.h>
#include <asm/switcher.h>
#include <asm/traps.h>

#define CODE_GPA	0x100000u

/* ---- switcher.c: a frame that is not a guest's is never entered ---- */

/* What pv386's guest kernel runs on: its ring-1 segments, interrupts
 * on, at its code. */
static void guest_kernel_frame(struct pt_regs *r)
{
	memset(r, 0, sizeof(*r));
	r->cs = __KERNEL_CS | GUEST_KERNEL_RPL;
	r->ss = r->ds = r->es = __KERNEL_DS | GUEST_KERNEL_RPL;
	r->eip = CODE_GPA;
	r->esp = 0x200000;
	r->eflags = X86_EFLAGS_IF | X86_EFLAGS_FIXED;
}

static void ring_0(struct pt_regs *r)	{ r->cs = __SWITCHER_CS; r->ss = __SWITCHER_DS; }
static void ss_ring_3(struct pt_regs *r)	{ r->ss = __USER_DS; }
static void irqs_off(struct pt_regs *r)	{ r->eflags &= ~X86_EFLAGS_IF; }
static void iopl_3(struct pt_regs *r)	{ r->eflags |= X86_EFLAGS_IOPL; }
static void vm86(struct pt_regs *r)	{ r->eflags |= X86_EFLAGS_VM; }

static const struct {
	const char *what;
	void (*spoil)(struct pt_regs *r);
} bad_frames[] = {
	{ "the Switcher's ring-0 CS and SS", ring_0 }, { "a ring-3 SS", ss_ring_3 },
	{ "interrupts off", irqs_off }, { "IOPL 3", iopl_3 }, { "virtual-8086 mode", vm86 },
};

/* The Switcher with an empty shadow (every fetch would fault) and the
 * guest's flat segments: enough for switcher_run to enter a guest. */
static bool switcher_ready(struct shadow *sh, struct guest_memory *m)
{
	static const struct { unsigned int index, dpl; u8 type; } segs[] = {
		{ GDT_ENTRY_KERNEL_CS, 0, DESC_CODE_R }, { GDT_ENTRY_KERNEL_DS, 0, DESC_DATA_W },
		{ GDT_ENTRY_USER_CS, 3, DESC_CODE_R }, { GDT_ENTRY_USER_DS, 3, DESC_DATA_W },
	};
	struct switcher_state *s = switcher_setup();
	unsigned int i;

	if (!s || shadow_init(sh, m, NULL, SHADOW_IDENTITY))
		return false;
	for (i = 0; i < ARRAY_SIZE(segs); i++)
		guest_check_gdt_entry(segs[i].index, flat_segment(segs[i].dpl, segs[i].type),
				      &s->guest_gdt_table[segs[i].index]);
	s->guest_cr3 = (u32)sh->pgd;
	return true;
}

/* The guest until a trap of its own (or a frame refused): the host's
 * interrupts that come meanwhile are handled, and it goes on. */
static unsigned int run_to_trap(u32 *cr2)
{
	struct host_cpu_state host;
	unsigned int v;

	host_cpu_state_off(&host);	/* as guest_run() has it */
	do
		v = switcher_run(cr2);
	while (hardware_vector(v));
	host_cpu_state_on(&host);
	return v;
}

KTEST(guest_frame_guard_refuses_each_clause)
{
	struct pt_regs *r = switcher_guest_regs();
	struct guest_memory m;
	struct shadow sh;
	unsigned int i, v;
	u32 cr2;

	KT_NOT_IN_GUEST("a guest cannot host: the Switcher runs at ring 0");
	if (guest_current() && guest_current()->state == GUEST_RUNNING)
		KT_SKIP("a guest is running");
	if (guest_memory_alloc(&m, GUESTMEM_MIN_MIB))
		KT_SKIP("no room for guest memory");
	if (!switcher_ready(&sh, &m)) {
		guest_memory_free(&m);
		KT_SKIP("no host here (no CR0.WP that holds), or no room for a shadow");
	}
	for (i = 0; i < ARRAY_SIZE(bad_frames); i++) {
		guest_kernel_frame(r);
		bad_frames[i].spoil(r);
		v = run_to_trap(&cr2);
		if (v != GUEST_TRAP_NONE || r->eip != CODE_GPA)
			printk("ktest:   %s: entered (trap %u at %08x)\n", bad_frames[i].what,
			       v, r->eip);
		KT_EXPECT_EQ(v, GUEST_TRAP_NONE);
	}
	/* The good frame is entered: its first fetch faults (empty shadow);
	 * the host's own interrupts may come first. */
	guest_kernel_frame(r);
	KT_EXPECT_EQ(run_to_trap(&cr2), X86_TRAP_PF);
	shadow_free(&sh);
	guest_memory_free(&m);
}

/* ---- page_tables.c: the Switcher's slot is never the guest's ---- */

#define GUEST_PD	0x20000u	/* the guest's page directory */
#define GUEST_PT_TOP	0x21000u	/* its table for the top 4 MiB */
#define GUEST_PT_BELOW	0x22000u	/* and for the 4 MiB below */
#define USER_FRAME	0x300000u	/* the frame all its entries map */
#define SWITCHER_PDE	(SWITCHER_ADDR / PGDIR_SPAN)
#define PTE_AT(table, va)	((table) + 4 * (((va) / PAGE_SIZE) % PT_ENTRIES))

/* Guest tables that map the Switcher's first page and the page below
 * its slot to a frame of its own, user and writable. */
static void map_around_the_switcher(struct guest_memory *m)
{
	u32 *pd = guest_memory_ptr(m, GUEST_PD, PAGE_SIZE);
	u32 rights = PTE_PRESENT | PTE_WRITE | PTE_USER;

	memset(pd, 0, PAGE_SIZE);
	memset(guest_memory_ptr(m, GUEST_PT_TOP, PAGE_SIZE), 0, PAGE_SIZE);
	memset(guest_memory_ptr(m, GUEST_PT_BELOW, PAGE_SIZE), 0, PAGE_SIZE);
	pd[SWITCHER_PDE] = GUEST_PT_TOP | rights;
	pd[SWITCHER_PDE - 1] = GUEST_PT_BELOW | rights;
	*(u32 *)guest_memory_ptr(m, PTE_AT(GUEST_PT_TOP, SWITCHER_ADDR), 4) = USER_FRAME | rights;
	*(u32 *)guest_memory_ptr(m, PTE_AT(GUEST_PT_BELOW, SWITCHER_ADDR - PAGE_SIZE), 4) =
		USER_FRAME | rights;
}

KTEST(shadow_never_maps_the_switchers_slot)
{
	struct guest_memory m;
	struct shadow sh;
	u32 *table, code_pte, pde, ec;

	if (guest_memory_alloc(&m, GUESTMEM_MIN_MIB))
		KT_SKIP("no room for guest memory");
	if (shadow_init(&sh, &m, NULL, GUEST_PD)) {
		guest_memory_free(&m);
		KT_SKIP("no room for a shadow");
	}
	map_around_the_switcher(&m);
	pde = sh.pgd[SWITCHER_PDE];
	table = (u32 *)(pde & PAGE_MASK);
	code_pte = table[0];

	ec = PF_WRITE | PF_USER;
	KT_EXPECT_EQ(shadow_fault(&sh, SWITCHER_ADDR, &ec), SHADOW_GUEST_FAULT);
	ec = PF_WRITE | PF_USER;
	KT_EXPECT_EQ(shadow_fault(&sh, SWITCHER_ADDR - 1, &ec), SHADOW_FILLED);
	KT_EXPECT(guest_user_page(&sh, SWITCHER_ADDR) == NULL);
	KT_EXPECT(guest_user_page(&sh, SWITCHER_ADDR - 1) != NULL);
	shadow_pte_changed(&sh, PTE_AT(GUEST_PT_TOP, SWITCHER_ADDR), SWITCHER_ADDR);
	shadow_forget(&sh, SWITCHER_ADDR);
	shadow_write_protect(&sh, SWITCHER_ADDR);
	KT_EXPECT_EQ(table[0], code_pte);		/* still the Switcher's code */
	shadow_forget_pde(&sh, GUEST_PD + 4 * SWITCHER_PDE);
	KT_EXPECT_EQ(sh.pgd[SWITCHER_PDE], pde);
	shadow_free(&sh);
	guest_memory_free(&m);
}

/* ---- port_io.c: only the flat user CS's in and out are done ---- */

#define IO_VA		0x00400ffeu	/* the last 2 bytes of a user page */
#define IO_GPA		0x301ffeu
#define IO_PT		0x23000u	/* the guest's table for 4-8 MiB */

/* A program's page at 0x400000 (gpa 0x301000), with `in $0x80, %al`
 * in its last two bytes; the page after it absent. */
static void map_program_page(struct guest_memory *m)
{
	u32 *pd = guest_memory_ptr(m, GUEST_PD, PAGE_SIZE);
	u32 *pt = guest_memory_ptr(m, IO_PT, PAGE_SIZE);
	u8 *code = guest_memory_ptr(m, IO_GPA, 2);
	u32 rights = PTE_PRESENT | PTE_USER;

	memset(pd, 0, PAGE_SIZE);
	memset(pt, 0, PAGE_SIZE);
	pd[1] = IO_PT | rights;
	pt[0] = (IO_GPA & PAGE_MASK) | rights;
	code[0] = 0xe4;
	code[1] = 0x80;
}

/* The program's #GP at the in: what port_io.c gets from run.c. */
static void program_frame(struct pt_regs *r)
{
	memset(r, 0, sizeof(*r));
	r->cs = __USER_CS;
	r->ss = __USER_DS;
	r->eip = IO_VA;
	r->eax = 0x12345678;
	r->eflags = X86_EFLAGS_IF | X86_EFLAGS_FIXED;
}

KTEST(guest_port_io_refuses_each_clause)
{
	static struct guest g;
	struct shadow sh;
	struct pt_regs r;
	u8 *code;

	memset(&g, 0, sizeof(g));
	if (guest_memory_alloc(&g.mem, GUESTMEM_MIN_MIB))
		KT_SKIP("no room for guest memory");
	if (shadow_init(&sh, &g.mem, NULL, GUEST_PD)) {
		guest_memory_free(&g.mem);
		KT_SKIP("no room for a shadow");
	}
	map_program_page(&g.mem);
	g.shadows.active = &sh;
	g.user_iopl = 3;

	program_frame(&r);			/* done: nothing on port 0x80 */
	KT_EXPECT(guest_port_io(&g, &r));
	KT_EXPECT_EQ(r.eax, 0x123456ff);
	KT_EXPECT_EQ(r.eip, IO_VA + 2);

	program_frame(&r);
	r.cs = 0x0f;				/* LDT entry 1, RPL 3 */
	KT_EXPECT(!guest_port_io(&g, &r));
	program_frame(&r);
	r.error_code = 8;			/* a #GP for a selector */
	KT_EXPECT(!guest_port_io(&g, &r));
	program_frame(&r);
	g.user_iopl = 0;
	KT_EXPECT(!guest_port_io(&g, &r));
	g.user_iopl = 3;
	code = guest_memory_ptr(&g.mem, IO_GPA, 2);
	code[0] = 0xfa;				/* cli */
	KT_EXPECT(!guest_port_io(&g, &r));
	code[0] = 0x90;
	code[1] = 0xe4;				/* in $imm8 with its port on the next page */
	r.eip = IO_VA + 1;
	KT_EXPECT(!guest_port_io(&g, &r));
	KT_EXPECT_EQ(r.eip, IO_VA + 1);		/* nothing done on a refusal */
	KT_EXPECT_EQ(r.eax, 0x12345678);
	shadow_free(&sh);
	guest_memory_free(&g.mem);
}
