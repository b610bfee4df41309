/*
 * test_descriptors.c - the descriptor-table ops: load/store of GDT, IDT,
 * TR and LDT, the write_*_entry ops and load_tls.
 *
 * The effect of a loaded descriptor is checked with lar (load access
 * rights), an unprivileged instruction that asks the CPU itself what it
 * finds in the table behind a selector.
 */
#include <ktest.h>
#include <string.h>
#include <asm/desc.h>
#include <asm/processor.h>
#include <asm/privileged.h>
#include <asm/traps.h>
#include "segment_checks.h"


KTEST(store_gdt_returns_loaded)
{
	struct desc_ptr d = { 0, 0 };

	store_gdt(&d);
	KT_EXPECT_EQ(d.address, (u32)gdt_table);
	KT_EXPECT_EQ(d.size, sizeof(gdt_table) - 1);
}

KTEST(store_idt_returns_loaded)
{
	struct desc_ptr d = { 0, 0 };

	store_idt(&d);
	KT_EXPECT_EQ(d.address, (u32)idt_table);
	KT_EXPECT_EQ(d.size, sizeof(idt_table) - 1);
}

/* Load a copy of the GDT whose user data descriptor is absent: the CPU
 * must see the difference, then the original again. */
KTEST(load_gdt_switches_table)
{
	static u64 copy[GDT_ENTRIES] __attribute__((aligned(8)));
	struct desc_ptr orig, moved = { sizeof(copy) - 1, (u32)copy }, now;
	unsigned long flags = raw_local_irq_save();

	store_gdt(&orig);
	memcpy(copy, gdt_table, sizeof(copy));
	copy[GDT_ENTRY_USER_DS] = 0;
	load_gdt(&moved);
	store_gdt(&now);
	KT_EXPECT_EQ(now.address, (u32)copy);
	KT_EXPECT_EQ(lar(__USER_DS), 0);
	load_gdt(&orig);
	raw_local_irq_restore(flags);
	store_gdt(&now);
	KT_EXPECT_EQ(now.address, (u32)gdt_table);
	KT_EXPECT(LAR_ACCESS(lar(__USER_DS)) & DESC_PRESENT);
}

KTEST(load_idt_switches_table)
{
	struct desc_ptr orig, tmp = { 7, 0x1000 }, now;
	unsigned long flags = raw_local_irq_save();	/* no IRQ with a bogus IDT */

	store_idt(&orig);
	load_idt(&tmp);
	store_idt(&now);
	load_idt(&orig);
	raw_local_irq_restore(flags);
	KT_EXPECT_EQ(now.address, 0x1000);
	KT_EXPECT_EQ(now.size, 7);
	store_idt(&now);
	KT_EXPECT_EQ(now.address, (u32)idt_table);
}

KTEST(store_tr_gives_tss_selector)
{
	KT_EXPECT_EQ(store_tr(), __TSS_SEL);
	KT_NOT_IN_GUEST("the TSS is the host's: lar cannot read it at ring 1");
	/* ltr marked the TSS busy: type 0xb instead of 0x9. */
	KT_EXPECT_EQ(LAR_ACCESS(lar(__TSS_SEL)) & 0xf, 0xb);
}

KTEST(write_gdt_entry_seen_by_cpu)
{
	int slot = GDT_ENTRY_TLS_MIN + 2;
	u64 saved = gdt_table[slot];
	u64 d = pack_descriptor(0x12345000, 0xfff,
				DESC_PRESENT | DESC_DPL(3) | DESC_CODE_DATA | DESC_DATA_W, 0x4);

	/* Written out by hand: base 12345000, limit fff, access f2, flags 4. */
	KT_EXPECT_EQ(d, 0x1240f23450000fffull);
	write_gdt_entry(gdt_table, slot, d);
	KT_EXPECT_EQ(gdt_table[slot], 0x1240f23450000fffull);
	/* A host marks a guest's descriptors accessed (so the CPU never
	 * writes the GDT it keeps read-only): the rest is as written. */
	KT_EXPECT_EQ(LAR_ACCESS(lar(slot * 8 + 3)) & ~DESC_ACCESSED,
		     DESC_PRESENT | DESC_DPL(3) | DESC_CODE_DATA | DESC_DATA_W);
	write_gdt_entry(gdt_table, slot, saved);
}

