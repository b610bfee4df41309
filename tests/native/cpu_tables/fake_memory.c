/*
 * fake_memory.c - two buffers that play the machine's memory for the
 * parser (its first MiB, and the top 128 KiB of 128 MiB where QEMU puts
 * the ACPI tables), writers that lay out ACPI and MP tables in it by the
 * specifications' offsets, and the checks of the results.
 *
 * A read that is not wholly inside one buffer fails, as a read of memory
 * that is not there; the parser must then say so and go on.  A read past
 * what it checked would show as a wrong result, or as an ASan report.
 */
#include <stdlib.h>
#include "check.h"
#include "../runner/notes.h"

static u8 *low, *high;
struct cpu_tables tables;
struct cpu_tables_notes notes;

static bool read_fake(const struct fw_memory *mem, u64 addr, void *dst, u32 n)
{
	(void)mem;
	if (addr <= LOW_SIZE && n <= LOW_SIZE - addr) {
		memcpy(dst, low + addr, n);
		return true;
	}
	if (addr >= HIGH_BASE && addr <= HIGH_END && n <= HIGH_END - addr) {
		memcpy(dst, high + (addr - HIGH_BASE), n);
		return true;
	}
	return false;
}

const struct fw_memory fake_memory = { read_fake };

void fake_reset(void)
{
	if (!low) {
		low = malloc(LOW_SIZE);
		high = malloc(HIGH_END - HIGH_BASE);
	}
	memset(low, 0, LOW_SIZE);
	memset(high, 0, HIGH_END - HIGH_BASE);
	memset(&tables, 0x5a, sizeof(tables));	/* the parser must clear it */
	memset(&notes, 0x5a, sizeof(notes));
}

u8 *at(u32 addr)
{
	if (addr < LOW_SIZE)
		return low + addr;
	if (addr >= HIGH_BASE && addr < HIGH_END)
		return high + (addr - HIGH_BASE);
	fprintf(stderr, "fake memory: %#x is outside it\n", addr);
	abort();
}

void put8(u32 addr, u8 v)
{
	*at(addr) = v;
}

void put16(u32 addr, u16 v)
{
	put8(addr, v);
	put8(addr + 1, v >> 8);
}

void put32(u32 addr, u32 v)
{
	put16(addr, v);
	put16(addr + 2, v >> 16);
}

void put_bytes(u32 addr, const void *bytes, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		put8(addr + i, ((const u8 *)bytes)[i]);
}

void fix_checksum(u32 addr, u32 n, u32 at_offset)
{
	u8 sum = 0;
	u32 i;

	put8(addr + at_offset, 0);
	for (i = 0; i < n; i++)
		sum += *at(addr + i);
	put8(addr + at_offset, -sum);
}

void put_bda(void)
{
	put16(0x40e, EBDA >> 4);
	put16(0x413, 639);
}

/* ---- ACPI (6.x, 5.2.5 to 5.2.12) ---- */

u32 put_rsdp(u32 addr, u32 rsdt)
{
	put_bytes(addr, "RSD PTR ", 8);
	put_bytes(addr + 9, "BOCHS ", 6);	/* OEM id */
	put8(addr + 15, 0);			/* revision: ACPI 1.0 */
	put32(addr + 16, rsdt);
	fix_checksum(addr, 20, 8);
	return 20;
}

/* The 36-byte header of a table of signature sig and length len. */
static void put_sdt_header(u32 addr, const char *sig, u32 len)
{
	put_bytes(addr, sig, 4);
	put32(addr + 4, len);
	put8(addr + 8, 1);
	put_bytes(addr + 10, "BOCHS BXPC    ", 14);	/* OEM id, table id */
}

u32 put_rsdt(u32 addr, const u32 *list, u32 n)
{
	u32 len = 36 + 4 * n, i;

	put_sdt_header(addr, "RSDT", len);
	for (i = 0; i < n; i++)
		put32(addr + 36 + 4 * i, list[i]);
	fix_checksum(addr, len, 9);
	return len;
}

u32 put_madt(u32 addr, u32 lapic, const u8 *entries, u32 entries_len)
{
	u32 len = 44 + entries_len;

	put_sdt_header(addr, "APIC", len);
	put32(addr + 36, lapic);
	put32(addr + 40, 1);		/* PCAT_COMPAT: 8259s too */
	put_bytes(addr + 44, entries, entries_len);
	fix_checksum(addr, len, 9);
	return len;
}

void madt_cpu(u8 *e, u8 acpi_id, u8 apic_id, u32 flags)
{
	e[0] = 0;
	e[1] = 8;
	e[2] = acpi_id;
	e[3] = apic_id;
	e[4] = flags;
	e[5] = flags >> 8;
	e[6] = flags >> 16;
	e[7] = flags >> 24;
}

