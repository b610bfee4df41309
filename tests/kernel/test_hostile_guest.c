/*
 * test_hostile_guest.c - a guest kernel that tries to escape its host
 * (docs/guest.md), one way per test; tests/run (guest-hostile-y) starts
 * a guest for each from the host's shell and reads what the host says.
 *
 * Each runs only when named (test=hostile_...) and only at ring 1: it
 * goes around the guest backend and hands the host, by raw hypercalls
 * or raw instructions, what no honest guest would.  Some the host
 * refuses and the guest goes on (the test checks the answer); most it
 * answers by stopping the guest, which the test cannot see: it fails if
 * it is still running afterwards.  Either way the host must go on.
 */
#ifdef CONFIG_PARAVIRT
#include <ktest.h>
#include <page_alloc.h>
#include <string.h>
#include <asm/debug_regs.h>
#include <asm/desc.h>
#include <asm/extable.h>
#include <asm/hypercall.h>
#include <asm/msr_index.h>
#include <asm/paging.h>
#include <asm/privileged.h>
#include <asm/processor.h>
#include <asm/processor-flags.h>
#include <asm/switcher.h>
#include "segment_checks.h"

#define OUTSIDE		0x40000000u	/* past the largest guest (guestmem=1024) */
#define HOSTILE_VECTOR	0xf0
#define NO_SUCH_HYPERCALL 0x10000	/* far past the last one (asm/hypercall.h) */

extern volatile struct guest_shared guest_shared;	/* backends/guest.c */

#define ONLY_IN_A_GUEST() \
	do { if (current_ring() == 0) KT_SKIP("a hostile guest's test: run it in a guest"); } while (0)

/* Reached only if the host let the guest go on after the attack. */
#define HOST_LET_IT_THROUGH(what) KT_EXPECT(!"the host went on after " what)

/* A descriptor no guest may have: a call gate to ring 0 code. */
static u64 call_gate_to_ring0(void)
{
	return pack_gate(0x100000, __KERNEL_CS & ~3, DESC_PRESENT | DESC_DPL(3) | 0x0c);
}

/* cli, as bytes: no kernel function may hold a privileged instruction
 * (tools/audit-privileged), so this one is data, run as code. */
static const u8 raw_cli[] = { 0xfa, 0xc3 };	/* cli; ret */

KTEST_ALONE(hostile_cli)
{
	ONLY_IN_A_GUEST();
	((void (*)(void))raw_cli)();
	HOST_LET_IT_THROUGH("a cli at ring 1");
}

KTEST_ALONE(hostile_idt_gate_to_switcher)
{
	u64 gate = pack_gate(0x100000, __SWITCHER_CS, DESC_PRESENT | DESC_DPL(3) | DESC_INTR_GATE);

	ONLY_IN_A_GUEST();
	KT_EXPECT_EQ(hypercall(HCALL_write_idt_entry, HOSTILE_VECTOR, (u32)gate, gate >> 32),
		     (u32)-EINVAL);
}

KTEST_ALONE(hostile_gdt_call_gate)
{
	u64 gate = call_gate_to_ring0();

	ONLY_IN_A_GUEST();
	hypercall(HCALL_write_gdt_entry, GDT_ENTRY_TLS_MIN, (u32)gate, gate >> 32);
	HOST_LET_IT_THROUGH("a call gate in the GDT");
}

KTEST_ALONE(hostile_gdt_host_tss)
{
	u64 tss = pack_descriptor(0x100000, 0x67, DESC_PRESENT | DESC_TSS32, 0);

	ONLY_IN_A_GUEST();
	hypercall(HCALL_write_gdt_entry, GDT_ENTRY_TSS, (u32)tss, tss >> 32);
	HOST_LET_IT_THROUGH("a write to the host's TSS descriptor");
}

/* A ring-0 data segment comes back at ring 1: its selector's DPL says. */
KTEST_ALONE(hostile_gdt_ring0_segment)
{
	u64 saved = gdt_table[GDT_ENTRY_TLS_MIN];

	ONLY_IN_A_GUEST();
	KT_EXPECT_EQ(hypercall(HCALL_write_gdt_entry, GDT_ENTRY_TLS_MIN,
			       (u32)flat_segment(0, DESC_DATA_W), flat_segment(0, DESC_DATA_W) >> 32),
		     0);
	KT_EXPECT_EQ((LAR_ACCESS(lar(GDT_ENTRY_TLS_MIN * 8 | 1)) >> 5) & 3, 1);
	write_gdt_entry(gdt_table, GDT_ENTRY_TLS_MIN, saved);
}

