/*
 * multiboot_parse.c - reads a Multiboot v1 information block that may be
 * wrong in any way, into a struct boot_info that is not.
 *
 * The rules (the Multiboot Specification 0.6.96, section 3.3, "Boot
 * information format": https://www.gnu.org/software/grub/manual/multiboot/):
 *   - each group of fields is valid only if its bit in `flags` is set;
 *   - the info block, strings, module list and memory map lie anywhere
 *     the loader chose; each pointer is checked (not 0, readable, not
 *     inside the kernel image) before it is followed;
 *   - a memory map entry starts with a size that does not count itself:
 *     the next entry is at entry + size + 4.  Entries may be unsorted,
 *     overlap and lie above 4 GiB (kernel/ram_map.c sorts that out);
 *   - a module must end after it starts, lie in RAM below the kernel's
 *     map, and overlap neither the kernel image nor another module.
 * Whatever is ignored, cut or guessed becomes a note (multiboot_parse.h).
 * Reads go through env->mem only, so this file needs no kernel at all.
 */
#include <multiboot.h>
#include <multiboot_parse.h>
#include <ram_map.h>
#include <string.h>

#define LOW_MEMORY_KB		640	/* conventional memory ends at 640 KiB */
#define ONE_MIB			0x100000ull
#define FOUR_GIB		0x100000000ull
/* mem_upper counts from 1 MiB; more than this would end past 4 GiB. */
#define MAX_UPPER_KB		((FOUR_GIB - ONE_MIB) / 1024)
/* Nothing known about RAM: a modest PC's, from 1 MiB to 16 MiB. */
#define GUESS_RAM_END		(16 * ONE_MIB)

#define MMAP_ENTRY_MIN_SIZE	(sizeof(struct multiboot_mmap_entry) - 4)

/* One parse: where to read, what to fill, where to say what was wrong. */
struct parse {
	const struct mb_env *env;
	struct boot_info *bi;
	struct mb_notes *notes;
};

/* A module that passed the checks of its own bounds, before the checks
 * against the other modules. */
struct module_candidate {
	bool ok;
	u32 start, end;
	u64 string, string_end;	/* its string's bytes, NUL included */
	char name[sizeof(((struct boot_module *)0)->name)];
	char subject[MB_NOTE_SUBJECT];
};

/* ---- notes ---- */

static const char *const note_formats[MB_NOTE_KINDS] = {
	[MB_NOTE_NO_INFO] = "%s: no info block (EBX is 0): no memory size, command line or modules",
	[MB_NOTE_NULL_POINTER] = "%s pointer is 0, ignored",
	[MB_NOTE_UNREADABLE] = "%s at %08llx (%llu bytes) is not readable, ignored",
	[MB_NOTE_STRING_UNREADABLE] = "%s at %08llx runs into unreadable memory, ignored",
	[MB_NOTE_UNTERMINATED] = "%s at %08llx has no end in %llu bytes, ignored",
	[MB_NOTE_OVERLAPS_KERNEL] = "%s at %08llx-%08llx overlaps the kernel image, ignored",
	[MB_NOTE_TRUNCATED] = "%s longer than %llu bytes, truncated",
	[MB_NOTE_NO_CMDLINE] = "%s none from the loader",
	[MB_NOTE_MEM_LOWER_BIG] = "%s mem_lower of %llu KiB is more than there is, taken as %llu",
	[MB_NOTE_MEM_UPPER_BIG] = "%s mem_upper of %llu KiB reaches past 4 GiB, taken as %llu",
	[MB_NOTE_NO_MAP] = "%s no memory map from the loader, RAM from mem_lower and mem_upper",
	[MB_NOTE_MAP_NO_RAM] = "%s the memory map has no RAM above 1 MiB, RAM from mem_lower and mem_upper",
	[MB_NOTE_NO_MEMORY_SIZE] = "%s no RAM above 1 MiB known, assuming RAM at %08llx-%08llx",
	[MB_NOTE_MAP_ENTRY_SHORT] = "%s entry %llu has size %llu (less than 20), map cut there",
	[MB_NOTE_MAP_ENTRY_PAST_END] = "%s entry %llu runs past the map's end (%llu bytes), map cut there",
	[MB_NOTE_MAP_STRAY_BYTES] = "%s ends in %llu bytes too few for an entry, ignored",
	[MB_NOTE_MAP_TOO_LONG] = "%s has more than %llu entries, the rest ignored",
	[MB_NOTE_MAP_ENTRY_WRAPS] = "%s entry %llu wraps past the end of the address space, ignored",
	[MB_NOTE_MAP_UNSORTED] = "%s entries not in address order, sorted",
	[MB_NOTE_MAP_OVERLAP] = "%s entries overlap (%llu KiB): RAM counted once, reserved wins",
	[MB_NOTE_REGIONS_LOST] = "%s more RAM regions than %llu, %llu of them unused",
	[MB_NOTE_MODULES_TOO_MANY] = "%s %llu given, only the first %llu kept",
	[MB_NOTE_MODULE_BACKWARDS] = "%s at %08llx ends at %08llx, before its start, ignored",
	[MB_NOTE_MODULE_BEYOND_MAP] = "%s at %08llx-%08llx ends beyond the kernel's %llu MiB map, ignored",
	[MB_NOTE_MODULE_NOT_RAM] = "%s at %08llx-%08llx is not all in RAM, ignored",
	[MB_NOTE_MODULE_OVERLAP] = "%s at %08llx-%08llx overlaps module %llu, ignored",
};