void put_acpi_cpus(unsigned int n)
{
	static const u8 ioapic[12] = { 1, 12, 4, 0, 0x00, 0x00, 0xc0, 0xfe, 0, 0, 0, 0 };
	u8 entries[8 * 16 + 12];
	u32 rsdt_list[2] = { 0x7fe1800u, MADT_AT };	/* a FACP-like table first */
	unsigned int i;

	for (i = 0; i < n; i++)
		madt_cpu(entries + 8 * i, i, i, 1);
	memcpy(entries + 8 * n, ioapic, sizeof(ioapic));
	put_madt(MADT_AT, 0xfee00000u, entries, 8 * n + sizeof(ioapic));
	put_sdt_header(0x7fe1800u, "FACP", 116);
	fix_checksum(0x7fe1800u, 116, 9);
	put_rsdt(RSDT_AT, rsdt_list, 2);
	put_rsdp(RSDP_AT, RSDT_AT);
	put_bda();
}

/* ---- MP 1.4 (chapter 4) ---- */

void put_mpf(u32 addr, u32 config, u8 feature1)
{
	put_bytes(addr, "_MP_", 4);
	put32(addr + 4, config);
	put8(addr + 8, 1);		/* length: one paragraph */
	put8(addr + 9, 4);		/* spec revision 1.4 */
	put8(addr + 11, feature1);
	fix_checksum(addr, 16, 10);
}

u32 put_mpc(u32 addr, u32 lapic, const u8 *entries, u32 entries_len, u16 count)
{
	u32 len = 44 + entries_len;

	put_bytes(addr, "PCMP", 4);
	put16(addr + 4, len);
	put8(addr + 6, 4);
	put_bytes(addr + 8, "BOCHSCPU0.1         ", 20);	/* OEM, product */
	put16(addr + 34, count);
	put32(addr + 36, lapic);
	put_bytes(addr + 44, entries, entries_len);
	fix_checksum(addr, len, 7);
	return len;
}

void mpc_cpu(u8 *e, u8 apic_id, u8 flags)
{
	memset(e, 0, 20);
	e[0] = 0;
	e[1] = apic_id;
	e[2] = 0x14;		/* local APIC version */
	e[3] = flags;
}

void put_mp_cpus(unsigned int n)
{
	static const u8 bus[8] = { 1, 0, 'I', 'S', 'A', ' ', ' ', ' ' };
	static const u8 ioapic[8] = { 2, 4, 0x11, 1, 0x00, 0x00, 0xc0, 0xfe };
	u8 entries[20 * 16 + 16];
	unsigned int i;

	for (i = 0; i < n; i++)
		mpc_cpu(entries + 20 * i, i, i ? 1 : 3);
	memcpy(entries + 20 * n, bus, 8);
	memcpy(entries + 20 * n + 8, ioapic, 8);
	put_mpc(MPC_AT, 0xfee00000u, entries, 20 * n + 16, n + 2);
	put_mpf(MPF_AT, MPC_AT, 0);
	put_bda();
}

void put_qemu_tables(void)
{
	unsigned int i;

	for (i = 0; i < qemu_tables_pieces; i++)
		put_bytes(qemu_tables[i].addr, qemu_tables[i].bytes, qemu_tables[i].len);
}

void find(void)
{
	cpu_tables_find(&fake_memory, &tables, &notes);
}

/* ---- results ---- */

const char *note_text(unsigned int i)
{
	const struct cpu_tables_note *n = &notes.note[i];

	return note_line(cpu_tables_note_format(n->kind), n->subject, n->a, n->b, n->c);
}

void check_notes_at(const char *file, int line, const char *const *want, unsigned int n)
{
	check_note_lines_at(file, line, want, n, notes.nr, notes.dropped, note_text);
}

void check_cpus_at(const char *file, int line, enum cpu_tables_source source,
		   unsigned int n, const u8 *apic_ids, const bool *enabled)
{
	unsigned int i, nr_enabled = 0;

	if (tables.source != source)
		check_failed(file, line, "source %s, want %s",
			     cpu_tables_source_name(tables.source), cpu_tables_source_name(source));
	if (tables.nr_cpus != n) {
		check_failed(file, line, "%u CPUs kept, want %u", tables.nr_cpus, n);
		return;
	}
	for (i = 0; i < n; i++) {
		bool want_enabled = enabled ? enabled[i] : true;

		if (tables.cpu[i].apic_id != apic_ids[i] || tables.cpu[i].enabled != want_enabled)
			check_failed(file, line, "cpu %u: APIC id %u enabled %d, want %u %d", i,
				     tables.cpu[i].apic_id, tables.cpu[i].enabled,
				     apic_ids[i], want_enabled);
		if (tables.cpu[i].boot)
			check_failed(file, line, "cpu %u marked boot before mark_boot", i);
		nr_enabled += want_enabled;
	}
	if (tables.nr_enabled != nr_enabled)
		check_failed(file, line, "%u enabled, want %u", tables.nr_enabled, nr_enabled);
	if (!n && (tables.lapic_addr || tables.nr_entries || tables.boot_index != -1))
		check_failed(file, line, "no table, yet lapic %#x entries %u boot %d",
			     tables.lapic_addr, tables.nr_entries, tables.boot_index);
}
