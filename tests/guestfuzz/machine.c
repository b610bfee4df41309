/*
 * machine.c - the guest fuzzer's own machine: its memory, page tables,
 * GDT, LDT, IDT and stacks, handed to the host by the hypercalls any
 * guest kernel makes at boot, and handed again after each probe that
 * may have changed them (machine_reload: one queued burst, one exit).
 *
 * Each life draws its LDT, its thread-local GDT slots and its gates'
 * kinds and privilege levels from the stream, so the probes of one life
 * meet segments and gates of rings 0 to 3 (ring 2 too, which pv386
 * never uses and a host must still get right).  The page tables map
 * guest memory 1:1, supervisor-only but for the pages its ring-3
 * probes use, and one directory slot (EDIT_VA) whose table the page-
 * table probes edit.
 */
#include "guestfuzz.h"

struct machine m;

#define PAGE		4096u
#define PTE_P		0x001u
#define PTE_W		0x002u
#define PTE_U		0x004u

static u32 pgd_page[1024] __attribute__((aligned(PAGE)));
static u32 alt_pgd_page[1024] __attribute__((aligned(PAGE)));
static u32 pt_low_page[1024] __attribute__((aligned(PAGE)));
static u32 pt_edit_page[1024] __attribute__((aligned(PAGE)));
static struct guest_shared shared_area __attribute__((aligned(PAGE)));
static u8 kcode_page[PAGE] __attribute__((aligned(PAGE)));
static u8 ucode_page[PAGE] __attribute__((aligned(PAGE)));
static u8 kscratch_page[PAGE] __attribute__((aligned(PAGE)));
static u8 uscratch_page[PAGE] __attribute__((aligned(PAGE)));
static u8 scratch_frames[NR_SCRATCH][PAGE] __attribute__((aligned(PAGE)));
static u8 ring1_stack[PAGE] __attribute__((aligned(PAGE)));
static u8 user_stack[PAGE] __attribute__((aligned(PAGE)));
u8 probe_stack[2 * PAGE] __attribute__((aligned(PAGE)));
u8 main_stack[4 * PAGE] __attribute__((aligned(PAGE)));
extern const u8 fuzz_trap_stubs[];

struct multiboot_block {
	u32 flags, mem_lower, mem_upper, boot_device, cmdline;
};

/* A descriptor's DPL, as the host lets it be: 0 becomes 1. */
static u32 dpl_of(u64 d)
{
	u32 dpl = (u32)(d >> 45) & 3;

	return dpl ? dpl : 1;
}

static const u64 *descriptor(u32 sel)
{
	unsigned int i = sel >> 3;

	if (sel & 4)
		return i < LDT_ENTRIES ? &m.ldt[i] : NULL;
	return i && i < GDT_ENTRIES && i != GDT_ENTRY_TSS && i != GDT_ENTRY_LDT ?
	       &m.gdt[i] : NULL;
}

/* The DPL of the code or data segment sel names, or 4 if none. */
u32 selector_dpl(u32 sel)
{
	const u64 *d = descriptor(sel);

	if (!d || !(*d >> 47 & 1) || !(*d >> 44 & 1))
		return 4;
	return dpl_of(*d);
}

/* Data (writable, if asked) or readable code: what a data register or,
 * writable, the stack segment can hold. */
bool selector_is_data(u32 sel, bool writable)
{
	const u64 *d = descriptor(sel);
	u32 type;

	if (selector_dpl(sel) == 4)
		return false;
	type = (u32)(*d >> 40) & 0xf;
	if (writable)
		return !(type & 8) && (type & 2);
	return !(type & 8) || (type & 2);
}

bool gate_dpl3(unsigned int vector)
{
	return ((m.idt[vector] >> 45) & 3) == 3;
}

/* A segment of a random kind and ring; small ones only where a ring-1
 * stack can never be one (see guestfuzz.h: a stack that faults at each
 * push would trap forever). */
static u64 random_segment_descriptor(void)
{
	static const u8 types[] = { 0x0, 0x2, 0x2, 0x8, 0xa, 0xa, 0xe };
	u8 type = PICK(types), dpl = (u8)below(4);
	u8 access = DESC_CODE_DATA | DESC_DPL(dpl) | type | (chance(8) ? 0 : DESC_PRESENT);

	if ((dpl >= 2 || !(type & 2) || (type & 8)) && chance(4))
		return pack_descriptor(0, 0xfff, access, 0x4);
	return pack_descriptor(0, 0xfffff, access, DESC_FLAGS_4K32);
}

