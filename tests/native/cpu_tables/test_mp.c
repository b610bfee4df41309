/*
 * test_mp.c - the MP table path with tables built by hand (no ACPI
 * here, so each test's notes start with "acpi: no RSDP"): where the
 * pointer may be, checksums, lengths and counts that lie, the default
 * configurations, entries of unknown type; then marking the boot CPU,
 * the notes' overflow and their formats.
 */
#include "check.h"

static const u8 ids_0123[] = { 0, 1, 2, 3 };

/* The MP table alone: its CPUs, its BSP, its I/O APIC; found in the
 * EBDA and in the last KiB of base memory too. */
void test_mp_good(void)
{
	put_mp_cpus(4);
	find();
	CHECK_NOTES("acpi: no RSDP");
	CHECK_CPUS(CPU_TABLES_MP, 4, ids_0123, NULL);
	CHECK_U64(tables.lapic_addr, 0xfee00000u);
	CHECK_U64(tables.mp_bsp_apic_id, 0);
	CHECK_U64(tables.nr_ioapics, 1);
	CHECK_U64(tables.ioapic_addr, 0xfec00000u);

	put_bytes(MPF_AT, "XXXX", 4);
	put_mpf(EBDA + 0x100, MPC_AT, 0);
	find();
	CHECK_CPUS(CPU_TABLES_MP, 4, ids_0123, NULL);

	put_bytes(EBDA + 0x100, "XXXX", 4);
	put16(0x40e, 0);		/* no EBDA: base memory's last KiB */
	put16(0x413, 638);
	put_mpf(638 * 1024 - 16, MPC_AT, 0);
	find();
	CHECK_CPUS(CPU_TABLES_MP, 4, ids_0123, NULL);
}

/* A bad checksum in the pointer (not found) or in the table (refused). */
void test_mp_bad_checksums(void)
{
	put_mp_cpus(4);
	put8(MPF_AT + 9, 1);
	find();
	CHECK_NOTES("acpi: no RSDP", "mp: pointer at 000f5ba0 has a bad checksum, refused",
		    "mp: no MP floating pointer");
	CHECK_NO_TABLES();

	put_mp_cpus(4);
	put8(MPC_AT + 44 + 1, 9);	/* CPU 0's APIC id */
	find();
	CHECK_NOTES("acpi: no RSDP",
		    "mp: config table at 000f5bb0 has a bad checksum, refused");
	CHECK_NO_TABLES();
}

/* Set the configuration table's base length and entry count, keeping
 * its checksum right over sum_len bytes. */
static void set_mpc(u16 len, u16 count, u32 sum_len)
{
	put16(MPC_AT + 4, len);
	put16(MPC_AT + 34, count);
	fix_checksum(MPC_AT, sum_len, 7);
}

/* A pointer of two paragraphs, a table shorter than its header, an
 * entry past its table, a count larger than the entries that fit, a
 * table pointer to nothing. */
void test_mp_lengths_lie(void)
{
	put_mp_cpus(2);
	put8(MPF_AT + 8, 2);
	fix_checksum(MPF_AT, 16, 10);
	find();
	CHECK_NOTES("acpi: no RSDP", "mp: pointer: floating pointer of 2 paragraphs, refused",
		    "mp: no MP floating pointer");
	CHECK_NO_TABLES();

	put_mp_cpus(2);
	set_mpc(43, 4, 44);
	find();
	CHECK_NOTES("acpi: no RSDP", "mp: config table at 000f5bb0 claims a length of 43 bytes, refused");
	CHECK_NO_TABLES();

	/* Cut inside the second CPU's entry: it runs past the table. */
	put_mp_cpus(2);
	set_mpc(44 + 30, 4, 44 + 30);
	find();
	CHECK_NOTES("acpi: no RSDP",
		    "mp: config table: entry at offset 64 runs past its end (74 bytes), refused");
	CHECK_NO_TABLES();

	/* Counting more entries than there are: those there are used. */
	put_mp_cpus(2);
	set_mpc(44 + 56, 200, 44 + 56);
	find();
	CHECK_NOTES("acpi: no RSDP", "mp: config table: 4 entries fit of the 200 it counts, the rest ignored");
	CHECK_CPUS(CPU_TABLES_MP, 2, ids_0123, NULL);

	/* Counting fewer: the rest is not read. */
	put_mp_cpus(4);
	set_mpc(44 + 96, 2, 44 + 96);
	find();
	CHECK_NOTES("acpi: no RSDP");
	CHECK_CPUS(CPU_TABLES_MP, 2, ids_0123, NULL);

	put_mp_cpus(2);
	put_mpf(MPF_AT, 0x50000000u, 0);
	find();
	CHECK_NOTES("acpi: no RSDP", "mp: config table at 50000000 (44 bytes) is not readable, refused");
	CHECK_NO_TABLES();

	/* The whole table readable, as claimed, or refused. */
	put_mp_cpus(2);
	put_mpf(MPF_AT, LOW_SIZE - 60, 0);
	put_mpc(LOW_SIZE - 60, 0xfee00000u, at(MPC_AT + 44), 16, 1);
	put16(LOW_SIZE - 60 + 4, 84);	/* 24 bytes past the end of memory */
	find();
	CHECK_NOTES("acpi: no RSDP", "mp: config table at 000fffc4 (84 bytes) is not readable, refused");
	CHECK_NO_TABLES();
}

