/*
 * test_acpi.c - the ACPI path, with tables built by hand: where the RSDP
 * may be, checksums, lengths and entries that lie, pointers to nothing,
 * more CPUs than kept, disabled CPUs and impossible APIC ids.  Each
 * broken table must be refused whole, with its note, and the search go
 * on to the MP table (absent here unless said).
 */
#include "check.h"

static const u8 ids_0123[] = { 0, 1, 2, 3 };

/* Nothing anywhere: no table, and both searches say so. */
void test_no_tables(void)
{
	find();
	CHECK_NOTES("acpi: no RSDP", "mp: no MP floating pointer");
	CHECK_NO_TABLES();
}

/* An RSDP in the EBDA's first KiB is found before the BIOS area's; one
 * that does not fit in that KiB is not looked at there. */
void test_rsdp_in_ebda(void)
{
	static const u32 list[] = { MADT_AT + 0x200 };
	u8 e[16];

	put_acpi_cpus(4);
	madt_cpu(e, 0, 0, 1);
	madt_cpu(e + 8, 1, 1, 1);
	put_madt(MADT_AT + 0x200, 0xfee00000u, e, 16);
	put_rsdt(RSDT_AT + 0x200, list, 1);
	put_rsdp(EBDA + 0x3e0, RSDT_AT + 0x200);
	find();
	CHECK_NO_NOTES();
	CHECK_CPUS(CPU_TABLES_MADT, 2, ids_0123, NULL);

	put_bytes(EBDA + 0x3e0, "XXXXXXXX", 8);
	put_rsdp(EBDA + 0x3f0, RSDT_AT + 0x200);	/* runs past the KiB */
	find();
	CHECK_NO_NOTES();
	CHECK_CPUS(CPU_TABLES_MADT, 4, ids_0123, NULL);
}

/* An EBDA segment outside base memory is not searched, with a note. */
void test_bad_ebda_segment(void)
{
	put_acpi_cpus(4);
	put_rsdp(0x1000, RSDT_AT);
	put_bytes(RSDP_AT, "XXXXXXXX", 8);
	put16(0x40e, 0x0100);		/* 0x1000: in the IVT's neighbourhood */
	find();
	CHECK_NOTES("bios: EBDA segment 0100 is not in base memory, not searched",
		    "acpi: no RSDP", "mp: no MP floating pointer");
	CHECK_NO_TABLES();
}

/* A bad checksum refuses each table in the chain: the RSDP (then no
 * RSDP is found at all), the RSDT, the MADT. */
void test_acpi_bad_checksums(void)
{
	put_acpi_cpus(4);
	put8(RSDP_AT + 8, *at(RSDP_AT + 8) + 1);
	find();
	CHECK_NOTES("acpi: RSDP at 000f59d0 has a bad checksum, refused",
		    "acpi: no RSDP", "mp: no MP floating pointer");
	CHECK_NO_TABLES();

	put_acpi_cpus(4);
	put8(RSDT_AT + 20, 'x');
	find();
	CHECK_NOTES("acpi: RSDT at 07fe1000 has a bad checksum, refused",
		    "mp: no MP floating pointer");
	CHECK_NO_TABLES();

	put_acpi_cpus(4);
	put8(MADT_AT + 44 + 3, 7);
	find();
	CHECK_NOTES("acpi: MADT at 07fe1100 has a bad checksum, refused",
		    "acpi: RSDT: no sound MADT among its 2 tables",
		    "mp: no MP floating pointer");
	CHECK_NO_TABLES();

	/* ... and falls back to the MP table when there is one. */
	put_mp_cpus(2);
	find();
	CHECK_CPUS(CPU_TABLES_MP, 2, ids_0123, NULL);
}

/* Set a table's length field, keeping its checksum right. */
static void set_length(u32 addr, u32 len, u32 sum_len)
{
	put32(addr + 4, len);
	fix_checksum(addr, sum_len, 9);
}

/* Lengths too short for a header, longer than any CPU table, or past
 * readable memory: refused before anything past the header is read. */
void test_acpi_lengths_lie(void)
{
	u32 madt_len;

	put_acpi_cpus(4);
	set_length(RSDT_AT, 35, 44);
	find();
	CHECK_NOTES("acpi: RSDT at 07fe1000 claims a length of 35 bytes, refused",
		    "mp: no MP floating pointer");
	CHECK_NO_TABLES();

	put_acpi_cpus(4);
	set_length(MADT_AT, 0x10001, 44);
	find();
	CHECK_NOTES("acpi: MADT at 07fe1100 claims a length of 65537 bytes, refused",
		    "acpi: RSDT: no sound MADT among its 2 tables",
		    "mp: no MP floating pointer");
	CHECK_NO_TABLES();

	/* 64 KiB is allowed, but runs past the end of memory at 128 MiB. */
	put_acpi_cpus(4);
	set_length(MADT_AT, 0x10000, 44);
	put_rsdt(RSDT_AT, (const u32[]){ HIGH_END - 0x8000 }, 1);
	madt_len = put_madt(HIGH_END - 0x8000, 0xfee00000u, at(MADT_AT + 44), 32);
	set_length(HIGH_END - 0x8000, 0x10000, madt_len);
	find();
	CHECK_NOTES("acpi: MADT at 07ff8000 (65536 bytes) is not readable, refused",
		    "acpi: RSDT: no sound MADT among its 1 tables",
		    "mp: no MP floating pointer");
	CHECK_NO_TABLES();

	/* Long enough for a header but not for the MADT's own fields. */
	put_acpi_cpus(4);
	set_length(MADT_AT, 40, 40);
	find();
	CHECK_NOTES("acpi: MADT at 07fe1100 claims a length of 40 bytes, refused",
		    "acpi: RSDT: no sound MADT among its 2 tables",
		    "mp: no MP floating pointer");
	CHECK_NO_TABLES();
}

