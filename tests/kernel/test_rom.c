/*
 * test_rom.c - the rom backend, checked on the running kernel when it
 * was booted with pv=rom and a good ROM (tests/run does that): the
 * table points into the ROM, the sites call it directly, the ROM's page
 * is read-only and its fixups are in the exception table; booted native
 * with a ROM module, the rom backend can still be prepared after boot,
 * as a live switch would.  A bad ROM never gets this far: tests/run
 * checks each one is refused at boot.
 */
#ifdef CONFIG_PARAVIRT
#include <kernel.h>
#include <ktest.h>
#include <string.h>
#include <asm/extable.h>
#include <asm/paging.h>
#include <asm/cpu.h>
#include <asm/paravirt.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/rom.h>

#define SKIP_UNLESS_ROM()						\
	do {								\
		if (strcmp(paravirt_ops.name, "rom") || !paravirt_rom_header()) \
			KT_SKIP("the backend is not rom");		\
	} while (0)

/* The lock ops, which the ABI has not: the glue holds the kernel's own
 * (asm/rom.h), and the unlock sites are inlined as natively, as are the
 * draw's where the CPU has xadd (elsewhere direct calls to the one-CPU
 * form). */
static bool lock_op(unsigned int slot)
{
	return slot == PARAVIRT_SLOT(spin_lock_slowpath) || slot == PARAVIRT_SLOT(spin_unlock) ||
	       slot == PARAVIRT_SLOT(spin_wait) || slot == PARAVIRT_SLOT(spin_kick) ||
	       slot == PARAVIRT_SLOT(vcpu_is_preempted) || slot == PARAVIRT_SLOT(spin_draw);
}

/* The lazy modes: native's, patched to nothing as natively (rom.c). */
static bool lazy_mode_op(unsigned int slot)
{
	return slot >= PARAVIRT_SLOT(start_context_switch) &&
	       slot <= PARAVIRT_SLOT(leave_lazy_mmu);
}

/* A site the patcher inlines in the ROM's table: the native lock ops
 * and the lazy modes. */
static bool inlined_as_natively(unsigned int slot)
{
	return slot == PARAVIRT_SLOT(spin_unlock) || lazy_mode_op(slot) ||
	       (cpu_has_xadd() && slot == PARAVIRT_SLOT(spin_draw));
}

/* Every op is the ROM's own code but the four the glue adapts, the
 * three page-table ops the ABI has not (the glue's stores), the TLB
 * shootdown (the ABI has none: the glue's IPIs), the APIC ops where the
 * ROM does not give them (a 1.0 ROM: the glue's), the lock ops and the
 * lazy modes. */
static bool adapted(unsigned int slot)
{
	const struct rom_header *h = paravirt_rom_header();

	if (lock_op(slot) || lazy_mode_op(slot))
		return true;
	if (slot == PARAVIRT_SLOT(apic_read))
		return !rom_gives_op(h, ROM_OP_apic_read);
	if (slot == PARAVIRT_SLOT(apic_write))
		return !rom_gives_op(h, ROM_OP_apic_write);
	return slot == PARAVIRT_SLOT(load_tr_desc) || slot == PARAVIRT_SLOT(load_ldt_desc) ||
	       slot == PARAVIRT_SLOT(load_tls) || slot == PARAVIRT_SLOT(load_esp0) ||
	       slot == PARAVIRT_SLOT(set_pte_at) || slot == PARAVIRT_SLOT(set_pde) ||
	       slot == PARAVIRT_SLOT(release_pgd) || slot == PARAVIRT_SLOT(flush_tlb_others);
}

KTEST(rom_table_points_into_rom)
{
	unsigned int slot, outside = 0;

	SKIP_UNLESS_ROM();
	for (slot = PARAVIRT_FIRST_OP_SLOT; slot < PARAVIRT_NR_SLOTS; slot++) {
		unsigned long fn = (unsigned long)paravirt_installed_op(slot);

		if (paravirt_rom_contains(fn) == adapted(slot)) {
			printk("ktest:   op %s at %08lx\n", paravirt_op_name(slot), fn);
			outside++;
		}
	}
	KT_EXPECT_EQ(outside, 0);
}