KTEST(write_idt_entry_writes_gate)
{
	u64 saved = idt_table[0xf0];
	u64 g = pack_gate(0xcafe1234, __KERNEL_CS, DESC_PRESENT | DESC_INTR_GATE);

	/* Written out by hand: offset cafe1234, selector 0008, access 8e. */
	KT_EXPECT_EQ(g, 0xcafe8e0000081234ull);
	write_idt_entry(idt_table, 0xf0, g);
	KT_EXPECT_EQ(idt_table[0xf0], 0xcafe8e0000081234ull);
	write_idt_entry(idt_table, 0xf0, saved);
	KT_EXPECT_EQ(idt_table[0xf0], saved);
}

static unsigned long soft_interrupts;

static void count_soft_interrupt(struct pt_regs *regs)
{
	(void)regs;
	soft_interrupts++;
}

/* set_system_gate() writes its gate with write_idt_entry: the CPU must
 * then deliver `int $0xf1` to the handler. */
KTEST(write_idt_entry_gate_is_taken)
{
	unsigned long before = soft_interrupts;

	set_system_gate(0xf1, count_soft_interrupt);
	asm volatile("int $0xf1" : : : "memory");
	set_system_gate(0xf1, NULL);
	KT_EXPECT_EQ(soft_interrupts, before + 1);
}

#define LDT_DATA_ACCESS (DESC_PRESENT | DESC_DPL(3) | DESC_CODE_DATA | DESC_DATA_W)

static void point_ldt_descriptor_at(u64 *table)
{
	write_gdt_entry(gdt_table, GDT_ENTRY_LDT,
			pack_descriptor((u32)table, LDT_ENTRIES * 8 - 1,
					DESC_PRESENT | DESC_LDT, 0));
	load_ldt_desc();
}

/* An LDT selector has bit 2 set.  write_ldt_entry fills a second LDT;
 * lar finds its entry only after load_ldt_desc has loaded that table
 * (marked accessed, in a guest, as the GDT's are). */
KTEST(ldt_entry_and_load)
{
	static u64 other_ldt[LDT_ENTRIES] __attribute__((aligned(8)));
	u64 d = pack_descriptor(0, 0xfffff, LDT_DATA_ACCESS, DESC_FLAGS_4K32);
	u32 sel = 1 * 8 | 4 | 3;

	write_ldt_entry(other_ldt, 1, d);
	KT_EXPECT_EQ(other_ldt[1], d);
	KT_EXPECT_EQ(lar(sel), 0);		/* the boot LDT is empty */
	point_ldt_descriptor_at(other_ldt);
	KT_EXPECT_EQ(LAR_ACCESS(lar(sel)) & ~DESC_ACCESSED, LDT_DATA_ACCESS);
	point_ldt_descriptor_at(ldt_table);
	KT_EXPECT_EQ(lar(sel), 0);
}

KTEST(load_tls_fills_gdt)
{
	struct thread_struct t = { .esp0 = 0 };
	u64 saved[GDT_ENTRY_TLS_ENTRIES];
	int i;

	memcpy(saved, &gdt_table[GDT_ENTRY_TLS_MIN], sizeof(saved));
	for (i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		t.tls_array[i] = pack_descriptor(0x1000 * (i + 1), 0xff,
						 DESC_PRESENT | DESC_DPL(3) |
						 DESC_CODE_DATA | DESC_DATA_W, 0x4);
	load_TLS(&t, 0);
	for (i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++) {
		KT_EXPECT_EQ(gdt_table[GDT_ENTRY_TLS_MIN + i], t.tls_array[i]);
		KT_EXPECT_EQ(descriptor_base(gdt_table[GDT_ENTRY_TLS_MIN + i]),
			     0x1000 * (i + 1));
	}
	memcpy(t.tls_array, saved, sizeof(saved));
	load_TLS(&t, 0);
}