/* Put a MADT of these entries where put_acpi_cpus put its own. */
static void madt_of(const u8 *entries, u32 len)
{
	put_acpi_cpus(1);
	put_madt(MADT_AT, 0xfee00000u, entries, len);
}

/* An entry of length 0 or 1 (which would loop for ever or go
 * backwards), a processor entry too short for its fields, one that runs
 * past the table, a byte left over: the MADT is refused. */
void test_madt_entry_lengths_lie(void)
{
	u8 e[24] = { 0 };

	madt_cpu(e, 0, 0, 1);
	madt_cpu(e + 8, 1, 1, 1);
	e[9] = 0;
	madt_of(e, 16);
	find();
	CHECK_NOTES("acpi: MADT: entry at offset 52 has length 0 (type 0), refused",
		    "acpi: RSDT: no sound MADT among its 2 tables",
		    "mp: no MP floating pointer");
	CHECK_NO_TABLES();

	e[9] = 1;
	madt_of(e, 16);
	find();
	CHECK_NOTES("acpi: MADT: entry at offset 52 has length 1 (type 0), refused",
		    "acpi: RSDT: no sound MADT among its 2 tables",
		    "mp: no MP floating pointer");

	e[9] = 4;
	madt_of(e, 16);
	find();
	CHECK_NOTES("acpi: MADT: entry at offset 52 has length 4 (type 0), refused",
		    "acpi: RSDT: no sound MADT among its 2 tables",
		    "mp: no MP floating pointer");

	e[9] = 12;			/* runs 4 bytes past the table */
	madt_of(e, 16);
	find();
	CHECK_NOTES("acpi: MADT: entry at offset 52 runs past its end (60 bytes), refused",
		    "acpi: RSDT: no sound MADT among its 2 tables",
		    "mp: no MP floating pointer");

	e[9] = 8;
	madt_of(e, 17);			/* a stray byte at the end */
	find();
	CHECK_NOTES("acpi: MADT: entry at offset 60 runs past its end (61 bytes), refused",
		    "acpi: RSDT: no sound MADT among its 2 tables",
		    "mp: no MP floating pointer");

	/* An I/O APIC entry too short; an unknown type is skipped. */
	madt_cpu(e, 0, 0, 1);
	e[8] = 1;
	e[9] = 8;
	madt_of(e, 16);
	find();
	CHECK_NOTES("acpi: MADT: entry at offset 52 has length 8 (type 1), refused",
		    "acpi: RSDT: no sound MADT among its 2 tables",
		    "mp: no MP floating pointer");
	e[8] = 0x7f;
	madt_of(e, 16);
	find();
	CHECK_NO_NOTES();
	CHECK_CPUS(CPU_TABLES_MADT, 1, ids_0123, NULL);

	/* ... but not one of length 0 or 1: the walk would not advance. */
	e[9] = 0;
	madt_of(e, 16);
	find();
	CHECK_NOTES("acpi: MADT: entry at offset 52 has length 0 (type 127), refused",
		    "acpi: RSDT: no sound MADT among its 2 tables",
		    "mp: no MP floating pointer");
	e[9] = 1;
	madt_of(e, 16);
	find();
	CHECK_NOTES("acpi: MADT: entry at offset 52 has length 1 (type 127), refused",
		    "acpi: RSDT: no sound MADT among its 2 tables",
		    "mp: no MP floating pointer");
}

/* An RSDT address where no memory is, an RSDT that is something else,
 * an RSDT entry pointing nowhere (skipped: the next one is the MADT). */
void test_rsdt_points_nowhere(void)
{
	static const u32 list[] = { 0x50000000u, 0xfffffffeu, MADT_AT };

	put_acpi_cpus(4);
	put_rsdp(RSDP_AT, 0x50000000u);
	find();
	CHECK_NOTES("acpi: RSDT at 50000000 (36 bytes) is not readable, refused",
		    "mp: no MP floating pointer");
	CHECK_NO_TABLES();

	put_acpi_cpus(4);
	put_rsdp(RSDP_AT, MADT_AT);
	find();
	CHECK_NOTES("acpi: RSDT at 07fe1100 has not its signature, refused",
		    "mp: no MP floating pointer");
	CHECK_NO_TABLES();

	put_acpi_cpus(4);
	put_rsdt(RSDT_AT, list, 3);
	find();
	CHECK_NO_NOTES();
	CHECK_CPUS(CPU_TABLES_MADT, 4, ids_0123, NULL);
}