KTEST_ALONE(hostile_ldt_call_gate)
{
	static u64 ldt[LDT_ENTRIES] __attribute__((aligned(8)));

	ONLY_IN_A_GUEST();
	ldt[1] = call_gate_to_ring0();
	hypercall(HCALL_load_ldt, (u32)ldt, LDT_ENTRIES, 0);
	HOST_LET_IT_THROUGH("a call gate in the LDT");
}

KTEST_ALONE(hostile_stack_outside)
{
	ONLY_IN_A_GUEST();
	hypercall(HCALL_set_stack, __KERNEL_DS | 1, OUTSIDE, 0);
	HOST_LET_IT_THROUGH("a ring-1 stack outside its memory");
}

KTEST_ALONE(hostile_cr3_outside)
{
	ONLY_IN_A_GUEST();
	hypercall(HCALL_write_cr3, OUTSIDE, 0, 0);
	HOST_LET_IT_THROUGH("a page directory outside its memory");
}

/* A page table of its own that maps a frame past its memory: the host's
 * memory, were the shadow to copy it. */
KTEST_ALONE(hostile_page_table_outside)
{
	u32 *pgd = (u32 *)(read_cr3() & PAGE_MASK), *table = (u32 *)page_alloc();
	volatile u32 *va = (volatile u32 *)0x80000000u;	/* no task maps it here */

	ONLY_IN_A_GUEST();
	if (!table)
		KT_SKIP("no page for the table");
	table[0] = OUTSIDE | PTE_PRESENT | PTE_WRITE;
	pgd[(u32)va >> 22] = (u32)table | PTE_PRESENT | PTE_WRITE;
	write_cr3(read_cr3());
	(void)*va;
	HOST_LET_IT_THROUGH("a page table mapping memory not its own");
}

/* The Switcher's pages are in its address space, and never its own: a
 * write to its state (the host's saved registers) faults, as a page it
 * has not mapped would. */
