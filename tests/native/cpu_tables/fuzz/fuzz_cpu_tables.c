/*
 * fuzz_cpu_tables.c - a libFuzzer target for the CPU-table parser
 * (arch/x86/kernel/firmware/cpu_tables.c).
 *
 * The input is the firmware's memory, compactly: its first two
 * little-endian words are what the BIOS data area holds at 0x40e (the
 * EBDA's segment) and 0x413 (base memory in KiB); the bytes after them
 * lie at physical 0xf0000, where both searches look and where tables
 * may point, and again at 0x9fc00, where QEMU's EBDA is.  Every other
 * address fails to read, as memory that is not there.  The input is
 * copied into a buffer of exactly its size, so a read the parser makes
 * past what it checked is an ASan report, and a copy longer than the
 * parser's own buffer is one too.
 *
 * Each input is searched twice: as it is, and with every checksum in it
 * made right (repair_checksums), since random bytes almost never pass a
 * checksum and the checks behind one would otherwise go unfuzzed.
 * After each search the result must obey what the kernel relies on
 * (check_tables); any breach aborts, which libFuzzer reports as a crash.
 * Seeds: corpus/, made by make_seeds.py.  `make fuzz-cpu-tables` runs it
 * for FUZZ_TIME seconds; tests/run's native-cpu-tables-fuzz briefly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <asm/cpu_tables.h>

#define BIOS_AREA	0xf0000u
#define EBDA_ALIAS	0x9fc00u

struct fuzz_memory {
	struct fw_memory mem;	/* first: the parser hands this back */
	const unsigned char *bytes;	/* the input, bytes[0..4) the BDA words */
	size_t size;
};

/* [addr, addr + n) inside the view of the input that starts at base. */
static bool in_view(const struct fuzz_memory *m, u64 base, u64 addr, u32 n)
{
	size_t body = m->size - 4;

	return addr >= base && addr - base <= body && n <= body - (addr - base);
}

static bool read_input(const struct fw_memory *mem, u64 addr, void *dst, u32 n)
{
	const struct fuzz_memory *m = (const struct fuzz_memory *)mem;

	if ((addr == 0x40e || addr == 0x413) && n == 2) {
		memcpy(dst, m->bytes + (addr == 0x40e ? 0 : 2), 2);
		return true;
	}
	if (in_view(m, BIOS_AREA, addr, n)) {
		memcpy(dst, m->bytes + 4 + (addr - BIOS_AREA), n);
		return true;
	}
	if (in_view(m, EBDA_ALIAS, addr, n)) {
		memcpy(dst, m->bytes + 4 + (addr - EBDA_ALIAS), n);
		return true;
	}
	return false;
}

static void fail(const char *why)
{
	fprintf(stderr, "fuzz_cpu_tables: %s\n", why);
	abort();
}

/* What the kernel relies on: a table used has a page-aligned local
 * APIC, an enabled CPU, distinct APIC ids none of them 0xff, counts
 * that add up; no table used leaves nothing behind. */
static void check_tables(const struct cpu_tables *t)
{
	unsigned int i, j, enabled = 0;

	if (t->nr_cpus > NR_CPUS || t->nr_cpus > t->nr_entries)
		fail("more CPUs kept than fit or than listed");
	if (t->source == CPU_TABLES_NONE) {
		if (t->nr_cpus || t->nr_entries || t->lapic_addr || t->boot_index != -1)
			fail("no table, yet something kept");
		return;
	}
	if (t->source != CPU_TABLES_MADT && t->source != CPU_TABLES_MP)
		fail("a source of no kind");
	if (!t->lapic_addr || (t->lapic_addr & 0xfff))
		fail("a local APIC address that is not a page's");
	for (i = 0; i < t->nr_cpus; i++) {
		if (t->cpu[i].apic_id == 0xff)
			fail("the broadcast APIC id kept");
		if (t->cpu[i].boot)
			fail("a boot CPU before mark_boot");
		for (j = 0; j < i; j++)
			if (t->cpu[j].apic_id == t->cpu[i].apic_id)
				fail("an APIC id kept twice");
		enabled += t->cpu[i].enabled;
	}
	if (enabled != t->nr_enabled || !enabled)
		fail("nr_enabled is not the enabled CPUs kept, or none is");
}

