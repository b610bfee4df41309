/*
 * test_qemu.c - the tables QEMU -smp 4 really gives (qemu_tables.c,
 * captured by capture_qemu.py): the MADT used, the MP table as the
 * fallback when there is no RSDP, and a MADT spoiled by one byte.
 */
#include "check.h"

static const u8 ids_0123[] = { 0, 1, 2, 3 };

/* The address of the captured table with this signature. */
static u32 captured(const char *sig)
{
	unsigned int i;

	for (i = 0; i < qemu_tables_pieces; i++)
		if (qemu_tables[i].len >= 4 && !memcmp(qemu_tables[i].bytes, sig, 4))
			return qemu_tables[i].addr;
	return 0;
}

/* SeaBIOS's MADT: 4 enabled CPUs, APIC ids 0-3, the local APIC at its
 * reset address, one I/O APIC at fec00000; then the boot CPU is 0. */
void test_qemu_madt(void)
{
	put_qemu_tables();
	find();
	CHECK_NO_NOTES();
	CHECK_CPUS(CPU_TABLES_MADT, 4, ids_0123, NULL);
	CHECK_U64(tables.nr_entries, 4);
	CHECK_U64(tables.lapic_addr, 0xfee00000u);
	CHECK_U64(tables.madt_flags & 1, 1);
	CHECK_U64(tables.nr_ioapics, 1);
	CHECK_U64(tables.ioapic_addr, 0xfec00000u);
	CHECK_U64(tables.cpu[2].acpi_id, 2);
	CHECK(cpu_tables_mark_boot(&tables, 0, &notes), "boot CPU 0 not found");
	CHECK_U64(tables.boot_index, 0);
	CHECK(tables.cpu[0].boot && !tables.cpu[1].boot, "boot flags wrong");
	CHECK_NO_NOTES();
}

/* Without the RSDP's signature ACPI is not found: the MP table, with
 * CPU 0 flagged as the boot processor.  SeaBIOS (QEMU 7.2, -smp 4) lists
 * only that one CPU there, though the MADT has four: one more reason the
 * MADT comes first. */
void test_qemu_mp_fallback(void)
{
	u32 rsdp;

	put_qemu_tables();
	for (rsdp = 0xe0000; rsdp < 0x100000; rsdp += 16)
		if (!memcmp(at(rsdp), "RSD PTR ", 8))
			put8(rsdp, 'r');
	find();
	CHECK_NOTES("acpi: no RSDP");
	CHECK_CPUS(CPU_TABLES_MP, 1, ids_0123, NULL);
	CHECK_U64(tables.lapic_addr, 0xfee00000u);
	CHECK_U64(tables.mp_bsp_apic_id, 0);
	CHECK_U64(tables.nr_ioapics, 1);
	CHECK(cpu_tables_mark_boot(&tables, 0, &notes), "boot CPU 0 not found");
	CHECK_NOTES("acpi: no RSDP");
}

/* One byte of the MADT changed: its checksum refuses it, whole, and the
 * MP table is used instead. */
void test_qemu_madt_spoiled(void)
{
	char want[96];
	u32 madt;

	put_qemu_tables();
	madt = captured("APIC");
	CHECK(madt != 0, "no MADT captured");
	put8(madt + 44 + 3, *at(madt + 44 + 3) + 1);	/* CPU 0's APIC id */
	find();
	snprintf(want, sizeof(want), "acpi: MADT at %08x has a bad checksum, refused", madt);
	CHECK_NOTES(want, "acpi: RSDT: no sound MADT among its 4 tables");
	CHECK_CPUS(CPU_TABLES_MP, 1, ids_0123, NULL);
}