KTEST_ALONE(hostile_switcher_write)
{
	u32 faulted = 1;

	ONLY_IN_A_GUEST();
	asm volatile("1: movl $0, %1\n\t"
		     "movl $0, %0\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : "+r" (faulted), "=m" (*(u32 *)SWITCHER_STATE_PAGE));
	KT_EXPECT(faulted);
	KT_EXPECT_EQ(read_cr2(), SWITCHER_STATE_PAGE);
}

KTEST_ALONE(hostile_irqs_off_forever)
{
	ONLY_IN_A_GUEST();
	raw_local_irq_disable();
	for (;;)
		;
}

/* An IDT with no gates, then a trap (int3 through the absent gate: a
 * #GP, itself without a gate): a triple fault on a PC. */
KTEST_ALONE(hostile_no_gates)
{
	static u64 empty[32] __attribute__((aligned(8)));

	ONLY_IN_A_GUEST();
	raw_local_irq_disable();	/* the trap below, not the timer's */
	hypercall(HCALL_load_idt, (u32)empty, sizeof(empty) - 1, 0);
	asm volatile("int3");
	HOST_LET_IT_THROUGH("a trap with no gate");
}

KTEST_ALONE(hostile_unknown_hypercall)
{
	ONLY_IN_A_GUEST();
	KT_EXPECT_EQ(hypercall(NO_SUCH_HYPERCALL, 1, 2, 3), (u32)-ENOSYS);
}

/* A write watchpoint on the Switcher's state page: the CPU would hold it
 * while the Switcher writes there at ring 0. */
KTEST_ALONE(hostile_watchpoint_on_switcher)
{
	ONLY_IN_A_GUEST();
	hypercall(HCALL_set_debugreg, 0, SWITCHER_STATE_PAGE, 0);
	hypercall(HCALL_set_debugreg, 7, DR7_LOCAL_ENABLE(0) | DR7_RW_WRITE(0) |
		  DR7_LEN(0, DR7_LEN_4), 0);
	HOST_LET_IT_THROUGH("a watchpoint on the Switcher");
}

/* General detect: the host's own moves to the debug registers would
 * trap. */
KTEST_ALONE(hostile_debug_general_detect)
{
	ONLY_IN_A_GUEST();
	hypercall(HCALL_set_debugreg, 7, DR7_GD, 0);
	HOST_LET_IT_THROUGH("DR7's general-detect bit");
}

/*
 * Page-table notices that name nothing of its own: an entry outside its
 * memory, the slot of its directory that maps the Switcher, the
 * directory it runs on released.  The host may only forget shadow
 * entries, never its own tables (a freed Switcher table would leave no
 * way back from the next trap); the guest runs on, refilling.
 */
KTEST_ALONE(hostile_page_table_notices)
{
	static volatile u32 word;
	u32 switcher_slot = read_cr3() + 4 * (SWITCHER_ADDR / PGDIR_SPAN);

	ONLY_IN_A_GUEST();
	hypercall(HCALL_set_pte, OUTSIDE, SWITCHER_ADDR, 0);
	hypercall(HCALL_set_pte, switcher_slot, SWITCHER_ADDR, 0);
	hypercall(HCALL_set_pde, switcher_slot, 0, 0);
	hypercall(HCALL_set_pde, 0xfffffffc, 0, 0);
	hypercall(HCALL_release_pgd, OUTSIDE, 0, 0);
	hypercall(HCALL_release_pgd, read_cr3(), 0, 0);
	word = 0x5a5a;
	KT_EXPECT_EQ(word, 0x5a5a);
	KT_EXPECT_EQ(hypercall(HCALL_flush, 0, 0, 0), 0);	/* through the Switcher */
}

/*
 * An iret at ring 1 into virtual-8086 mode with I/O privilege 3, to a
 * page it made user-accessible below 1 MiB that holds `cli; jmp .`,
 * and read once at ring 1, so that its shadow entry is filled.  A
 * CPU ignores VM at ring 1 and returns to CS 0x1000, no selector of its
 * GDT: #GP, and the guest panics.  QEMU's TCG enters the mode, where
 * that cli would turn the host's own interrupts off for good; the host
 * gives user mode no page below VM86_REACH_END (page_tables.c), so the
 * first fetch faults, and the guest's kernel gets it.  Either way the
 * host goes on answering.  The iret is bytes run as code, as cli is.
 */
#define VM86_SEGMENT	0x1000		/* its code at 1000:0000 */

static const u8 raw_iret[] = { 0xcf };

KTEST_ALONE(hostile_vm86_iret)
{
	static const u8 cli_forever[] = { 0xfa, 0xeb, 0xfe };	/* cli; jmp . */
	u32 va = VM86_SEGMENT * 16, *pgd = (u32 *)read_cr3();
	u32 *table = (u32 *)(pgd[0] & PAGE_MASK);
	u32 eflags = X86_EFLAGS_VM | X86_EFLAGS_IOPL | X86_EFLAGS_IF | X86_EFLAGS_FIXED;

	ONLY_IN_A_GUEST();
	memcpy((void *)va, cli_forever, sizeof(cli_forever));
	set_pde(&pgd[0], pgd[0] | PTE_USER);
	set_pte_at(&table[va / PAGE_SIZE], table[va / PAGE_SIZE] | PTE_USER, va);
	hypercall(HCALL_flush, 0, 0, 0);	/* the host told; then a read */
	KT_EXPECT_EQ(*(volatile u8 *)va, cli_forever[0]);	/* fills its shadow */
	/* The frame from the top: GS, FS, DS, ES, SS, ESP, EFLAGS, CS, EIP. */
	asm volatile("pushl $0; pushl $0; pushl $0; pushl $0; pushl $0; pushl $0x1000;"
		     "pushl %0; pushl %1; pushl $0; jmp *%2"
		     : : "r" (eflags), "i" (VM86_SEGMENT), "r" (raw_iret) : "memory");
	HOST_LET_IT_THROUGH("an iret into virtual-8086 mode");
}

/* MSRs that would hand it the machine: sysenter into ring 0 at an
 * address of its choice, the APIC moved, the host's clock set, EFER, a
 * microcode revision.  The host writes none, and reads none of those
 * that hold its addresses and settings (-EFAULT, as a CPU without them
 * answers); the guest goes on. */
KTEST_ALONE(hostile_msr_writes)
{
	static const u32 msrs[] = {
		MSR_IA32_SYSENTER_CS, MSR_IA32_SYSENTER_ESP, MSR_IA32_SYSENTER_EIP,
		MSR_IA32_APIC_BASE, MSR_IA32_TSC, MSR_EFER, MSR_IA32_BIOS_SIGN_ID,
	};
	unsigned int i;

	ONLY_IN_A_GUEST();
	for (i = 0; i < ARRAY_SIZE(msrs); i++)
		KT_EXPECT_EQ(hypercall(HCALL_write_msr, msrs[i], 0x100000, 0), (u32)-EFAULT);
	for (i = 0; i < 4; i++)		/* the sysenter MSRs and the APIC base */
		KT_EXPECT_EQ(hypercall(HCALL_read_msr, msrs[i], 0, 0), (u32)-EFAULT);
}

/* IOPL 1 for its programs: a level between "none" and "the host does
 * its ports", which the host has no meaning for. */
KTEST_ALONE(hostile_io_privilege_level)
{
	ONLY_IN_A_GUEST();
	hypercall(HCALL_set_iopl, 1, 0, 0);
	HOST_LET_IT_THROUGH("an I/O privilege level of 1");
}

KTEST_ALONE(hostile_queue_overflow)
{
	ONLY_IN_A_GUEST();
	guest_shared.queued = 0xffffffffu;
	hypercall(HCALL_flush, 0, 0, 0);
	HOST_LET_IT_THROUGH("a queue longer than the shared page");
}

KTEST_ALONE(hostile_shared_page_outside)
{
	ONLY_IN_A_GUEST();
	hypercall(HCALL_init, OUTSIDE, 0, 0);
	HOST_LET_IT_THROUGH("a shared page outside its memory");
}

KTEST_ALONE(hostile_console_outside)
{
	ONLY_IN_A_GUEST();
	KT_EXPECT_EQ(hypercall(HCALL_console_write, OUTSIDE - 4, 64, 0), (u32)-EFAULT);
}
/* Its whole kernel as console text: the host takes a bounded piece, and
 * prints no control character of it. */
KTEST_ALONE(hostile_console_flood)
{
	ONLY_IN_A_GUEST();
	KT_EXPECT_EQ(hypercall(HCALL_console_write, 0x100000, 0x400000, 0), GUEST_CONSOLE_MAX);
}

/* One new 4 MiB slot after another, all mapped to one table of its own:
 * each costs the host a shadow table, until the guest's quota of host
 * frames is met and the host stops it (without the quota it would take
 * the host's last frames). */
KTEST_ALONE(hostile_shadow_quota)
{
	u32 *pgd = (u32 *)(read_cr3() & PAGE_MASK), *table = (u32 *)page_alloc();
	u32 slot;

	ONLY_IN_A_GUEST();
	if (!table)
		KT_SKIP("no page for the table");
	table[0] = (u32)table | PTE_PRESENT;	/* its own page, at each slot's start */
	for (slot = 0x80000000u / PGDIR_SPAN; slot < SWITCHER_ADDR / PGDIR_SPAN; slot++) {
		pgd[slot] = (u32)table | PTE_PRESENT;	/* no task maps these */
		(void)*(volatile u32 *)(slot * PGDIR_SPAN);
	}
	HOST_LET_IT_THROUGH("a shadow table for each 4 MiB of its address space");
}

/*
 * Twenty IDTs of 256 gates the host refuses (each leads into the
 * Switcher's segment): on a host that printed a line per refusal, 5120
 * lines.  The host says the first, counts the rest (guest-hostile-y
 * bounds what it prints about each guest), keeps every gate absent, and
 * lets the guest go on; its own IDT back before interrupts come on.
 */
#define REPORT_FLOOD_CALLS	20

KTEST_ALONE(hostile_report_flood)
{
	static u64 bad[256] __attribute__((aligned(8)));
	u64 gate = pack_gate(0x100000, __SWITCHER_CS, DESC_PRESENT | DESC_INTR_GATE);
	struct desc_ptr own;
	unsigned int i;

	ONLY_IN_A_GUEST();
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		bad[i] = gate;
	store_idt(&own);
	raw_local_irq_disable();	/* no gates until its own are back */
	for (i = 0; i < REPORT_FLOOD_CALLS; i++)
		hypercall(HCALL_load_idt, (u32)bad, sizeof(bad) - 1, 0);
	hypercall(HCALL_load_idt, own.address, own.size, 0);
	raw_local_irq_enable();
}

/*
 * A 4 MiB page (a directory entry with PS set), which its cpuid does not
 * offer: the host shadows none, and stops it.  The entry's address bits
 * name a page laid out as a table that maps a page of its own, so that a
 * host reading the entry as a table pointer lets the read through.
 */
KTEST_ALONE(hostile_large_page)
{
	u32 *pgd = (u32 *)(read_cr3() & PAGE_MASK), *table = (u32 *)page_alloc();
	volatile u32 *va = (volatile u32 *)0x80000000u;	/* no task maps it here */

	ONLY_IN_A_GUEST();
	if (!table)
		KT_SKIP("no page for the table");
	table[0] = (u32)table | PTE_PRESENT | PTE_WRITE;
	pgd[(u32)va >> 22] = (u32)table | PTE_PRESENT | PTE_WRITE | 0x80;	/* PS */
	write_cr3(read_cr3());
	(void)*va;
	HOST_LET_IT_THROUGH("a 4 MiB page");
}
/* A call in the queue, as the guest backend's queue_call puts it there
 * (interrupts off: nothing else queues meanwhile). */
static void queue_raw(enum hypercall nr, u32 a1)
{
	u32 n = guest_shared.queued;

	guest_shared.queue[n].nr = nr;
	guest_shared.queue[n].a1 = a1;
	guest_shared.queue[n].a2 = 0;
	guest_shared.queue[n].a3 = 0;
	guest_shared.queued = n + 1;
}

/*
 * The quota met by a new directory: its shadow takes two frames (its
 * directory and the Switcher's table), so one frame short of the quota
 * the first is given, the second refused and the first handed back - and
 * the host must still name the quota, not its own memory.  One more slot
 * at a time, each followed by a new directory loaded, left and let go in
 * one exit (queued: no instruction runs on it): the count passes one
 * short of the quota at a new directory, whatever it started at.
 */
KTEST_ALONE(hostile_shadow_quota_new_directory)
{
	u32 *pgd = (u32 *)(read_cr3() & PAGE_MASK), *table = (u32 *)page_alloc();
	u32 other = page_alloc(), slot;

	ONLY_IN_A_GUEST();
	if (!table || !other)
		KT_SKIP("no page for the tables");
	table[0] = (u32)table | PTE_PRESENT;	/* its own page, at each slot's start */
	raw_local_irq_disable();		/* the queue is this test's alone */
	for (slot = 0x80000000u / PGDIR_SPAN; slot < SWITCHER_ADDR / PGDIR_SPAN; slot++) {
		pgd[slot] = (u32)table | PTE_PRESENT;	/* no task maps these */
		(void)*(volatile u32 *)(slot * PGDIR_SPAN);	/* one shadow frame more */
		queue_raw(HCALL_write_cr3, other);
		queue_raw(HCALL_write_cr3, (u32)pgd);
		hypercall(HCALL_release_pgd, other, 0, 0);
	}
	HOST_LET_IT_THROUGH("a new directory past the shadow quota");
}

/*
 * Traps onto a stack of the test's making.  The probe takes a software
 * interrupt with its stack pointer at top, through a trap gate whose
 * handler is the instruction right after the int: the frame stays as the
 * host wrote it, neither read nor pushed on by the guest, and the probe
 * returns the stack pointer the delivery left.  The host must write the
 * frame as the CPU's pushes would, through the guest's page tables: the
 * accessed and dirty bits set in each page's entry, and a stack they do
 * not let it write a double fault - the guest stopped, nothing written.
 */
#define PROBE_VECTOR	0xf1	/* no device's, no other test's */
#define PROBE_FRAME	12	/* EFLAGS, CS, EIP: no error code, no ring change */
#define PTE_ACCESSED	0x020
#define PTE_DIRTY	0x040

u32 hostile_stack_probe(u32 top) __attribute__((regparm(3)));	/* top in EAX */
extern const char hostile_stack_probe_gate[];
asm(".pushsection .text\n"
    ".globl hostile_stack_probe\n"
    "hostile_stack_probe:\n\t"
    "movl %esp, %ecx\n\t"
    "movl %eax, %esp\n\t"
    "int $0xf1\n"			/* PROBE_VECTOR */
    "hostile_stack_probe_gate:\n\t"
    "movl %esp, %eax\n\t"
    "movl %ecx, %esp\n\t"
    "ret\n"
    ".popsection");

/* The probe's gate in; what was there, for the way out. */
static u64 probe_gate_in(void)
{
	u64 old = idt_table[PROBE_VECTOR];

	write_idt_entry(idt_table, PROBE_VECTOR,
			pack_gate((u32)hostile_stack_probe_gate, __KERNEL_CS,
				  DESC_PRESENT | DESC_TRAP_GATE));
	return old;
}

/* The kernel's table entry for va, in its 1:1 map. */
static u32 *kernel_pte(u32 va)
{
	u32 table = kernel_page_dir[va / PGDIR_SPAN] & PAGE_MASK;

	return &((u32 *)table)[va / PAGE_SIZE % PT_ENTRIES];
}

/* Two pages side by side, with the probe's frame across their boundary:
 * its top word on the upper page, the two below it on the lower one.
 * Each page's entry keeps only the bits its mask keeps; the host told,
 * and the TLB flushed.  The probe's top, or 0 if there are no pages. */
static u32 straddling_stack(u32 lower_keep, u32 upper_keep)
{
	u32 va = pages_alloc(2);

	if (!va)
		return 0;
	set_pte_at(kernel_pte(va), *kernel_pte(va) & lower_keep, va);
	set_pte_at(kernel_pte(va + PAGE_SIZE), *kernel_pte(va + PAGE_SIZE) & upper_keep,
		   va + PAGE_SIZE);
	flush_tlb();
	return va + PAGE_SIZE + 4;
}

/* The probe's stack pages are fresh: clean and not accessed.  After the
 * trap the frame is there, and both pages' entries are accessed and
 * dirty, and the directory entry accessed, as a CPU's pushes leave them. */
KTEST_ALONE(hostile_stack_accessed_dirty)
{
	u32 clean = ~(PTE_ACCESSED | PTE_DIRTY), *pgd = (u32 *)(read_cr3() & PAGE_MASK);
	u32 top, esp, lower, upper, pde;
	unsigned long flags;
	u64 old;

	ONLY_IN_A_GUEST();
	top = straddling_stack(clean, clean);
	if (!top)
		KT_SKIP("no pages for the stack");
	set_pde(&pgd[top / PGDIR_SPAN], pgd[top / PGDIR_SPAN] & ~PTE_ACCESSED);
	flush_tlb();
	KT_EXPECT(!(*kernel_pte(top - 8) & (PTE_ACCESSED | PTE_DIRTY)));
	flags = raw_local_irq_save();	/* the probe's trap alone on that stack */
	old = probe_gate_in();
	esp = hostile_stack_probe(top);
	lower = *kernel_pte(top - 8);
	upper = *kernel_pte(top - 4);
	pde = pgd[top / PGDIR_SPAN];
	write_idt_entry(idt_table, PROBE_VECTOR, old);
	raw_local_irq_restore(flags);
	KT_EXPECT_EQ(esp, top - PROBE_FRAME);
	KT_EXPECT_EQ(((u32 *)esp)[0], (u32)hostile_stack_probe_gate);	/* EIP */
	KT_EXPECT_EQ(lower & (PTE_ACCESSED | PTE_DIRTY), PTE_ACCESSED | PTE_DIRTY);
	KT_EXPECT_EQ(upper & (PTE_ACCESSED | PTE_DIRTY), PTE_ACCESSED | PTE_DIRTY);
	KT_EXPECT(pde & PTE_ACCESSED);
	pages_free(top - PAGE_SIZE - 4, 2);
}

/* The frame's lower page not present in its tables: a CPU's push would
 * fault, and the fault's own delivery onto the same stack too - a double
 * fault.  The host stops it at once (it wrote the frame anyway, and a
 * guest whose handler pushed on took one nested fault per word). */
KTEST_ALONE(hostile_stack_unmapped)
{
	u32 top;

	ONLY_IN_A_GUEST();
	top = straddling_stack(~PTE_PRESENT, ~0u);
	if (!top)
		KT_SKIP("no pages for the stack");
	raw_local_irq_disable();
	probe_gate_in();
	hostile_stack_probe(top);
	HOST_LET_IT_THROUGH("a trap frame on a stack its tables do not map");
}

/* The same with the lower page read-only: a supervisor push faults there
 * too (CR0.WP, which pv386 sets and the host holds). */
KTEST_ALONE(hostile_stack_read_only)
{
	u32 top;

	ONLY_IN_A_GUEST();
	top = straddling_stack(~PTE_WRITE, ~0u);
	if (!top)
		KT_SKIP("no pages for the stack");
	raw_local_irq_disable();
	probe_gate_in();
	hostile_stack_probe(top);
	HOST_LET_IT_THROUGH("a trap frame on a read-only stack");
}
/* Its own push onto a page its tables do not map: the CPU's #PF, whose
 * frame would go onto the same page.  A CPU double-faults at once; the
 * host wrote the frame anyway, and the guest's handler, pushing on, took
 * a nested fault per word (4 MiB of such stack: 262,292 of them). */
KTEST_ALONE(hostile_stack_unmapped_push)
{
	u32 page, saved;

	ONLY_IN_A_GUEST();
	page = page_alloc();
	if (!page)
		KT_SKIP("no page for the stack");
	set_pte_at(kernel_pte(page), *kernel_pte(page) & ~PTE_PRESENT, page);
	flush_tlb();
	raw_local_irq_disable();
	asm volatile("movl %%esp, %0\n\t"
		     "movl %1, %%esp\n\t"
		     "pushl $0\n\t"
		     "movl %0, %%esp"
		     : "=&r" (saved) : "r" (page + PAGE_SIZE) : "memory");
	HOST_LET_IT_THROUGH("a page fault's frame on a stack its tables do not map");
}

/*
 * The context-switch hypercall, which the Switcher does alone when the
 * directory is one whose shadow the host listed (world_switch.S).  A
 * directory or a stack the host would refuse goes to the host, and is
 * refused there as by write_cr3 and set_stack; a directory it has not
 * listed, or no longer lists, is built anew; none of them is ever the
 * fast path's to take.
 */
static bool fast_listed(u32 gpa)
{
	const struct switcher_state *s = SWITCHER_STATE;	/* read-only to us */
	unsigned int i;

	for (i = 0; i < SWITCHER_FAST_SHADOWS; i++)
		if (s->fast_shadows[i].guest_cr3 == gpa)
			return true;
	return false;
}

KTEST_ALONE(hostile_fast_switch_outside)
{
	ONLY_IN_A_GUEST();
	raw_local_irq_disable();
	hypercall(HCALL_context_switch, OUTSIDE, 0, 0);
	HOST_LET_IT_THROUGH("a switch to a page directory outside its memory");
}

KTEST_ALONE(hostile_fast_switch_stack_outside)
{
	ONLY_IN_A_GUEST();
	raw_local_irq_disable();
	hypercall(HCALL_context_switch, 0, OUTSIDE, 0);
	HOST_LET_IT_THROUGH("a switch to a ring-1 stack outside its memory");
}

/* A page of zeroes as the directory: it maps nothing, not even the
 * kernel the switch returns to, so the next fetch faults, and the
 * fault's frame has no stack to go on. */
KTEST_ALONE(hostile_fast_switch_forged)
{
	u32 forged = page_alloc();

	ONLY_IN_A_GUEST();
	if (!forged)
		KT_SKIP("no page");
	memset((void *)forged, 0, PAGE_SIZE);
	raw_local_irq_disable();
	KT_EXPECT(!fast_listed(forged));
	hypercall(HCALL_context_switch, forged, 0, 0);
	HOST_LET_IT_THROUGH("a switch to a directory that maps nothing");
}

/*
 * A directory the host kept a shadow of, released: its shadow's frames
 * are the host's again, or spares for the next shadow (page_tables.c),
 * and the fast path must not load them.  The
 * switch to it after the release builds a new shadow; the guest goes on.
 */
KTEST_ALONE(hostile_fast_switch_stale)
{
	u32 cur = read_cr3() & PAGE_MASK, alt = page_alloc();

	ONLY_IN_A_GUEST();
	if (!alt)
		KT_SKIP("no page");
	memcpy((void *)alt, (void *)cur, PAGE_SIZE);
	raw_local_irq_disable();
	KT_EXPECT_EQ(hypercall(HCALL_context_switch, alt, 0, 0), 0);
	KT_EXPECT_EQ(hypercall(HCALL_context_switch, cur, 0, 0), 0);
	KT_EXPECT(fast_listed(alt));
	hypercall(HCALL_release_pgd, alt, 0, 0);
	KT_EXPECT(!fast_listed(alt));
	KT_EXPECT_EQ(hypercall(HCALL_context_switch, alt, 0, 0), 0);
	KT_EXPECT_EQ(hypercall(HCALL_context_switch, cur, 0, 0), 0);
	hypercall(HCALL_release_pgd, alt, 0, 0);
	raw_local_irq_enable();
	page_free(alt);
}

/*
 * An entry of a table its shadow has, changed and told, to a frame past
 * its memory, accessed and dirty: the host makes such an entry at once
 * (page_tables.c's prefill), and only of a frame guest_memory_ptr() gives,
 * as a fill: nothing is made of this one, and the read after it faults and
 * stops the guest - where the old entry kept would have let it read on.
 */
#define HOSTILE_BITS	(PTE_PRESENT | PTE_WRITE | PTE_ACCESSED | PTE_DIRTY)
#define HOSTILE_PDE	(PTE_PRESENT | PTE_WRITE | PTE_ACCESSED)

/* va's directory slot pointed at table, by a plain store (nothing is
 * shadowed there yet, or the test means it unannounced), and the TLB
 * flushed: va's next access walks it. */
static volatile u32 *slot_pointed_at(u32 va, const u32 *table)
{
	u32 *pgd = (u32 *)(read_cr3() & PAGE_MASK);

	pgd[va / PGDIR_SPAN] = (u32)table | HOSTILE_PDE;
	write_cr3(read_cr3());
	return (volatile u32 *)va;
}

KTEST_ALONE(hostile_prefill_outside)
{
	u32 *table = (u32 *)page_alloc();
	volatile u32 *va;

	ONLY_IN_A_GUEST();
	if (!table)
		KT_SKIP("no page for the table");
	table[0] = (u32)table | HOSTILE_BITS;		/* its own page first */
	va = slot_pointed_at(0x80000000u, table);	/* no task maps it there */
	KT_EXPECT_EQ(*va, table[0]);			/* filled: the shadow has the table */
	set_pte_at(&table[0], OUTSIDE | HOSTILE_BITS, (u32)va);
	hypercall(HCALL_flush, 0, 0, 0);		/* told, now */
	(void)*va;
	HOST_LET_IT_THROUGH("a changed entry mapping memory not its own");
}

/*
 * A slot of the kernel half, whose shadow tables its shadows share
 * (shadow_share.c), pointed without a word at another table of its own,
 * which maps a frame past its memory; then a change of that table told.
 * The shared table shadows the first table alone, whatever the
 * directories point at now: nothing of the second's is made in it, and
 * the read sees the page the first maps - stale, as any entry changed
 * without a word, but its own memory, never the host's.
 */
KTEST_ALONE(hostile_shared_table_swapped)
{
	u32 *first = (u32 *)page_alloc(), *second = (u32 *)page_alloc();
	u32 *slot = &((u32 *)(read_cr3() & PAGE_MASK))[KERNEL_SPACE_END / PGDIR_SPAN - 1];
	volatile u32 *va;

	ONLY_IN_A_GUEST();
	if (!first || !second || (*slot & PTE_PRESENT))
		KT_SKIP("no pages for the tables, or the slot maps the kernel's memory");
	first[0] = (u32)first | HOSTILE_BITS;
	second[0] = OUTSIDE | HOSTILE_BITS;
	va = slot_pointed_at(KERNEL_SPACE_END - PGDIR_SPAN, first);
	KT_EXPECT_EQ(*va, first[0]);			/* filled: a shared table of first */
	slot_pointed_at((u32)va, second);		/* no word */
	hypercall(HCALL_set_pte, (u32)&second[0], (u32)va, 0);
	KT_EXPECT_EQ(*va, first[0]);
	set_pde(slot, 0);				/* told: the shadows let it go */
	write_cr3(read_cr3());
	page_free((u32)first);
	page_free((u32)second);
}
#endif