/* A default configuration (feature byte 1 set) has no table: refused. */
void test_mp_default_config(void)
{
	put_mp_cpus(2);
	put_mpf(MPF_AT, 0, 5);
	find();
	CHECK_NOTES("acpi: no RSDP",
		    "mp: default configuration 5 (no table): not supported, refused");
	CHECK_NO_TABLES();
}

/* An entry of a type MP 1.4 does not have: its size is unknown, so the
 * rest cannot be read; the CPUs before it are kept. */
void test_mp_unknown_entry(void)
{
	static const u8 ids[] = { 0 };
	u8 e[20 + 8 + 20];

	mpc_cpu(e, 0, 3);
	memset(e + 20, 0, 8);
	e[20] = 0x80;
	mpc_cpu(e + 28, 1, 1);
	put_mpc(MPC_AT, 0xfee00000u, e, sizeof(e), 3);
	put_mpf(MPF_AT, MPC_AT, 0);
	find();
	CHECK_NOTES("acpi: no RSDP",
		    "mp: config table: entry at offset 64 of unknown type 128, the rest ignored");
	CHECK_CPUS(CPU_TABLES_MP, 1, ids, NULL);
}

/* The boot CPU must be listed and enabled; MP's BP flag is compared. */
void test_mark_boot(void)
{
	u8 e[32];

	put_acpi_cpus(4);
	find();
	CHECK(cpu_tables_mark_boot(&tables, 2, &notes), "APIC id 2 not found");
	CHECK_U64(tables.boot_index, 2);
	CHECK(!cpu_tables_mark_boot(&tables, 9, &notes), "APIC id 9 found");
	CHECK_NOTES("acpi: the boot CPU (APIC id 9) is not listed: the table is not this machine's");

	madt_cpu(e, 0, 0, 0);
	madt_cpu(e + 8, 1, 1, 1);
	put_madt(MADT_AT, 0xfee00000u, e, 16);
	find();
	CHECK(!cpu_tables_mark_boot(&tables, 0, &notes), "a disabled boot CPU taken");
	CHECK_NOTES("acpi: the boot CPU (APIC id 0) is listed disabled: the table is not this machine's");

	fake_reset();
	put_mp_cpus(4);
	find();
	CHECK(cpu_tables_mark_boot(&tables, 1, &notes), "APIC id 1 not found");
	CHECK_NOTES("acpi: no RSDP", "mp: flags APIC id 0 as the boot CPU, but it is 1");
}

/* More notes than fit are counted, not written past the array. */
void test_notes_overflow(void)
{
	u32 addr;

	for (addr = 0xe0000; addr < 0xe0000 + 20 * 16; addr += 16)
		put_bytes(addr, "RSD PTR x", 9);	/* bad checksums */
	find();
	CHECK_U64(notes.nr, CT_MAX_NOTES);
	CHECK_U64(notes.dropped, 20 + 2 - CT_MAX_NOTES);
	CHECK_NO_TABLES();
}

/* Every kind of note has a format, and none runs off the arguments. */
void test_note_formats(void)
{
	unsigned int k;

	for (k = 0; k < CT_NOTE_KINDS; k++) {
		const char *f = cpu_tables_note_format(k);
		const char *p;
		unsigned int n = 0;

		CHECK(f && strstr(f, "(unknown note)") == NULL, "kind %u: no format", k);
		for (p = f; p && (p = strchr(p, '%')); p += 2)
			n++;
		CHECK(n >= 1 && n <= 4, "kind %u: %u conversions", k, n);
	}
	CHECK(strstr(cpu_tables_note_format(CT_NOTE_KINDS), "unknown") != NULL,
	      "an unknown kind has no fallback");
}
