/*
 * cpu_tables.c - finds the machine's CPUs in the firmware's tables, which
 * may be wrong in any way, and fills a struct cpu_tables that is not.
 *
 * Two tables say which CPUs a PC has; QEMU's SeaBIOS writes both:
 *   - ACPI (spec 6.x, 5.2): the RSDP, "RSD PTR " on a 16-byte boundary in
 *     the EBDA's first KiB or in 0xe0000-0xfffff, checksummed over its
 *     first 20 bytes, points to the RSDT, a header (36 bytes: signature,
 *     length, checksum over length) and 32-bit table addresses; one of
 *     them is the MADT, "APIC": the local APIC address and flags, then
 *     entries of (type, length): type 0 a processor (ACPI id, APIC id,
 *     flags bit 0 enabled), type 1 an I/O APIC, type 5 a 64-bit local
 *     APIC address;
 *   - Intel MP 1.4 (chapter 4): the floating pointer, "_MP_" on a 16-byte
 *     boundary in the EBDA's first KiB, the last KiB of base memory or
 *     0xf0000-0xfffff, 16 bytes checksummed, points to the "PCMP"
 *     configuration table: a 44-byte header (base length, checksum over
 *     it, entry count, local APIC address) and entries whose size their
 *     type gives: a processor (20: APIC id, flags bit 0 enabled, bit 1
 *     the boot processor), a bus, an I/O APIC, two kinds of interrupt (8).
 * The MADT is preferred (it is what later firmware keeps up to date), the
 * MP table is the fallback.  Every length, offset and count is bounded by
 * what its table claims and by what can be read; a table that lies is
 * refused with a note, whole, rather than half believed: a CPU listed
 * wrongly would later be sent a start-up IPI.  Reads go through the
 * struct fw_memory only, so this file needs no kernel at all.
 */
#include <asm/cpu_tables.h>
#include <string.h>

#define ONE_KIB			1024u
#define BDA_EBDA_SEGMENT	0x40eu	/* BIOS data area: the EBDA's segment */
#define BDA_BASE_KIB		0x413u	/* BIOS data area: base memory in KiB */
#define EBDA_LOWEST		0x80000u	/* an EBDA below this is not one */
#define BASE_MEMORY_END		0xa0000u
#define ACPI_AREA		0xe0000u	/* the RSDP's area outside the EBDA */
#define MP_AREA			0xf0000u	/* the MP pointer's */
#define BIOS_END		0x100000u

#define TABLE_MAX		0x10000u	/* a longer CPU table is a lie */
#define RSDT_LOOKED_AT		32u		/* tables of the RSDT searched */
#define APIC_ID_BROADCAST	0xffu

/* ACPI offsets. */
#define RSDP_SIZE_V1		20u
#define RSDP_RSDT		16u
#define SDT_HEADER		36u
#define SDT_LENGTH		4u
#define MADT_LAPIC		36u
#define MADT_FLAGS		40u
#define MADT_ENTRIES		44u
#define MADT_PROCESSOR		0
#define MADT_PROCESSOR_LEN	8u
#define MADT_IOAPIC		1
#define MADT_IOAPIC_LEN		12u
#define MADT_LAPIC_OVERRIDE	5
#define MADT_LAPIC_OVERRIDE_LEN	12u

/* MP offsets. */
#define MPF_SIZE		16u
#define MPF_CONFIG		4u
#define MPF_LENGTH		8u
#define MPF_FEATURE1		11u
#define MPC_HEADER		44u
#define MPC_LENGTH		4u
#define MPC_COUNT		34u
#define MPC_LAPIC		36u
#define MPC_PROCESSOR		0
#define MPC_PROCESSOR_LEN	20u
#define MPC_SMALL_LEN		8u	/* bus, I/O APIC, the interrupts */
#define MPC_LAST_TYPE		4
#define MPC_CPU_ENABLED		0x1
#define MPC_CPU_BOOT		0x2

#define MADT_CPU_ENABLED	0x1

/* One search: where to read, what to fill, where to say what was wrong. */
struct parse {
	const struct fw_memory *mem;
	struct cpu_tables *t;
	struct cpu_tables_notes *notes;
};

/* ---- notes ---- */