/* Ten CPUs: the first eight kept, all ten counted, with a note. */
void test_too_many_cpus(void)
{
	static const u8 ids[] = { 0, 1, 2, 3, 4, 5, 6, 7 };

	put_acpi_cpus(10);
	find();
	CHECK_NOTES("acpi: MADT: 10 processors listed, only the first 8 kept");
	CHECK_CPUS(CPU_TABLES_MADT, 8, ids, NULL);
	CHECK_U64(tables.nr_entries, 10);

	put_acpi_cpus(8);		/* exactly as many as kept: no note */
	find();
	CHECK_NO_NOTES();
	CHECK_CPUS(CPU_TABLES_MADT, 8, ids, NULL);
}

/* Disabled CPUs are listed, not counted as enabled; none enabled
 * refuses the table (the boot CPU at least is there). */
void test_disabled_cpus(void)
{
	static const bool enabled[] = { true, false, true, false };
	u8 e[32];
	unsigned int i;

	for (i = 0; i < 4; i++)
		madt_cpu(e + 8 * i, i, i, enabled[i] ? 1 : 2);	/* 2: online capable */
	madt_of(e, 32);
	find();
	CHECK_NO_NOTES();
	CHECK_CPUS(CPU_TABLES_MADT, 4, ids_0123, enabled);

	for (i = 0; i < 4; i++)
		madt_cpu(e + 8 * i, i, i, 0);
	madt_of(e, 32);
	find();
	CHECK_NOTES("acpi: MADT: no enabled processor listed, refused",
		    "acpi: RSDT: no sound MADT among its 2 tables",
		    "mp: no MP floating pointer");
	CHECK_NO_TABLES();
}

/* APIC id 0xff (the broadcast id) and a repeated id are ignored. */
void test_bad_apic_ids(void)
{
	static const u8 ids[] = { 0, 2 };
	u8 e[32];

	madt_cpu(e, 0, 0, 1);
	madt_cpu(e + 8, 1, 0xff, 1);
	madt_cpu(e + 16, 2, 2, 1);
	madt_cpu(e + 24, 3, 0, 1);
	madt_of(e, 32);
	find();
	CHECK_NOTES("acpi: MADT: processor 1 has APIC id 255, ignored",
		    "acpi: MADT: processor 3 repeats APIC id 0, ignored");
	CHECK_CPUS(CPU_TABLES_MADT, 2, ids, NULL);
	CHECK_U64(tables.nr_entries, 4);
}

/* A local APIC address of 0 or not on a page boundary refuses the MADT. */
void test_bad_lapic_address(void)
{
	u8 e[8];

	madt_cpu(e, 0, 0, 1);
	put_acpi_cpus(1);
	put_madt(MADT_AT, 0xfee00800u, e, 8);
	find();
	CHECK_NOTES("acpi: MADT: local APIC address fee00800 is not a page's, refused",
		    "acpi: RSDT: no sound MADT among its 2 tables",
		    "mp: no MP floating pointer");
	CHECK_NO_TABLES();
}

/* A type-5 entry replaces the local APIC address, if below 4 GiB. */
void test_lapic_override(void)
{
	u8 e[8 + 12 + 12] = { 0 };

	madt_cpu(e, 0, 0, 1);
	e[8] = 5;
	e[9] = 12;
	memcpy(e + 12, (const u8[]){ 0x00, 0x00, 0xd0, 0xfe }, 4);
	madt_of(e, 20);
	find();
	CHECK_NO_NOTES();
	CHECK_U64(tables.lapic_addr, 0xfed00000u);

	e[20] = 5;
	e[21] = 12;
	memcpy(e + 24, (const u8[]){ 0x00, 0x00, 0xc0, 0xfe, 1, 0, 0, 0 }, 8);
	madt_of(e, 32);			/* a second one above 4 GiB: ignored */
	find();
	CHECK_NO_NOTES();
	CHECK_U64(tables.lapic_addr, 0xfed00000u);
}

/* A type-5 entry too short for its 64-bit address (12 bytes in all) lies
 * about its length: the MADT is refused, as for any such entry, and no
 * address is taken from bytes that are not the entry's. */
void test_lapic_override_too_short(void)
{
	static const u8 lengths[] = { 8, 11 };
	u8 e[8 + 12] = { 0 };
	char want[80];
	unsigned int i;

	for (i = 0; i < sizeof(lengths); i++) {
		madt_cpu(e, 0, 0, 1);
		e[8] = 5;
		e[9] = lengths[i];
		memcpy(e + 12, (const u8[]){ 0x00, 0x00, 0xd0, 0xfe }, 4);
		madt_of(e, 8 + lengths[i]);
		find();
		snprintf(want, sizeof(want),
			 "acpi: MADT: entry at offset 52 has length %u (type 5), refused",
			 lengths[i]);
		CHECK_NOTES(want, "acpi: RSDT: no sound MADT among its 2 tables",
			    "mp: no MP floating pointer");
		CHECK_NO_TABLES();
	}
}
