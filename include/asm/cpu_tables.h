/*
 * asm/cpu_tables.h - the firmware's tables of the machine's CPUs (the
 * ACPI MADT and the Intel MultiProcessor table), read by a parser kept
 * apart from the kernel (arch/x86/kernel/firmware/cpu_tables.c).
 *
 * The firmware's tables are data that may be wrong in any way: the
 * parser reads memory only through struct fw_memory, which can say no,
 * checks every signature, checksum, length, offset and count before it
 * uses what they cover, and fills a struct cpu_tables that is right or
 * empty.  A table that lies (a bad checksum, a length too short for its
 * header or past what can be read, an entry that runs past its table or
 * has a length of 0) is refused with a note saying why; the MADT is
 * preferred and the MP table is the fallback.  What it ignored or cut
 * becomes a note too, which the kernel prints (arch/x86/kernel/smp/discover.c)
 * and the native tests compare with known lines (tests/native/cpu_tables/).
 * It calls no kernel function and touches no kernel global, so the same
 * file builds into the kernel, the native tests and the fuzzer.
 */
#ifndef ASM_CPU_TABLES_H
#define ASM_CPU_TABLES_H

#include <types.h>
#include <asm/cpumask.h>	/* NR_CPUS: the most CPUs kept (QEMU -smp 1..8) */

/* Physical memory as the firmware left it.  In the kernel, read before
 * paging is on, so an address is the address of the byte; in the tests,
 * a buffer standing for the machine's memory. */
struct fw_memory {
	/* Copy n bytes at physical address addr to dst; false, with dst
	 * unspecified, if any of them cannot be read. */
	bool (*read)(const struct fw_memory *mem, u64 addr, void *dst, u32 n);
};

enum cpu_tables_source {
	CPU_TABLES_NONE,	/* no table found, or every one refused */
	CPU_TABLES_MADT,	/* ACPI: RSDP -> RSDT -> "APIC" */
	CPU_TABLES_MP,		/* Intel MP 1.4: "_MP_" -> "PCMP" */
};

/* One processor entry of the table, in the table's order. */
struct fw_cpu {
	u8 apic_id;		/* its local APIC's id: how an IPI names it */
	u8 acpi_id;		/* the MADT's processor id (MP: the entry's index) */
	bool enabled;		/* usable: the firmware says it works */
	bool boot;		/* the CPU running this code (cpu_tables_mark_boot) */
};

struct cpu_tables {
	enum cpu_tables_source source;
	u32 lapic_addr;			/* the local APICs' physical address */
	u32 madt_flags;			/* MADT: bit 0, the 8259s are there too */
	u32 mp_bsp_apic_id;		/* MP: the entry flagged BP; 0x100 if none */
	unsigned int nr_cpus;		/* entries kept in cpu[] */
	unsigned int nr_entries;	/* processor entries in the table, kept or not */
	unsigned int nr_enabled;	/* enabled ones among those kept */
	unsigned int nr_ioapics;	/* I/O APIC entries (not used yet) */
	u32 ioapic_addr;		/* the first one's address, 0 if none */
	int boot_index;			/* the boot CPU's cpu[] index, -1: unknown */
	struct fw_cpu cpu[NR_CPUS];
};

/* One thing the parser refused, ignored or cut, as one boot-log line. */
enum cpu_tables_note_kind {
	CT_NOTE_NO_EBDA,		/* a: the segment at 0x40e */
	CT_NOTE_NO_RSDP,
	CT_NOTE_NO_MP,
	CT_NOTE_UNREADABLE,		/* a, b: address, bytes */
	CT_NOTE_BAD_CHECKSUM,		/* a: address */
	CT_NOTE_BAD_LENGTH,		/* a: address, b: length */
	CT_NOTE_BAD_SIGNATURE,		/* a: address */
	CT_NOTE_NO_MADT,		/* a: RSDT entries looked at */
	CT_NOTE_RSDT_CUT,		/* a: entries, b: looked at */
	CT_NOTE_ENTRY_BAD_LENGTH,	/* a: offset, b: length, c: type */
	CT_NOTE_ENTRY_PAST_END,		/* a: offset, b: table length */
	CT_NOTE_MP_DEFAULT_CONFIG,	/* a: its type */
	CT_NOTE_MP_BAD_LENGTH,		/* a: length in 16-byte units */
	CT_NOTE_MP_UNKNOWN_ENTRY,	/* a: offset, b: type */
	CT_NOTE_MP_COUNT_SHORT,		/* a: entries read, b: count given */
	CT_NOTE_TOO_MANY_CPUS,		/* a: entries, b: kept */
	CT_NOTE_BAD_APIC_ID,		/* a: entry, b: APIC id */
	CT_NOTE_DUPLICATE_APIC_ID,	/* a: entry, b: APIC id */
	CT_NOTE_BAD_LAPIC_ADDR,		/* a: address */
	CT_NOTE_NO_CPU,
	CT_NOTE_BOOT_NOT_LISTED,	/* a: the boot CPU's APIC id */
	CT_NOTE_BOOT_DISABLED,		/* a: the boot CPU's APIC id */
	CT_NOTE_MP_BSP_DIFFERS,		/* a: flagged BP, b: the boot CPU */
	CT_NOTE_KINDS
};

#define CT_NOTE_SUBJECT	24

struct cpu_tables_note {
	enum cpu_tables_note_kind kind;
	char subject[CT_NOTE_SUBJECT];	/* "acpi: RSDT", "mp: config table" */
	u64 a, b, c;
};

#define CT_MAX_NOTES	12

struct cpu_tables_notes {
	unsigned int nr;
	unsigned int dropped;		/* notes that did not fit */
	struct cpu_tables_note note[CT_MAX_NOTES];
};

/* Find the CPUs in the firmware's tables through mem into *out (cleared
 * first): the MADT if one is there and sound, else the MP table, else
 * none.  What was wrong goes to *notes (cleared first). */
void cpu_tables_find(const struct fw_memory *mem, struct cpu_tables *out,
		     struct cpu_tables_notes *notes);

/* Mark the CPU whose local APIC has id apic_id as the boot CPU.  false,
 * with a note, if the table does not list it as an enabled CPU: then the
 * table does not describe the machine running it, and no other CPU of it
 * may be trusted either. */
bool cpu_tables_mark_boot(struct cpu_tables *t, u8 apic_id,
			  struct cpu_tables_notes *notes);

/* "ACPI MADT", "MP table", "none". */
const char *cpu_tables_source_name(enum cpu_tables_source source);

/* The printf format of a note's line: the subject (%s), then a, b and c
 * as unsigned long long, of which it uses a prefix. */
const char *cpu_tables_note_format(enum cpu_tables_note_kind kind);

#endif