static const char *const note_formats[CT_NOTE_KINDS] = {
	[CT_NOTE_NO_EBDA] = "%s: EBDA segment %04llx is not in base memory, not searched",
	[CT_NOTE_NO_RSDP] = "%s: no RSDP",
	[CT_NOTE_NO_MP] = "%s: no MP floating pointer",
	[CT_NOTE_UNREADABLE] = "%s at %08llx (%llu bytes) is not readable, refused",
	[CT_NOTE_BAD_CHECKSUM] = "%s at %08llx has a bad checksum, refused",
	[CT_NOTE_BAD_LENGTH] = "%s at %08llx claims a length of %llu bytes, refused",
	[CT_NOTE_BAD_SIGNATURE] = "%s at %08llx has not its signature, refused",
	[CT_NOTE_NO_MADT] = "%s: no sound MADT among its %llu tables",
	[CT_NOTE_RSDT_CUT] = "%s: %llu tables, only the first %llu searched",
	[CT_NOTE_ENTRY_BAD_LENGTH] = "%s: entry at offset %llu has length %llu (type %llu), refused",
	[CT_NOTE_ENTRY_PAST_END] = "%s: entry at offset %llu runs past its end (%llu bytes), refused",
	[CT_NOTE_MP_DEFAULT_CONFIG] = "%s: default configuration %llu (no table): not supported, refused",
	[CT_NOTE_MP_BAD_LENGTH] = "%s: floating pointer of %llu paragraphs, refused",
	[CT_NOTE_MP_UNKNOWN_ENTRY] = "%s: entry at offset %llu of unknown type %llu, the rest ignored",
	[CT_NOTE_MP_COUNT_SHORT] = "%s: %llu entries fit of the %llu it counts, the rest ignored",
	[CT_NOTE_TOO_MANY_CPUS] = "%s: %llu processors listed, only the first %llu kept",
	[CT_NOTE_BAD_APIC_ID] = "%s: processor %llu has APIC id %llu, ignored",
	[CT_NOTE_DUPLICATE_APIC_ID] = "%s: processor %llu repeats APIC id %llu, ignored",
	[CT_NOTE_BAD_LAPIC_ADDR] = "%s: local APIC address %08llx is not a page's, refused",
	[CT_NOTE_NO_CPU] = "%s: no enabled processor listed, refused",
	[CT_NOTE_BOOT_NOT_LISTED] = "%s: the boot CPU (APIC id %llu) is not listed: the table is not this machine's",
	[CT_NOTE_BOOT_DISABLED] = "%s: the boot CPU (APIC id %llu) is listed disabled: the table is not this machine's",
	[CT_NOTE_MP_BSP_DIFFERS] = "%s: flags APIC id %llu as the boot CPU, but it is %llu",
};

const char *cpu_tables_note_format(enum cpu_tables_note_kind kind)
{
	return kind < CT_NOTE_KINDS ? note_formats[kind] : "%s: (unknown note)";
}

const char *cpu_tables_source_name(enum cpu_tables_source source)
{
	switch (source) {
	case CPU_TABLES_MADT:
		return "ACPI MADT";
	case CPU_TABLES_MP:
		return "MP table";
	default:
		return "none";
	}
}

/* Record a note; past CT_MAX_NOTES, only count it. */
static void note_to(struct cpu_tables_notes *notes, enum cpu_tables_note_kind kind,
		    const char *subject, u64 a, u64 b, u64 c)
{
	struct cpu_tables_note *n;
	size_t len = strlen(subject);

	if (notes->nr == CT_MAX_NOTES) {
		notes->dropped++;
		return;
	}
	n = &notes->note[notes->nr++];
	n->kind = kind;
	if (len >= sizeof(n->subject))
		len = sizeof(n->subject) - 1;
	memcpy(n->subject, subject, len);
	n->subject[len] = '\0';
	n->a = a;
	n->b = b;
	n->c = c;
}

static void note(struct parse *p, enum cpu_tables_note_kind kind, const char *subject,
		 u64 a, u64 b, u64 c)
{
	note_to(p->notes, kind, subject, a, b, c);
}

/* ---- reading the firmware's memory ---- */

static bool read_mem(struct parse *p, u64 addr, void *dst, u32 n)
{
	return p->mem->read(p->mem, addr, dst, n);
}

/* Little-endian fields of a buffer already read. */
static u16 get16(const u8 *b)
{
	return (u16)(b[0] | b[1] << 8);
}

static u32 get32(const u8 *b)
{
	return b[0] | b[1] << 8 | b[2] << 16 | (u32)b[3] << 24;
}