const char *mb_note_format(enum mb_note_kind kind)
{
	return kind < MB_NOTE_KINDS ? note_formats[kind] : "%s: (unknown note)";
}

/* strlcpy, which the host's C library may lack: copy what fits of src
 * into dst (size > 0), always terminated. */
static void copy_string(char *dst, size_t size, const char *src)
{
	size_t len = strlen(src);

	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* Append the decimal digits of v to the string in dst (size bytes). */
static void append_decimal(char *dst, size_t size, u32 v)
{
	char digits[11];
	unsigned int n = sizeof(digits) - 1;
	size_t len = strlen(dst);

	digits[n] = '\0';
	do {
		digits[--n] = '0' + v % 10;
		v /= 10;
	} while (v);
	copy_string(dst + len, size - len, digits + n);
}

static void append(char *dst, size_t size, const char *s)
{
	size_t len = strlen(dst);

	copy_string(dst + len, size - len, s);
}

static void note(struct parse *p, enum mb_note_kind kind, const char *subject,
		 u64 a, u64 b, u64 c)
{
	struct mb_note *n;

	if (p->notes->nr == MB_MAX_NOTES) {
		p->notes->dropped++;
		return;
	}
	n = &p->notes->note[p->notes->nr++];
	n->kind = kind;
	copy_string(n->subject, sizeof(n->subject), subject);
	n->a = a;
	n->b = b;
	n->c = c;
}

/* ---- reading the loader's memory ---- */

static bool read_mem(struct parse *p, u64 addr, void *dst, u32 n)
{
	return p->env->mem->read(p->env->mem, addr, dst, n);
}

static bool overlaps(u64 start, u64 end, u64 other_start, u64 other_end)
{
	return start < other_end && other_start < end;
}

static bool overlaps_kernel(struct parse *p, u64 start, u64 end)
{
	return overlaps(start, end, p->env->kernel_start, p->env->kernel_end);
}

/* Read the loader's structure [addr, addr + n) into dst, or say why not. */
static bool read_loader_data(struct parse *p, const char *what, u64 addr,
			     void *dst, u32 n)
{
	if (!addr) {
		note(p, MB_NOTE_NULL_POINTER, what, 0, 0, 0);
		return false;
	}
	if (overlaps_kernel(p, addr, addr + n)) {
		note(p, MB_NOTE_OVERLAPS_KERNEL, what, addr, addr + n, 0);
		return false;
	}
	if (!read_mem(p, addr, dst, n)) {
		note(p, MB_NOTE_UNREADABLE, what, addr, n, 0);
		return false;
	}
	return true;
}

/* Copy the loader's string at addr into dst (size bytes) and set *end
 * past its NUL.  Searched for MB_STRING_MAX bytes at most: a pointer to
 * something that is not a string must not send the search through all
 * of memory.  Too long for dst is cut, with a note if truncated_what. */
static bool read_loader_string(struct parse *p, const char *what, u32 addr,
			       char *dst, size_t size, u64 *end,
			       const char *truncated_what)
{
	u32 i;
	char c = 1;

	if (!addr) {
		note(p, MB_NOTE_NULL_POINTER, what, 0, 0, 0);
		return false;
	}
	for (i = 0; i < MB_STRING_MAX && c; i++) {
		if (!read_mem(p, (u64)addr + i, &c, 1)) {
			note(p, MB_NOTE_STRING_UNREADABLE, what, addr, 0, 0);
			return false;
		}
		if (i < size)
			dst[i] = c;
	}
	if (c) {
		note(p, MB_NOTE_UNTERMINATED, what, addr, MB_STRING_MAX, 0);
		return false;
	}
	*end = (u64)addr + i;
	if (overlaps_kernel(p, addr, *end)) {
		note(p, MB_NOTE_OVERLAPS_KERNEL, what, addr, *end, 0);
		return false;
	}
	if (i > size) {
		dst[size - 1] = '\0';
		if (truncated_what)
			note(p, MB_NOTE_TRUNCATED, truncated_what, size - 1, 0, 0);
	}
	return true;
}

/* ---- what the page allocator must keep ---- */

/* Remember [start, end) as taken by the loader's data.  The table has
 * room for every range the parser reserves (bootinfo.h). */
static void reserve(struct parse *p, u64 start, u64 end)
{
	struct boot_info *bi = p->bi;
	struct mem_region *r;

	if (bi->nr_reserved == BOOT_MAX_RESERVED || end <= start)
		return;
	r = &bi->reserved[bi->nr_reserved++];
	r->start = start;
	r->end = end;
}

/* ---- strings: command line and loader name ---- */

static void parse_cmdline(struct parse *p, const struct multiboot_info *mbi)
{
	struct boot_info *bi = p->bi;
	char buf[sizeof(bi->cmdline)];
	u64 end;

	if (!(mbi->flags & MB_INFO_CMDLINE)) {
		note(p, MB_NOTE_NO_CMDLINE, "cmdline:", 0, 0, 0);
		return;
	}
	if (!read_loader_string(p, "cmdline:", mbi->cmdline, buf, sizeof(buf),
				&end, "cmdline:"))
		return;
	memcpy(bi->cmdline, buf, sizeof(buf));
	bi->cmdline_truncated = end - mbi->cmdline > sizeof(buf);
	reserve(p, mbi->cmdline, end);
}

static void parse_loader_name(struct parse *p, const struct multiboot_info *mbi)
{
	struct boot_info *bi = p->bi;
	u64 end;

	copy_string(bi->loader, sizeof(bi->loader), "unknown loader");
	if (mbi->flags & MB_INFO_LOADER_NAME) {
		char buf[sizeof(bi->loader)];

		if (read_loader_string(p, "multiboot: loader name", mbi->boot_loader_name,
				       buf, sizeof(buf), &end, "multiboot: loader name"))
			memcpy(bi->loader, buf, sizeof(buf));
	}
}

/* ---- memory ---- */

static void parse_meminfo(struct parse *p, const struct multiboot_info *mbi)
{
	struct boot_info *bi = p->bi;

	if (!(mbi->flags & MB_INFO_MEMORY))
		return;
	bi->has_meminfo = true;
	bi->mem_lower_kb = mbi->mem_lower;
	bi->mem_upper_kb = mbi->mem_upper;
	if (mbi->mem_lower > LOW_MEMORY_KB) {
		bi->mem_lower_kb = LOW_MEMORY_KB;
		note(p, MB_NOTE_MEM_LOWER_BIG, "mem:", mbi->mem_lower, LOW_MEMORY_KB, 0);
	}
	/* memory_top() adds it to 1 MiB in 32 bits. */
	if (mbi->mem_upper > MAX_UPPER_KB) {
		bi->mem_upper_kb = MAX_UPPER_KB;
		note(p, MB_NOTE_MEM_UPPER_BIG, "mem:", mbi->mem_upper, MAX_UPPER_KB, 0);
	}
}

/* Read the map's entry at pos into *e, if it is whole; else say why the
 * map [start, end) ends here.  index counts the entries before it. */
static bool read_map_entry(struct parse *p, u64 pos, u64 start, u64 end,
			   u32 index, struct multiboot_mmap_entry *e)
{
	if (end - pos < sizeof(*e)) {
		note(p, MB_NOTE_MAP_STRAY_BYTES, "mem: map", end - pos, 0, 0);
		return false;
	}
	if (!read_mem(p, pos, e, sizeof(*e))) {
		note(p, MB_NOTE_UNREADABLE, "mem: map", pos, sizeof(*e), 0);
		return false;
	}
	if (e->size < MMAP_ENTRY_MIN_SIZE) {
		note(p, MB_NOTE_MAP_ENTRY_SHORT, "mem: map", index, e->size, 0);
		return false;
	}
	if ((u64)e->size + 4 > end - pos) {
		note(p, MB_NOTE_MAP_ENTRY_PAST_END, "mem: map", index, end - start, 0);
		return false;
	}
	return true;
}

/* Keep entry number index for ram_map_build, unless it is empty or its
 * end does not fit in 64 bits. */
static void keep_map_entry(struct parse *p, const struct multiboot_mmap_entry *e,
			   u32 index, struct ram_map_entry *entries, unsigned int *n)
{
	if (!e->len)
		return;
	if (e->addr + e->len < e->addr) {
		note(p, MB_NOTE_MAP_ENTRY_WRAPS, "mem: map", index, 0, 0);
		return;
	}
	entries[*n].start = e->addr;
	entries[*n].end = e->addr + e->len;
	entries[*n].ram = e->type == MB_MEMORY_AVAILABLE;
	(*n)++;
}

/* The map's RAM below 4 GiB becomes the regions; RAM above is only
 * counted: the kernel maps at most KERNEL_SPACE_END, far below. */
static void build_regions(struct parse *p, const struct ram_map_entry *entries,
			  unsigned int n)
{
	struct boot_info *bi = p->bi;
	struct ram_map_result res;

	ram_map_build(entries, n, FOUR_GIB, bi->regions, BOOT_MAX_REGIONS, &res);
	bi->nr_regions = res.nr;
	bi->mmap_usable_bytes = res.ram_bytes;
	bi->ram_above_4g = res.above_limit_bytes;
	bi->mmap_top = res.nr ? bi->regions[res.nr - 1].end : 0;
	if (res.unsorted)
		note(p, MB_NOTE_MAP_UNSORTED, "mem: map", 0, 0, 0);
	if (res.overlap_bytes)
		note(p, MB_NOTE_MAP_OVERLAP, "mem: map", (res.overlap_bytes + 1023) >> 10, 0, 0);
	if (res.lost)
		note(p, MB_NOTE_REGIONS_LOST, "mem:", BOOT_MAX_REGIONS, res.lost, 0);
}

static void parse_mmap(struct parse *p, const struct multiboot_info *mbi)
{
	struct ram_map_entry entries[RAM_MAP_MAX_ENTRIES];
	struct multiboot_mmap_entry e;
	u64 start = mbi->mmap_addr, end = start + mbi->mmap_length, pos = start;
	unsigned int n = 0;

	if (!(mbi->flags & MB_INFO_MMAP))
		return;
	if (!start) {
		note(p, MB_NOTE_NULL_POINTER, "mem: map", 0, 0, 0);
		return;
	}
	if (overlaps_kernel(p, start, end)) {
		note(p, MB_NOTE_OVERLAPS_KERNEL, "mem: map", start, end, 0);
		return;
	}
	p->bi->has_mmap = true;
	while (pos < end && read_map_entry(p, pos, start, end, p->bi->mmap_entries, &e)) {
		if (p->bi->mmap_entries == RAM_MAP_MAX_ENTRIES) {
			note(p, MB_NOTE_MAP_TOO_LONG, "mem: map", RAM_MAP_MAX_ENTRIES, 0, 0);
			break;
		}
		keep_map_entry(p, &e, p->bi->mmap_entries++, entries, &n);
		pos += e.size + 4;
	}
	reserve(p, start, pos);		/* what was read of it */
	build_regions(p, entries, n);
}

static void add_region(struct boot_info *bi, u64 start, u64 end)
{
	if (end <= start || bi->nr_regions == BOOT_MAX_REGIONS)
		return;
	bi->regions[bi->nr_regions].start = start;
	bi->regions[bi->nr_regions].end = end;
	bi->nr_regions++;
}

/* Does any region reach past 1 MiB?  The kernel is loaded there, so RAM
 * that ends below is a loader's mistake, not the machine. */
static bool ram_from_1mib(const struct boot_info *bi)
{
	return bi->nr_regions && bi->regions[bi->nr_regions - 1].end > ONE_MIB;
}

/* No RAM from 1 MiB in the map: the two classic ranges instead, or if
 * they have none either, a guess (memory_top() then sees the same). */
static void fallback_regions(struct parse *p)
{
	struct boot_info *bi = p->bi;

	if (ram_from_1mib(bi))
		return;
	bi->nr_regions = 0;
	bi->mmap_top = 0;
	if (bi->has_meminfo && bi->mem_upper_kb) {
		note(p, bi->has_mmap ? MB_NOTE_MAP_NO_RAM : MB_NOTE_NO_MAP, "mem:", 0, 0, 0);
		add_region(bi, 0, bi->mem_lower_kb * 1024ull);
		add_region(bi, ONE_MIB, ONE_MIB + bi->mem_upper_kb * 1024ull);
	} else {
		note(p, MB_NOTE_NO_MEMORY_SIZE, "mem:", ONE_MIB, GUESS_RAM_END, 0);
		add_region(bi, ONE_MIB, GUESS_RAM_END);
	}
}

/* ---- modules ---- */

/* A module's name is the first word of its string, without the path:
 * QEMU's -initrd "build/user/hello.elf" gives "hello.elf".  False if
 * the word had to be cut to fit. */
static bool module_name(char *name, size_t size, const char *string)
{
	const char *start = string, *p;
	size_t len;

	for (p = string; *p && *p != ' '; p++)
		if (*p == '/')
			start = p + 1;
	len = p - start;
	if (len >= size) {
		copy_string(name, size, start);	/* the word's first size - 1 bytes */
		return false;
	}
	memcpy(name, start, len);
	name[len] = '\0';
	return true;
}

/* Is all of [start, end) inside one region?  Regions are disjoint and
 * merged, so RAM that spans two of them is not there. */
static bool in_ram(const struct boot_info *bi, u64 start, u64 end)
{
	unsigned int i;

	for (i = 0; i < bi->nr_regions; i++)
		if (bi->regions[i].start <= start && end <= bi->regions[i].end)
			return true;
	return false;
}

/* Module number index's name, from its string, and its subject for
 * notes: "module 1 (hello.elf)", or "module 1" without a name. */
static void name_module(struct parse *p, u32 index, const struct multiboot_module *m,
			struct module_candidate *c)
{
	char what[MB_NOTE_SUBJECT], string[256];

	copy_string(c->subject, sizeof(c->subject), "module ");
	append_decimal(c->subject, sizeof(c->subject), index);
	copy_string(what, sizeof(what), c->subject);
	append(what, sizeof(what), " string");
	if (!read_loader_string(p, what, m->string, string, sizeof(string),
				&c->string_end, NULL))
		return;
	c->string = m->string;
	if (!module_name(c->name, sizeof(c->name), string)) {
		copy_string(what, sizeof(what), c->subject);
		append(what, sizeof(what), " name");
		note(p, MB_NOTE_TRUNCATED, what, sizeof(c->name) - 1, 0, 0);
	}
	append(c->subject, sizeof(c->subject), " (");
	append(c->subject, sizeof(c->subject), c->name);
	append(c->subject, sizeof(c->subject), ")");
}

/* The checks a module's bounds must pass on their own. */
static void check_module(struct parse *p, u32 index, const struct multiboot_module *m,
			 struct module_candidate *c)
{
	*c = (struct module_candidate){ .start = m->start, .end = m->end };
	name_module(p, index, m, c);
	if (m->end < m->start)
		note(p, MB_NOTE_MODULE_BACKWARDS, c->subject, m->start, m->end, 0);
	else if (m->end > p->env->map_end)
		note(p, MB_NOTE_MODULE_BEYOND_MAP, c->subject, m->start, m->end,
		     p->env->map_end >> 20);
	else if (!in_ram(p->bi, m->start, m->end))
		note(p, MB_NOTE_MODULE_NOT_RAM, c->subject, m->start, m->end, 0);
	else if (overlaps_kernel(p, m->start, m->end))
		note(p, MB_NOTE_OVERLAPS_KERNEL, c->subject, m->start, m->end, 0);
	else
		c->ok = true;
}

/* Two modules in the same bytes: one was loaded over the other, so
 * neither can be trusted.  Each is noted with the first it overlaps. */
static void drop_overlapping_modules(struct parse *p, struct module_candidate *c,
				     u32 count)
{
	bool overlapping[BOOT_MAX_MODULES] = { false };
	u32 i, j;

	for (i = 0; i < count; i++) {
		for (j = 0; j < count && c[i].ok; j++) {
			if (j != i && c[j].ok &&
			    overlaps(c[i].start, c[i].end, c[j].start, c[j].end)) {
				note(p, MB_NOTE_MODULE_OVERLAP, c[i].subject,
				     c[i].start, c[i].end, j);
				overlapping[i] = true;
				break;
			}
		}
	}
	for (i = 0; i < count; i++)
		if (overlapping[i])
			c[i].ok = false;
}

static void keep_module(struct parse *p, const struct module_candidate *c)
{
	struct boot_module *b = &p->bi->modules[p->bi->nr_modules++];

	b->start = c->start;
	b->end = c->end;
	memcpy(b->name, c->name, sizeof(b->name));
	reserve(p, c->start, c->end);
	if (c->string)
		reserve(p, c->string, c->string_end);
}

static void parse_modules(struct parse *p, const struct multiboot_info *mbi)
{
	struct multiboot_module table[BOOT_MAX_MODULES];
	struct module_candidate c[BOOT_MAX_MODULES];
	u32 count = mbi->mods_count, i;

	if (!(mbi->flags & MB_INFO_MODS) || !count)
		return;
	if (count > BOOT_MAX_MODULES) {
		note(p, MB_NOTE_MODULES_TOO_MANY, "modules:", count, BOOT_MAX_MODULES, 0);
		count = BOOT_MAX_MODULES;
	}
	if (!read_loader_data(p, "modules: list", mbi->mods_addr, table,
			      count * sizeof(table[0])))
		return;
	reserve(p, mbi->mods_addr, mbi->mods_addr + (u64)count * sizeof(table[0]));
	for (i = 0; i < count; i++)
		check_module(p, i, &table[i], &c[i]);
	drop_overlapping_modules(p, c, count);
	for (i = 0; i < count; i++)
		if (c[i].ok)
			keep_module(p, &c[i]);
}

/* ---- the whole block ---- */

void multiboot_parse_info(const struct mb_env *env, u32 info,
			  struct boot_info *out, struct mb_notes *notes)
{
	struct parse p = { env, out, notes };
	struct multiboot_info mbi;

	memset(out, 0, sizeof(*out));
	memset(notes, 0, sizeof(*notes));
	if (!info)
		note(&p, MB_NOTE_NO_INFO, "multiboot", 0, 0, 0);
	if (info && read_loader_data(&p, "multiboot: info block", info, &mbi, sizeof(mbi)))
		reserve(&p, info, (u64)info + sizeof(mbi));
	else
		memset(&mbi, 0, sizeof(mbi));	/* no flags: nothing is valid */
	parse_cmdline(&p, &mbi);
	parse_loader_name(&p, &mbi);
	parse_meminfo(&p, &mbi);
	parse_mmap(&p, &mbi);
	fallback_regions(&p);
	parse_modules(&p, &mbi);
}
