/*
 * test_paravirt.c - the table itself: where each op sits, the names the
 * kernel prints for them, and the check that stops a backend leaving an
 * op empty.
 *
 * The slot numbers below are written out from the member order of the
 * 2006 table (name 0, kernel_rpl 1, cpuid 3, ... iret 43), one slot
 * later for the backend's FPU choice (eager_fpu 2), and the
 * page-table ops after it (... release_pgd 46), the APIC's (apic_read
 * 47, apic_write 48), the TLB shootdown (flush_tlb_others 49), the
 * lock ops (spin_draw 55) and the lazy modes (start_context_switch
 * 56 .. leave_lazy_mmu 59, the last), not computed
 * with the macros under test: a member moved, added or dropped changes
 * them, and then these tests and every patch record must agree anew.
 */
#ifdef CONFIG_PARAVIRT
#include <kernel.h>
#include <ktest.h>
#include <string.h>
#include <asm/paravirt.h>

#define SLOT_EAGER_FPU		2	/* not an op: the last slot before them */
#define SLOT_CPUID		3	/* the first op */
#define SLOT_READ_CR4		15
#define SLOT_SAVE_FL		17
#define SLOT_IRQ_DISABLE	20
#define SLOT_SET_IOPL_MASK	41
#define SLOT_IRET		43	/* the 2006 table's last op */
#define SLOT_SET_PTE_AT		44
#define SLOT_RELEASE_PGD	46
#define SLOT_APIC_READ		47
#define SLOT_APIC_WRITE		48
#define SLOT_FLUSH_TLB_OTHERS	49
#define SLOT_SPIN_UNLOCK	51	/* the lock ops, after the shootdown */
#define SLOT_VCPU_IS_PREEMPTED	54
#define SLOT_SPIN_DRAW		55	/* the lock's draw, after the others */
#define SLOT_START_CONTEXT_SWITCH 56	/* the lazy modes, after the locks */
#define SLOT_LEAVE_LAZY_MMU	59	/* the last op */
#define NR_OPS			57	/* "paravirt: backend native, 57 ops" */

static bool named(unsigned int slot, const char *want)
{
	const char *got = paravirt_op_name(slot);

	if (!strcmp(got, want))
		return true;
	printk("ktest:   slot %u is named '%s', wanted '%s'\n", slot, got, want);
	return false;
}

KTEST(paravirt_slots_are_known)
{
	KT_EXPECT_EQ(offsetof(struct paravirt_ops, eager_fpu) / sizeof(void *), SLOT_EAGER_FPU);
	KT_EXPECT_EQ(PARAVIRT_SLOT(cpuid), SLOT_CPUID);
	KT_EXPECT_EQ(PARAVIRT_SLOT(read_cr4), SLOT_READ_CR4);
	KT_EXPECT_EQ(PARAVIRT_SLOT(save_fl), SLOT_SAVE_FL);
	KT_EXPECT_EQ(PARAVIRT_SLOT(irq_disable), SLOT_IRQ_DISABLE);
	KT_EXPECT_EQ(PARAVIRT_SLOT(set_iopl_mask), SLOT_SET_IOPL_MASK);
	KT_EXPECT_EQ(PARAVIRT_SLOT(iret), SLOT_IRET);
	KT_EXPECT_EQ(PARAVIRT_SLOT(set_pte_at), SLOT_SET_PTE_AT);
	KT_EXPECT_EQ(PARAVIRT_SLOT(release_pgd), SLOT_RELEASE_PGD);
	KT_EXPECT_EQ(PARAVIRT_SLOT(apic_read), SLOT_APIC_READ);
	KT_EXPECT_EQ(PARAVIRT_SLOT(apic_write), SLOT_APIC_WRITE);
	KT_EXPECT_EQ(PARAVIRT_SLOT(flush_tlb_others), SLOT_FLUSH_TLB_OTHERS);
	KT_EXPECT_EQ(PARAVIRT_SLOT(spin_unlock), SLOT_SPIN_UNLOCK);
	KT_EXPECT_EQ(PARAVIRT_SLOT(vcpu_is_preempted), SLOT_VCPU_IS_PREEMPTED);
	KT_EXPECT_EQ(PARAVIRT_SLOT(spin_draw), SLOT_SPIN_DRAW);
	KT_EXPECT_EQ(PARAVIRT_SLOT(start_context_switch), SLOT_START_CONTEXT_SWITCH);
	KT_EXPECT_EQ(PARAVIRT_SLOT(leave_lazy_mmu), SLOT_LEAVE_LAZY_MMU);
	KT_EXPECT_EQ(PARAVIRT_NR_OPS, NR_OPS);
	KT_EXPECT_EQ(PARAVIRT_FIRST_OP_SLOT, SLOT_CPUID);
	KT_EXPECT_EQ(PARAVIRT_NR_SLOTS, SLOT_LEAVE_LAZY_MMU + 1);
}