/* Whether the n bytes at addr can be read and sum to 0 (mod 256); read
 * in chunks, so that a table's length needs no buffer of its size. */
static bool sum_is_zero(struct parse *p, u64 addr, u32 n, bool *readable)
{
	u8 chunk[64], sum = 0;
	u32 done, i, k;

	*readable = true;
	for (done = 0; done < n; done += k) {
		k = n - done < sizeof(chunk) ? n - done : sizeof(chunk);
		if (!read_mem(p, addr + done, chunk, k)) {
			*readable = false;
			return false;
		}
		for (i = 0; i < k; i++)
			sum += chunk[i];
	}
	return sum == 0;
}

/* The table at addr is readable for n bytes and its checksum holds;
 * else a note on what, and false. */
static bool checksum_holds(struct parse *p, const char *what, u64 addr, u32 n)
{
	bool readable;

	if (sum_is_zero(p, addr, n, &readable))
		return true;
	if (readable)
		note(p, CT_NOTE_BAD_CHECKSUM, what, addr, 0, 0);
	else
		note(p, CT_NOTE_UNREADABLE, what, addr, n, 0);
	return false;
}

/* Search [start, end) on 16-byte boundaries for the signature sig of
 * size bytes whose checksum holds over size bytes; 0 if none.  check
 * says what else a candidate needs, and notes why one is refused. */
static u32 scan(struct parse *p, u32 start, u32 end, const char *sig, u32 size,
		bool (*check)(struct parse *p, u32 addr))
{
	u8 head[8];
	u32 addr, sig_len = strlen(sig);

	for (addr = start; addr + size <= end; addr += 16) {
		if (!read_mem(p, addr, head, sig_len) || memcmp(head, sig, sig_len))
			continue;
		if (check(p, addr))
			return addr;
	}
	return 0;
}

/* The EBDA's start, from the BIOS data area; 0 if there is none. */
static u32 ebda_start(struct parse *p)
{
	u8 seg[2];
	u32 start;

	if (!read_mem(p, BDA_EBDA_SEGMENT, seg, 2) || !get16(seg))
		return 0;
	start = (u32)get16(seg) << 4;
	if (start < EBDA_LOWEST || start >= BASE_MEMORY_END) {
		note(p, CT_NOTE_NO_EBDA, "bios", get16(seg), 0, 0);
		return 0;
	}
	return start;
}

/* ---- the CPUs found ---- */

/* A processor entry (the index-th of its table): kept unless its APIC
 * id cannot be one or is already taken, or the list is full. */
static void add_cpu(struct parse *p, const char *what, unsigned int index,
		    u8 apic_id, u8 acpi_id, bool enabled)
{
	struct cpu_tables *t = p->t;
	unsigned int i;

	t->nr_entries++;
	if (apic_id == APIC_ID_BROADCAST) {
		note(p, CT_NOTE_BAD_APIC_ID, what, index, apic_id, 0);
		return;
	}
	for (i = 0; i < t->nr_cpus; i++)
		if (t->cpu[i].apic_id == apic_id) {
			note(p, CT_NOTE_DUPLICATE_APIC_ID, what, index, apic_id, 0);
			return;
		}
	if (t->nr_cpus == NR_CPUS)
		return;		/* counted; one note at the end */
	t->cpu[t->nr_cpus].apic_id = apic_id;
	t->cpu[t->nr_cpus].acpi_id = acpi_id;
	t->cpu[t->nr_cpus].enabled = enabled;
	t->nr_cpus++;
	if (enabled)
		t->nr_enabled++;
}

/* After a table's entries: a local APIC address that is a page's, some
 * CPU enabled, and a note of those left out.  false refuses the table. */
static bool cpus_sound(struct parse *p, const char *what)
{
	struct cpu_tables *t = p->t;
	unsigned int kept_or_refused = t->nr_cpus;

	if (!t->lapic_addr || t->lapic_addr & 0xfff) {
		note(p, CT_NOTE_BAD_LAPIC_ADDR, what, t->lapic_addr, 0, 0);
		return false;
	}
	if (!t->nr_enabled) {
		note(p, CT_NOTE_NO_CPU, what, 0, 0, 0);
		return false;
	}
	if (t->nr_entries > NR_CPUS && kept_or_refused == NR_CPUS)
		note(p, CT_NOTE_TOO_MANY_CPUS, what, t->nr_entries, NR_CPUS, 0);
	return true;
}

