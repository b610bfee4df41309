/*
 * rom.c - the rom backend: installs an ops ROM, a separately
 * built binary with a fixed ABI (asm/rom.h), into paravirt_ops.
 *
 * This is VMware's VMI design beside Linux's paravirt_ops: the ops come
 * from a binary the boot loader hands the kernel (a Multiboot module:
 * GRUB's `module`, QEMU's -initrd, pv386's own loader), reached through
 * stable op numbers, not through a table compiled with the kernel.  This
 * file is the glue between the two: it finds the module by its magic,
 * has arch/x86/paravirt/backends/rom_check.c validate it, copies it to where it will run,
 * points each slot at the ROM's code for that op number, adapts the few
 * ops whose arguments are kernel structures, does itself the ops the ROM
 * has no number for (the page-table ops; the APIC ops of a 1.0 ROM), and
 * registers the ROM's
 * fixups with the exception table.
 *
 * prepare() runs from paravirt_choose_backend(), before the console: it
 * must not print.  The ROM runs from a room in the kernel image's
 * read-only part (linker.ld's .rom), so once paging is on it is code
 * nothing can write, like the kernel's text; it is filled through
 * kernel_text_poke(), which also works when the backend is chosen after
 * boot.  The patcher then makes each hot site a direct call into the
 * ROM, as for any backend that is not native.
 */
#include <kernel.h>
#include <bootinfo.h>
#include <string.h>
#include <asm/apic.h>
#include <asm/desc.h>
#include <asm/extable.h>
#include <asm/paging.h>
#include <asm/paravirt.h>
#include <asm/processor.h>
#include <asm/rom.h>
#include <asm/segment.h>
#include <asm/spinlock.h>
#include <asm/tlbflush.h>

void iret_fault(void);		/* entry.S: a return to user mode that faults */

/* Where the ROM runs: page-aligned, so its pages hold nothing else. */
static u8 rom_image[ROM_MAX_SIZE] __section(".rom") __attribute__((aligned(4096)));
static struct exception_table_entry rom_extable[ROM_MAX_FIXUPS];
/* Lazy FPU switching, as native's: its ops run on the same hardware. */
static struct paravirt_ops rom_ops = { .name = "rom", .kernel_rpl = 0, .eager_fpu = false };
static char rom_refusal[112];	/* *why points here: it must outlive prepare() */
static bool installed;

/* The ROM's own ops, which the adapters below call. */
static struct {
	void (*load_tr)(u16 selector);
	void (*load_ldt)(u16 selector);
	void (*load_esp0)(void *tss, u32 esp0);
} rom_own;

static const struct rom_header *image_header(void)
{
	return (const struct rom_header *)rom_image;
}

static void *rom_code(u32 nr)
{
	return rom_image + image_header()->entry[nr];
}

const struct rom_header *paravirt_rom_header(void)
{
	return installed ? image_header() : NULL;
}

bool paravirt_rom_contains(unsigned long addr)
{
	return addr >= (unsigned long)rom_image && addr < (unsigned long)rom_image + sizeof(rom_image);
}

/* ---- adapters: the table's op in the kernel's terms, the ROM's in the ABI's ---- */

static void rom_load_tr_desc(void)	{ rom_own.load_tr(__TSS_SEL); }
static void rom_load_ldt_desc(void)	{ rom_own.load_ldt(__LDT_SEL); }

static void rom_load_esp0(struct tss *tss, const struct thread_struct *t)
{
	rom_own.load_esp0(tss, t->esp0);
}

/* The thread-local GDT slots of CPU cpu, one write_gdt_entry each,
 * through the ROM. */