static void build_tables(void)
{
	unsigned int i;

	memset(m.gdt, 0, sizeof(m.gdt));
	m.gdt[GDT_ENTRY_KERNEL_CS] = flat_segment(0, DESC_CODE_R);
	m.gdt[GDT_ENTRY_KERNEL_DS] = flat_segment(0, DESC_DATA_W);
	m.gdt[GDT_ENTRY_USER_CS] = flat_segment(3, DESC_CODE_R);
	m.gdt[GDT_ENTRY_USER_DS] = flat_segment(3, DESC_DATA_W);
	for (i = GDT_ENTRY_TLS_MIN; i < GDT_ENTRIES; i++)
		m.gdt[i] = random_segment_descriptor();
	for (i = 0; i < LDT_ENTRIES; i++)
		m.ldt[i] = random_segment_descriptor();
	for (i = 0; i < 256; i++) {
		u8 dpl = chance(2) ? 3 : (u8)below(3);
		u8 type = chance(4) ? DESC_TRAP_GATE : DESC_INTR_GATE;

		if (i == SYSCALL_GATE)
			dpl = 3, type = DESC_TRAP_GATE;
		m.idt[i] = pack_gate((u32)fuzz_trap_stubs + 16 * i, __KERNEL_CS,
				     DESC_PRESENT | DESC_DPL(dpl) | type);
	}
}

static void map(u32 *table, u32 addr, u32 flags)
{
	table[(addr >> 12) & 1023] = (addr & ~(PAGE - 1)) | flags;
}

/* Guest memory 1:1 (its first 4 MiB: all the fuzzer uses), page 0
 * absent; the ring-3 pages user-accessible. */
static void build_page_tables(void)
{
	u32 a, end = m.mem_end < 0x400000 ? m.mem_end : 0x400000;

	for (a = PAGE; a < end; a += PAGE)
		map(pt_low_page, a, PTE_P | PTE_W);
	map(pt_low_page, (u32)ucode_page, PTE_P | PTE_W | PTE_U);
	map(pt_low_page, (u32)uscratch_page, PTE_P | PTE_W | PTE_U);
	map(pt_low_page, (u32)user_stack, PTE_P | PTE_W | PTE_U);
	map(pt_low_page, VM86_PAGE, PTE_P | PTE_W | PTE_U);
	pgd_page[0] = (u32)pt_low_page | PTE_P | PTE_W | PTE_U;
	pgd_page[EDIT_VA >> 22] = (u32)pt_edit_page | PTE_P | PTE_W | PTE_U;
	memcpy(alt_pgd_page, pgd_page, PAGE);
}

static void queue(u32 nr, u32 a1, u32 a2, u32 a3)
{
	volatile struct guest_shared *s = m.shared;

	s->queue[s->queued] = (struct guest_call){ nr, a1, a2, a3 };
	s->queued++;
}

/*
 * Everything the host holds for it, again: its tables, stack, page
 * directory, timer and FPU flag, and no watchpoints unless a probe has
 * them armed - queued, with one exit for all.
 */
void machine_reload(void)
{
	m.shared->queued = 0;
	queue(HCALL_load_gdt, (u32)m.gdt, sizeof(m.gdt) - 1, 0);
	queue(HCALL_load_ldt, (u32)m.ldt, LDT_ENTRIES, 0);
	queue(HCALL_load_idt, (u32)m.idt, sizeof(m.idt) - 1, 0);
	queue(HCALL_set_stack, KDS, m.ring1_stack_top, 0);
	queue(HCALL_write_cr3, (u32)m.pgd, 0, 0);
	queue(HCALL_set_timer, 1, 0, 0);
	queue(HCALL_set_ts, 0, 0, 0);
	queue(HCALL_set_iopl, m.iopl, 0, 0);
	if (!m.dr_armed)
		queue(HCALL_set_debugreg, 7, 0, 0);
	hcall(HCALL_flush, 0, 0, 0);
	/* Interrupts on only now that its gates are back: the store that
	 * turns them on is where the host delivers one that waits. */
	m.shared->irq_enabled = X86_EFLAGS_IF;
}

/* The guest's boot: its memory's size from the Multiboot block, then
 * its shared page, tables and page directory given to the host. */
void machine_boot(const void *multiboot_info)
{
	const struct multiboot_block *mb = multiboot_info;
	unsigned int i;

	m.mem_end = 0x100000 + mb->mem_upper * 1024;
	m.pgd = pgd_page;
	m.alt_pgd = alt_pgd_page;
	m.pt_low = pt_low_page;
	m.pt_edit = pt_edit_page;
	m.kcode = kcode_page;
	m.ucode = ucode_page;
	m.kscratch = kscratch_page;
	m.uscratch = uscratch_page;
	m.vm86 = (u8 *)VM86_PAGE;
	for (i = 0; i < NR_SCRATCH; i++)
		m.scratch[i] = (u32)scratch_frames[i];
	m.ring1_stack_top = (u32)ring1_stack + PAGE;
	m.user_stack_top = (u32)user_stack + PAGE;
	m.probe_stack_top = (u32)probe_stack + sizeof(probe_stack);
	m.shared = &shared_area;
	hcall(HCALL_init, (u32)&shared_area, 0, 0);
	build_tables();
	build_page_tables();
	machine_reload();
}