/* Forget a refused table's CPUs, keeping the notes of why. */
static void clear_tables(struct cpu_tables *t)
{
	memset(t, 0, sizeof(*t));
	t->mp_bsp_apic_id = 0x100;
	t->boot_index = -1;
}

/* ---- ACPI ---- */

static bool rsdp_check(struct parse *p, u32 addr)
{
	return checksum_holds(p, "acpi: RSDP", addr, RSDP_SIZE_V1);
}

/* The RSDP, searched where ACPI says; 0 if none. */
static u32 find_rsdp(struct parse *p, u32 ebda)
{
	u32 addr = 0;

	if (ebda)
		addr = scan(p, ebda, ebda + ONE_KIB, "RSD PTR ", RSDP_SIZE_V1, rsdp_check);
	if (!addr)
		addr = scan(p, ACPI_AREA, BIOS_END, "RSD PTR ", RSDP_SIZE_V1, rsdp_check);
	return addr;
}

/* A system description table at addr with signature sig: its header
 * readable, its length at least a header's and at most TABLE_MAX, all
 * of it readable, its checksum right.  Its length, or 0 with a note. */
static u32 sdt_length(struct parse *p, const char *what, u32 addr, const char *sig)
{
	u8 head[SDT_HEADER];
	u32 len;

	if (!read_mem(p, addr, head, SDT_HEADER)) {
		note(p, CT_NOTE_UNREADABLE, what, addr, SDT_HEADER, 0);
		return 0;
	}
	if (memcmp(head, sig, 4)) {
		note(p, CT_NOTE_BAD_SIGNATURE, what, addr, 0, 0);
		return 0;
	}
	len = get32(head + SDT_LENGTH);
	if (len < SDT_HEADER || len > TABLE_MAX) {
		note(p, CT_NOTE_BAD_LENGTH, what, addr, len, 0);
		return 0;
	}
	return checksum_holds(p, what, addr, len) ? len : 0;
}

/* One MADT entry at off of the table at addr (len bytes): false, with a
 * note, if it lies about its length. */
static bool madt_entry(struct parse *p, u32 addr, u32 len, u32 *off, unsigned int *index)
{
	const char *what = "acpi: MADT";
	u8 e[MADT_IOAPIC_LEN];
	u32 elen;

	if (*off + 2 > len || !read_mem(p, (u64)addr + *off, e, 2)) {
		note(p, CT_NOTE_ENTRY_PAST_END, what, *off, len, 0);
		return false;
	}
	elen = e[1];
	if (elen < 2 ||
	    (e[0] == MADT_PROCESSOR && elen < MADT_PROCESSOR_LEN) ||
	    (e[0] == MADT_IOAPIC && elen < MADT_IOAPIC_LEN) ||
	    (e[0] == MADT_LAPIC_OVERRIDE && elen < MADT_LAPIC_OVERRIDE_LEN)) {
		note(p, CT_NOTE_ENTRY_BAD_LENGTH, what, *off, elen, e[0]);
		return false;
	}
	if (*off + elen > len) {
		note(p, CT_NOTE_ENTRY_PAST_END, what, *off, len, 0);
		return false;
	}
	/* Only the first 12 bytes of any entry are used. */
	if (!read_mem(p, (u64)addr + *off, e, elen < sizeof(e) ? elen : sizeof(e))) {
		note(p, CT_NOTE_UNREADABLE, what, (u64)addr + *off, elen, 0);
		return false;
	}
	if (e[0] == MADT_PROCESSOR)
		add_cpu(p, what, (*index)++, e[3], e[2], get32(e + 4) & MADT_CPU_ENABLED);
	else if (e[0] == MADT_IOAPIC && !p->t->nr_ioapics++)
		p->t->ioapic_addr = get32(e + 4);
	else if (e[0] == MADT_LAPIC_OVERRIDE && !get32(e + 8))	/* below 4 GiB */
		p->t->lapic_addr = get32(e + 4);
	*off += elen;
	return true;
}