static void rom_load_tls(const struct thread_struct *t, unsigned int cpu)
{
	int i;

	for (i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		rom_ops.write_gdt_entry(per_cpu(cpu)->gdt, GDT_ENTRY_TLS_MIN + i,
					t->tls_array[i]);
}

/* ABI 1.0 predates the page-table ops: a ROM is a native machine's, and
 * there the CPU reads the entries from memory and nothing else must
 * hear of them. */
static void rom_set_pte_at(u32 *ptep, u32 pte, u32 va)
{
	(void)va;
	*(volatile u32 *)ptep = pte;
}

static void rom_set_pde(u32 *pdep, u32 pde)
{
	*(volatile u32 *)pdep = pde;
}

static void rom_release_pgd(u32 *pgd)
{
	(void)pgd;
}

/* The APIC ops came with ABI 1.1 and a ROM may leave them out (a 1.0
 * ROM has none).  A ROM is a native machine's, whose APIC page the
 * kernel maps at APIC_VIRT_BASE (asm/apic.h): without the ROM's, the
 * glue reaches it as the native backend does, with one load or store. */
static u32 rom_apic_read(u32 reg)
{
	return *(volatile u32 *)(APIC_VIRT_BASE + reg);
}

static void rom_apic_write(u32 reg, u32 value)
{
	*(volatile u32 *)(APIC_VIRT_BASE + reg) = value;
}

/* ---- installing ---- */

#define TABLE_OP(nr, op)	rom_ops.op = (__typeof__(rom_ops.op))rom_code(nr);
#define OWN_OP(nr, op)		rom_own.op = (__typeof__(rom_own.op))rom_code(nr);

static void fill_ops(void)
{
	ROM_TABLE_OPS(TABLE_OP)
	ROM_OWN_OPS(OWN_OP)
	rom_ops.load_tr_desc = rom_load_tr_desc;
	rom_ops.load_ldt_desc = rom_load_ldt_desc;
	rom_ops.load_esp0 = rom_load_esp0;
	rom_ops.load_tls = rom_load_tls;
	rom_ops.set_pte_at = rom_set_pte_at;
	rom_ops.set_pde = rom_set_pde;
	rom_ops.release_pgd = rom_release_pgd;
	/* Nor the lazy modes: a native machine's ops hold nothing back,
	 * and the sites are patched to nothing, as natively. */
	rom_ops.start_context_switch = native_paravirt_ops.start_context_switch;
	rom_ops.end_context_switch = native_paravirt_ops.end_context_switch;
	rom_ops.enter_lazy_mmu = native_paravirt_ops.enter_lazy_mmu;
	rom_ops.leave_lazy_mmu = native_paravirt_ops.leave_lazy_mmu;
	rom_ops.apic_read = rom_gives_op(rom_image, ROM_OP_apic_read) ?
			    (__typeof__(rom_ops.apic_read))rom_code(ROM_OP_apic_read) : rom_apic_read;
	rom_ops.apic_write = rom_gives_op(rom_image, ROM_OP_apic_write) ?
			     (__typeof__(rom_ops.apic_write))rom_code(ROM_OP_apic_write) :
			     rom_apic_write;
	/* No ROM op: the glue shoots down as the native backend does, with
	 * the APIC ops of this same table (asm/rom.h). */
	rom_ops.flush_tlb_others = smp_flush_tlb_others;
	/* No ROM numbers (asm/rom.h): the kernel's own, unprivileged. */
	rom_ops.spin_lock_slowpath = native_spin_lock_slowpath;
	rom_ops.spin_unlock = native_spin_unlock;
	rom_ops.spin_wait = native_spin_wait;
	rom_ops.spin_kick = native_spin_kick;
	rom_ops.vcpu_is_preempted = native_vcpu_is_preempted;
	spin_choose_draw_ops(&rom_ops);
}

/* The ROM's fixups, as addresses where it now lies. */
static void install_fixups(void)
{
	const struct rom_fixup *f = (const void *)(rom_image + image_header()->fixups_start);
	unsigned int i, n = (image_header()->fixups_end - image_header()->fixups_start) / sizeof(*f);

	for (i = 0; i < n; i++) {
		rom_extable[i].insn = (u32)rom_image + f[i].insn;
		rom_extable[i].fixup = f[i].fixup == ROM_FIXUP_USER_RETURN ?
				       (u32)iret_fault : (u32)rom_image + f[i].fixup;
	}
	extable_add_loaded(rom_extable, n);
}

/* The first module that says it is a ROM, good or bad (a bad one is
 * refused, not passed over: the user meant it). */
static const struct boot_module *find_rom_module(void)
{
	unsigned int i;

	for (i = 0; i < boot_info.nr_modules; i++) {
		const struct boot_module *m = &boot_info.modules[i];

		if (rom_has_magic((const void *)m->start, m->end - m->start))
			return m;
	}
	return NULL;
}

static const char *explain(const struct boot_module *m, struct rom_check c)
{
	int n = snprintf(rom_refusal, sizeof(rom_refusal), "%s: %s", m->name,
			 rom_verdict_text(c.verdict));

	if (c.verdict == ROM_MISSING_ENTRY || c.verdict == ROM_ENTRY_OUT_OF_BOUNDS)
		snprintf(rom_refusal + n, sizeof(rom_refusal) - n, ": op %u, %s", c.index,
			 rom_op_name(c.index));
	else if (c.verdict == ROM_FIXUP_OUT_OF_BOUNDS)
		snprintf(rom_refusal + n, sizeof(rom_refusal) - n, ": fixup %u", c.index);
	return rom_refusal;
}

static const struct paravirt_ops *rom_prepare(const char **why)
{
	const struct boot_module *m;
	struct rom_check c;

	if (current_ring() != 0) {
		*why = "its instructions need ring 0, and this kernel is a guest";
		return NULL;
	}
	if (installed)		/* copied once, at boot: read-only since */
		return &rom_ops;
	m = find_rom_module();
	if (!m) {
		*why = "no ops ROM among the modules (GRUB: module /boot/pvrom.bin; "
		       "QEMU: -initrd build/pvrom.bin)";
		return NULL;
	}
	c = rom_validate((const void *)m->start, m->end - m->start);
	if (c.verdict != ROM_OK) {
		*why = explain(m, c);
		return NULL;
	}
	/* At boot this is a plain copy; chosen later (a live switch), the
	 * room is read-only already and only the code writer may fill it. */
	kernel_text_poke(rom_image, (const void *)m->start,
			 ((const struct rom_header *)m->start)->size);
	fill_ops();
	install_fixups();
	installed = true;
	return &rom_ops;
}
paravirt_backend("rom", rom_prepare, "an ops ROM loaded as a Multiboot module (VMI-style)");