static void check_notes(const struct cpu_tables_notes *notes)
{
	char line[512];
	unsigned int i;

	if (notes->nr > CT_MAX_NOTES)
		fail("more notes than the table holds");
	for (i = 0; i < notes->nr; i++) {
		const struct cpu_tables_note *n = &notes->note[i];

		if (n->kind >= CT_NOTE_KINDS || !memchr(n->subject, '\0', sizeof(n->subject)))
			fail("a note of no kind, or a subject without its NUL");
		snprintf(line, sizeof(line), cpu_tables_note_format(n->kind), n->subject,
			 (unsigned long long)n->a, (unsigned long long)n->b,
			 (unsigned long long)n->c);
	}
}

/* Marking the first CPU as the boot one: it is found iff enabled. */
static void check_mark_boot(struct cpu_tables *t, struct cpu_tables_notes *notes)
{
	bool found;

	if (!t->nr_cpus)
		return;
	found = cpu_tables_mark_boot(t, t->cpu[0].apic_id, notes);
	if (found != t->cpu[0].enabled || (found && (t->boot_index != 0 || !t->cpu[0].boot)))
		fail("mark_boot disagrees with the list");
	check_notes(notes);
}

/* Set the byte at sum_at so that the len bytes at table sum to 0, if
 * they lie in the input's body (from offset 4: physical 0xf0000). */
static void fix_sum(unsigned char *body, size_t size, size_t table, u32 len, u32 sum_at)
{
	unsigned char sum = 0;
	u32 i;

	if (len <= sum_at || table > size || len > size - table)
		return;
	body[table + sum_at] = 0;
	for (i = 0; i < len; i++)
		sum += body[table + i];
	body[table + sum_at] = -sum;
}

static u32 le(const unsigned char *b, unsigned int bytes)
{
	u32 v = 0;

	while (bytes--)
		v = v << 8 | b[bytes];
	return v;
}

/* Make right the checksum of every table whose signature is in the
 * input, over the length it claims: RSDP (20 bytes), RSDT and MADT
 * (their length field), the MP pointer (16) and configuration table. */
static void repair_checksums(unsigned char *body, size_t size)
{
	size_t at;

	for (at = 0; at + 8 <= size; at++) {
		const unsigned char *b = body + at;

		if (!memcmp(b, "APIC", 4) || !memcmp(b, "RSDT", 4))
			fix_sum(body, size, at, le(b + 4, 4), 9);
		else if (!memcmp(b, "PCMP", 4))
			fix_sum(body, size, at, le(b + 4, 2), 7);
	}
	for (at = 0; at + 16 <= size; at += 16) {
		if (!memcmp(body + at, "RSD PTR ", 8))
			fix_sum(body, size, at, 20, 8);
		else if (!memcmp(body + at, "_MP_", 4))
			fix_sum(body, size, at, 16, 10);
	}
}

/* One search of the memory mem: its result checked, the same twice. */
static void search_and_check(struct fuzz_memory *mem)
{
	static struct cpu_tables t, again;
	static struct cpu_tables_notes notes, notes_again;

	cpu_tables_find(&mem->mem, &t, &notes);
	check_tables(&t);
	check_notes(&notes);
	/* The parser keeps no state: the same input, the same result. */
	cpu_tables_find(&mem->mem, &again, &notes_again);
	if (memcmp(&t, &again, sizeof(t)) || memcmp(&notes, &notes_again, sizeof(notes)))
		fail("a second search of the same input differs");
	check_mark_boot(&t, &notes);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct fuzz_memory mem = { { read_input }, NULL, size };
	unsigned char *copy;

	if (size < 4)
		return 0;
	copy = malloc(size);
	memcpy(copy, data, size);
	mem.bytes = copy;
	search_and_check(&mem);
	repair_checksums(copy + 4, size - 4);
	search_and_check(&mem);
	free(copy);
	return 0;
}