/* The MADT at addr: its CPUs into p->t, or false (p->t cleared). */
static bool parse_madt(struct parse *p, u32 addr)
{
	u8 head[MADT_ENTRIES];
	u32 len = sdt_length(p, "acpi: MADT", addr, "APIC"), off;
	unsigned int index = 0;

	if (!len)
		return false;
	if (len < MADT_ENTRIES || !read_mem(p, addr, head, MADT_ENTRIES)) {
		note(p, CT_NOTE_BAD_LENGTH, "acpi: MADT", addr, len, 0);
		return false;
	}
	p->t->lapic_addr = get32(head + MADT_LAPIC);
	p->t->madt_flags = get32(head + MADT_FLAGS);
	/* Each entry is at least 2 bytes, so this ends within len / 2. */
	for (off = MADT_ENTRIES; off < len;)
		if (!madt_entry(p, addr, len, &off, &index)) {
			clear_tables(p->t);
			return false;
		}
	if (!cpus_sound(p, "acpi: MADT")) {
		clear_tables(p->t);
		return false;
	}
	p->t->source = CPU_TABLES_MADT;
	return true;
}

/* The RSDT's tables, in order, until a sound MADT. */
static bool parse_rsdt(struct parse *p, u32 rsdt)
{
	u32 len = sdt_length(p, "acpi: RSDT", rsdt, "RSDT");
	u32 n, i, looked_at;
	u8 entry[4], sig[4];

	if (!len)
		return false;
	n = (len - SDT_HEADER) / 4;
	looked_at = n < RSDT_LOOKED_AT ? n : RSDT_LOOKED_AT;
	if (n > looked_at)
		note(p, CT_NOTE_RSDT_CUT, "acpi: RSDT", n, looked_at, 0);
	for (i = 0; i < looked_at; i++) {
		/* Read, and checksummed, with the RSDT above. */
		if (!read_mem(p, (u64)rsdt + SDT_HEADER + 4 * i, entry, 4))
			return false;
		if (!read_mem(p, get32(entry), sig, 4) || memcmp(sig, "APIC", 4))
			continue;
		if (parse_madt(p, get32(entry)))
			return true;
	}
	note(p, CT_NOTE_NO_MADT, "acpi: RSDT", looked_at, 0, 0);
	return false;
}

/* ACPI's CPUs: RSDP -> RSDT -> MADT.  false if any step fails. */
static bool find_madt(struct parse *p, u32 ebda)
{
	u32 rsdp = find_rsdp(p, ebda);
	u8 field[4];

	if (!rsdp) {
		note(p, CT_NOTE_NO_RSDP, "acpi", 0, 0, 0);
		return false;
	}
	if (!read_mem(p, rsdp + RSDP_RSDT, field, 4))
		return false;
	return parse_rsdt(p, get32(field));
}

/* ---- Intel MP ---- */

/* A floating pointer is one paragraph long and checksummed over it. */
static bool mpf_check(struct parse *p, u32 addr)
{
	u8 length;

	if (!read_mem(p, addr + MPF_LENGTH, &length, 1))
		return false;
	if (length != 1) {
		note(p, CT_NOTE_MP_BAD_LENGTH, "mp: pointer", length, 0, 0);
		return false;
	}
	return checksum_holds(p, "mp: pointer", addr, MPF_SIZE);
}

/* The floating pointer, in the three places MP 1.4 names; 0 if none. */
static u32 find_mpf(struct parse *p, u32 ebda)
{
	u32 addr = 0, base_end;
	u8 kib[2];

	if (ebda)
		addr = scan(p, ebda, ebda + ONE_KIB, "_MP_", MPF_SIZE, mpf_check);
	if (!addr && read_mem(p, BDA_BASE_KIB, kib, 2)) {
		base_end = (u32)get16(kib) * ONE_KIB;
		if (base_end > EBDA_LOWEST && base_end <= BASE_MEMORY_END && base_end != ebda + ONE_KIB)
			addr = scan(p, base_end - ONE_KIB, base_end, "_MP_", MPF_SIZE, mpf_check);
	}
	if (!addr)
		addr = scan(p, MP_AREA, BIOS_END, "_MP_", MPF_SIZE, mpf_check);
	return addr;
}

/* The size of an entry of type type, 0 for one MP 1.4 does not know. */
static u32 mpc_entry_size(u8 type)
{
	if (type == MPC_PROCESSOR)
		return MPC_PROCESSOR_LEN;
	return type <= MPC_LAST_TYPE ? MPC_SMALL_LEN : 0;
}