/* A direct call (e8) or jump (e9) somewhere in the site, to target. */
static bool site_reaches(const struct paravirt_patch_site *s, unsigned long target)
{
	const u8 *p = (const u8 *)s->instr;
	unsigned int i;

	for (i = 0; i + 5 <= s->len; i++) {
		s32 rel;

		memcpy(&rel, p + i + 1, 4);
		if ((p[i] == 0xe8 || p[i] == 0xe9) && s->instr + i + 5 + rel == target)
			return true;
	}
	return false;
}

KTEST(rom_sites_call_rom_directly)
{
	const struct paravirt_patch_site *s;
	unsigned int bad = 0, unlocks = 0;

	SKIP_UNLESS_ROM();
	if (paravirt_patching_disabled())
		KT_SKIP("booted with nopatch");
	for_each_patch_site(s)
		unlocks += !paravirt_site_fenced(s) && inlined_as_natively(s->slot);
	/* The lock's sites are inline (test_patch.c checks their bytes). */
	KT_EXPECT_EQ(paravirt_patch_stats()->inlined, unlocks);
	KT_EXPECT_EQ(paravirt_patch_stats()->direct, paravirt_patch_stats()->total - unlocks);
	for_each_patch_site(s)
		if (!paravirt_site_fenced(s) && !inlined_as_natively(s->slot) &&
		    !site_reaches(s, (unsigned long)paravirt_installed_op(s->slot))) {
			printk("ktest:   site %08x (%s) does not call the ROM\n",
			       s->instr, paravirt_op_name(s->slot));
			bad++;
		}
	KT_EXPECT_EQ(bad, 0);
}

KTEST(rom_runs_read_only)
{
	const struct rom_header *h;

	SKIP_UNLESS_ROM();
	h = paravirt_rom_header();
	KT_EXPECT(kernel_text_contains((u32)h));
	KT_EXPECT(kernel_text_contains((u32)h + h->size - 1));
	KT_EXPECT_EQ(h->checksum, rom_crc32(h, h->size));
}

KTEST(rom_fixups_in_exception_table)
{
	const struct rom_header *h;
	const struct rom_fixup *f, *end;
	unsigned int missing = 0;

	SKIP_UNLESS_ROM();
	h = paravirt_rom_header();
	f = (const void *)((const u8 *)h + h->fixups_start);
	end = (const void *)((const u8 *)h + h->fixups_end);
	KT_EXPECT(f < end);
	for (; f < end; f++) {
		const struct exception_table_entry *e =
			search_exception_tables((unsigned long)h + f->insn);

		missing += !e || (f->fixup != ROM_FIXUP_USER_RETURN &&
				  e->fixup != (unsigned long)h + f->fixup);
	}
	KT_EXPECT_EQ(missing, 0);
}

/* Prepared late, the ROM is copied into its read-only room by the code
 * writer, and its ops give what the running backend's give. */
KTEST(rom_installs_after_boot)
{
	const struct paravirt_backend *b = paravirt_find_backend("rom");
	const struct paravirt_ops *ops;
	const char *why = NULL;
	unsigned long flags;

	KT_EXPECT(b != NULL);
	if (!b || strcmp(paravirt_ops.name, "native"))
		KT_SKIP("the backend is not native");
	ops = b->prepare(&why);
	if (!ops && why && !strncmp(why, "no ops ROM", 10))
		KT_SKIP("no ROM among the modules");
	KT_EXPECT(ops != NULL);
	if (!ops)
		return;
	KT_EXPECT(paravirt_rom_contains((unsigned long)ops->read_cr3));
	KT_EXPECT_EQ(ops->read_cr3(), read_cr3());
	KT_EXPECT_EQ(ops->read_cr0(), read_cr0());
	flags = raw_local_irq_save();	/* the ROM sees interrupts off ... */
	KT_EXPECT_EQ(ops->save_fl() & X86_EFLAGS_IF, 0);
	raw_local_irq_restore(flags);	/* ... and as they were */
	KT_EXPECT_EQ(ops->save_fl() & X86_EFLAGS_IF, flags & X86_EFLAGS_IF);
	KT_EXPECT(b->prepare(&why) == ops);	/* once installed, the same */
}
#endif
