/*
 * check.h - what the native tests of the CPU-table parser share: the
 * checks, the tests main() runs, and a fake machine memory to lay
 * tables out in.
 *
 * The *.c here are linked with arch/x86/kernel/firmware/cpu_tables.c into one
 * native program with ASan and UBSan (make native-tests:
 * build/native/test_cpu_tables).  The parser reads memory only through
 * struct fw_memory, so two buffers stand in for the machine: its first
 * MiB and the 128 KiB below 128 MiB where QEMU -m 128 keeps its ACPI
 * tables; a read anywhere else fails, as a read of memory that is not
 * there.  The tables are laid out from the ACPI and MP specifications'
 * offsets, not from the parser's, so a wrong offset in the parser shows
 * as a failure.
 */
#ifndef NATIVE_CPU_TABLES_CHECK_H
#define NATIVE_CPU_TABLES_CHECK_H

#include <stdio.h>
#include <string.h>
#include <asm/cpu_tables.h>
#include "../runner/runner.h"

#define CHECK_U64(got, want)						\
	CHECK((u64)(got) == (u64)(want), "%s: got %#llx, want %#llx",	\
	      #got, (unsigned long long)(got), (unsigned long long)(want))

/* ---- the tests, in the order main() runs them ---- */

void test_qemu_madt(void);		/* test_qemu.c: the captured tables */
void test_qemu_mp_fallback(void);
void test_qemu_madt_spoiled(void);
void test_no_tables(void);		/* test_acpi.c */
void test_rsdp_in_ebda(void);
void test_bad_ebda_segment(void);
void test_acpi_bad_checksums(void);
void test_acpi_lengths_lie(void);
void test_madt_entry_lengths_lie(void);
void test_rsdt_points_nowhere(void);
void test_too_many_cpus(void);
void test_disabled_cpus(void);
void test_bad_apic_ids(void);
void test_bad_lapic_address(void);
void test_lapic_override(void);
void test_lapic_override_too_short(void);
void test_mp_good(void);		/* test_mp.c */
void test_mp_bad_checksums(void);
void test_mp_lengths_lie(void);
void test_mp_default_config(void);
void test_mp_unknown_entry(void);
void test_mark_boot(void);
void test_notes_overflow(void);
void test_note_formats(void);

/* ---- the fake memory (fake_memory.c) ---- */

#define LOW_SIZE	0x100000u	/* physical [0, 1 MiB) */
#define HIGH_BASE	0x7fe0000u	/* physical [HIGH_BASE, HIGH_END) */
#define HIGH_END	0x8000000u

extern const struct fw_memory fake_memory;
extern struct cpu_tables tables;
extern struct cpu_tables_notes notes;

void fake_reset(void);
/* The byte at physical addr, which must lie in the fake memory. */
u8 *at(u32 addr);
void put8(u32 addr, u8 v);
void put16(u32 addr, u16 v);
void put32(u32 addr, u32 v);
void put_bytes(u32 addr, const void *bytes, u32 n);
/* Make the n bytes at addr sum to 0 by the byte at addr + at_offset. */
void fix_checksum(u32 addr, u32 n, u32 at_offset);

/* The EBDA where QEMU has it, and base memory of 639 KiB. */
#define EBDA		0x9fc00u
void put_bda(void);

/* ACPI, by the specification's offsets.  put_rsdp writes a v1 RSDP at
 * addr naming the RSDT; put_rsdt an RSDT naming n tables; put_madt a
 * MADT with the given entries (bytes as they are in a MADT), checksums
 * right.  Each returns the table's length. */
u32 put_rsdp(u32 addr, u32 rsdt);
u32 put_rsdt(u32 addr, const u32 *tables, u32 n);
u32 put_madt(u32 addr, u32 lapic, const u8 *entries, u32 entries_len);
/* A type-0 entry (8 bytes) into e: processor acpi_id, APIC id, flags. */
void madt_cpu(u8 *e, u8 acpi_id, u8 apic_id, u32 flags);

/* Where the hand-built ACPI tables go, like QEMU's. */
#define RSDP_AT		0xf59d0u
#define RSDT_AT		0x7fe1000u
#define MADT_AT		0x7fe1100u
/* The whole chain RSDP -> RSDT -> MADT with n CPUs of APIC ids 0..n-1,
 * enabled, local APIC at 0xfee00000, and one I/O APIC. */
void put_acpi_cpus(unsigned int n);

/* MP 1.4, by the specification's offsets: a floating pointer at addr
 * naming the configuration table at config; a table of the entries
 * given (count of them), checksum right.  Returns the table's length. */
void put_mpf(u32 addr, u32 config, u8 feature1);
u32 put_mpc(u32 addr, u32 lapic, const u8 *entries, u32 entries_len, u16 count);
/* A processor entry (20 bytes) into e. */
void mpc_cpu(u8 *e, u8 apic_id, u8 flags);
#define MPF_AT		0xf5ba0u
#define MPC_AT		0xf5bb0u
/* The chain with n CPUs of APIC ids 0..n-1, the first the BSP. */
void put_mp_cpus(unsigned int n);

/* The captured tables of QEMU -smp 4 (qemu_tables.c). */
struct fixture_piece {
	u32 addr;
	const u8 *bytes;
	u32 len;
};
extern const struct fixture_piece qemu_tables[];
extern const unsigned int qemu_tables_pieces;
void put_qemu_tables(void);

/* Run the search. */
void find(void);

/* ---- results ---- */

const char *note_text(unsigned int i);
void check_notes_at(const char *file, int line, const char *const *want, unsigned int n);
#define CHECK_NOTES(...)						\
	do {								\
		const char *const want_[] = { __VA_ARGS__ };		\
		check_notes_at(__FILE__, __LINE__, want_,		\
			       sizeof(want_) / sizeof(want_[0]));	\
	} while (0)
#define CHECK_NO_NOTES()	check_notes_at(__FILE__, __LINE__, NULL, 0)

/* The CPUs kept are these APIC ids, in order, and enabled as flagged. */
void check_cpus_at(const char *file, int line, enum cpu_tables_source source,
		   unsigned int n, const u8 *apic_ids, const bool *enabled);
#define CHECK_CPUS(source, n, ids, enabled)				\
	check_cpus_at(__FILE__, __LINE__, source, n, ids, enabled)
/* No table used: nothing kept. */
#define CHECK_NO_TABLES()	check_cpus_at(__FILE__, __LINE__, CPU_TABLES_NONE, 0, NULL, NULL)

#endif