/* The configuration table's entries, count of them in [44, len). */
static bool mpc_entries(struct parse *p, u32 addr, u32 len, u32 count)
{
	const char *what = "mp: config table";
	u8 e[MPC_PROCESSOR_LEN];
	u32 off = MPC_HEADER, i, size;

	for (i = 0; i < count && off < len; i++, off += size) {
		if (!read_mem(p, (u64)addr + off, e, 1))
			return false;
		size = mpc_entry_size(e[0]);
		if (!size) {
			note(p, CT_NOTE_MP_UNKNOWN_ENTRY, what, off, e[0], 0);
			return true;
		}
		if (off + size > len) {
			note(p, CT_NOTE_ENTRY_PAST_END, what, off, len, 0);
			return false;
		}
		if (!read_mem(p, (u64)addr + off, e, size))
			return false;
		if (e[0] == MPC_PROCESSOR) {
			if (e[3] & MPC_CPU_BOOT)
				p->t->mp_bsp_apic_id = e[1];
			add_cpu(p, what, p->t->nr_entries, e[1], p->t->nr_entries,
				e[3] & MPC_CPU_ENABLED);
		} else if (e[0] == 2 && !p->t->nr_ioapics++) {	/* an I/O APIC */
			p->t->ioapic_addr = get32(e + 4);
		}
	}
	if (i < count)
		note(p, CT_NOTE_MP_COUNT_SHORT, what, i, count, 0);
	return true;
}

/* The configuration table at addr: its CPUs into p->t, or false. */
static bool parse_mpc(struct parse *p, u32 addr)
{
	const char *what = "mp: config table";
	u8 head[MPC_HEADER];
	u32 len;

	if (!read_mem(p, addr, head, MPC_HEADER)) {
		note(p, CT_NOTE_UNREADABLE, what, addr, MPC_HEADER, 0);
		return false;
	}
	if (memcmp(head, "PCMP", 4)) {
		note(p, CT_NOTE_BAD_SIGNATURE, what, addr, 0, 0);
		return false;
	}
	len = get16(head + MPC_LENGTH);
	if (len < MPC_HEADER) {
		note(p, CT_NOTE_BAD_LENGTH, what, addr, len, 0);
		return false;
	}
	if (!checksum_holds(p, what, addr, len))
		return false;
	p->t->lapic_addr = get32(head + MPC_LAPIC);
	if (!mpc_entries(p, addr, len, get16(head + MPC_COUNT)) || !cpus_sound(p, what)) {
		clear_tables(p->t);
		return false;
	}
	p->t->source = CPU_TABLES_MP;
	return true;
}

/* The MP table's CPUs: pointer -> configuration table. */
static bool find_mp(struct parse *p, u32 ebda)
{
	u32 mpf = find_mpf(p, ebda);
	u8 head[MPF_SIZE];

	if (!mpf) {
		note(p, CT_NOTE_NO_MP, "mp", 0, 0, 0);
		return false;
	}
	if (!read_mem(p, mpf, head, MPF_SIZE))
		return false;
	if (head[MPF_FEATURE1]) {
		note(p, CT_NOTE_MP_DEFAULT_CONFIG, "mp", head[MPF_FEATURE1], 0, 0);
		return false;
	}
	return parse_mpc(p, get32(head + MPF_CONFIG));
}

/* ---- the whole search ---- */

void cpu_tables_find(const struct fw_memory *mem, struct cpu_tables *out,
		     struct cpu_tables_notes *notes)
{
	struct parse p = { mem, out, notes };
	u32 ebda;

	clear_tables(out);
	memset(notes, 0, sizeof(*notes));
	ebda = ebda_start(&p);
	if (find_madt(&p, ebda))
		return;
	if (find_mp(&p, ebda))
		return;
	clear_tables(out);
}

bool cpu_tables_mark_boot(struct cpu_tables *t, u8 apic_id,
			  struct cpu_tables_notes *notes)
{
	const char *what = t->source == CPU_TABLES_MP ? "mp" : "acpi";
	unsigned int i;

	for (i = 0; i < t->nr_cpus; i++) {
		if (t->cpu[i].apic_id != apic_id)
			continue;
		if (!t->cpu[i].enabled) {
			note_to(notes, CT_NOTE_BOOT_DISABLED, what, apic_id, 0, 0);
			return false;
		}
		if (t->source == CPU_TABLES_MP && t->mp_bsp_apic_id != apic_id)
			note_to(notes, CT_NOTE_MP_BSP_DIFFERS, what, t->mp_bsp_apic_id,
				apic_id, 0);
		t->cpu[i].boot = true;
		t->boot_index = i;
		return true;
	}
	note_to(notes, CT_NOTE_BOOT_NOT_LISTED, what, apic_id, 0, 0);
	return false;
}