KTEST(paravirt_op_names_match_slots)
{
	KT_EXPECT(named(SLOT_CPUID, "cpuid"));
	KT_EXPECT(named(SLOT_READ_CR4, "read_cr4"));
	KT_EXPECT(named(SLOT_SAVE_FL, "save_fl"));
	KT_EXPECT(named(SLOT_IRQ_DISABLE, "irq_disable"));
	KT_EXPECT(named(SLOT_SET_IOPL_MASK, "set_iopl_mask"));
	KT_EXPECT(named(SLOT_IRET, "iret"));
	KT_EXPECT(named(SLOT_SET_PTE_AT, "set_pte_at"));
	KT_EXPECT(named(SLOT_RELEASE_PGD, "release_pgd"));
	KT_EXPECT(named(SLOT_APIC_READ, "apic_read"));
	KT_EXPECT(named(SLOT_APIC_WRITE, "apic_write"));
	KT_EXPECT(named(SLOT_FLUSH_TLB_OTHERS, "flush_tlb_others"));
	KT_EXPECT(named(SLOT_SPIN_UNLOCK, "spin_unlock"));
	KT_EXPECT(named(SLOT_VCPU_IS_PREEMPTED, "vcpu_is_preempted"));
	KT_EXPECT(named(SLOT_SPIN_DRAW, "spin_draw"));
	KT_EXPECT(named(SLOT_START_CONTEXT_SWITCH, "start_context_switch"));
	KT_EXPECT(named(SLOT_LEAVE_LAZY_MMU, "leave_lazy_mmu"));
	/* Not ops: the backend's name, kernel_rpl, eager_fpu, and past the end. */
	KT_EXPECT(named(0, "?"));
	KT_EXPECT(named(1, "?"));
	KT_EXPECT(named(SLOT_EAGER_FPU, "?"));
	KT_EXPECT(named(SLOT_LEAVE_LAZY_MMU + 1, "?"));
	KT_EXPECT(named(255, "?"));
}

/* Every op has a name of its own: none is "?", no two are the same. */
KTEST(paravirt_every_op_named_once)
{
	unsigned int slot, other, unnamed = 0, twice = 0;

	for (slot = SLOT_CPUID; slot <= SLOT_APIC_WRITE; slot++) {
		const char *name = paravirt_op_name(slot);

		if (!strcmp(name, "?")) {
			printk("ktest:   slot %u has no name\n", slot);
			unnamed++;
		}
		for (other = SLOT_CPUID; other < slot; other++)
			twice += !strcmp(name, paravirt_op_name(other));
	}
	KT_EXPECT_EQ(unnamed, 0);
	KT_EXPECT_EQ(twice, 0);
}

/* The check paravirt_init() runs on a backend: the first empty op, by
 * slot, or 0 for a full table. */
KTEST(paravirt_empty_op_found_by_slot)
{
	struct paravirt_ops ops = paravirt_ops;

	KT_EXPECT_EQ(paravirt_first_empty_op(&ops), 0);
	ops.read_cr4 = NULL;
	KT_EXPECT_EQ(paravirt_first_empty_op(&ops), SLOT_READ_CR4);
	ops.iret = NULL;		/* a later one does not hide it */
	KT_EXPECT_EQ(paravirt_first_empty_op(&ops), SLOT_READ_CR4);
	ops = paravirt_ops;
	ops.cpuid = NULL;
	KT_EXPECT_EQ(paravirt_first_empty_op(&ops), SLOT_CPUID);
	ops = paravirt_ops;
	ops.iret = NULL;
	KT_EXPECT_EQ(paravirt_first_empty_op(&ops), SLOT_IRET);
	ops = paravirt_ops;
	ops.name = NULL;		/* not ops: no complaint */
	ops.kernel_rpl = 0;
	ops.eager_fpu = false;
	KT_EXPECT_EQ(paravirt_first_empty_op(&ops), 0);
}
#endif
