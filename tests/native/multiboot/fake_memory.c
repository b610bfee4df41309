/*
 * fake_memory.c - a buffer that plays the machine's first MiB for the
 * parser, writers that lay out Multiboot structures in it by the
 * specification's offsets, and the note checks.
 *
 * Reads outside the buffer fail, as reads of memory that is not there;
 * the parser must then say so and go on.  A read the parser makes past
 * what it checked would show as a wrong result or, inside the process,
 * as an ASan report.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../runner/notes.h"

u8 *fake;
struct boot_info bi;
struct mb_notes notes;

static bool read_fake(const struct mb_memory *mem, u64 addr, void *dst, u32 n)
{
	(void)mem;
	if (addr > FAKE_SIZE || n > FAKE_SIZE - addr)
		return false;
	memcpy(dst, fake + addr, n);
	return true;
}

const struct mb_memory fake_memory = { read_fake };

const struct mb_env test_env = {
	.mem = &fake_memory,
	.kernel_start = TEST_KERNEL_START,
	.kernel_end = TEST_KERNEL_END,
	.map_end = TEST_MAP_END,
};

void fake_reset(void)
{
	if (!fake)
		fake = malloc(FAKE_SIZE);
	memset(fake, 0, FAKE_SIZE);
}

void put32(u32 addr, u32 v)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		fake[addr + i] = v >> (8 * i);
}

void put64(u32 addr, u64 v)
{
	put32(addr, (u32)v);
	put32(addr + 4, (u32)(v >> 32));
}

u32 put_string(u32 addr, const char *s)
{
	size_t n = strlen(s) + 1;

	memcpy(fake + addr, s, n);
	return addr + n;
}

u32 put_map_entry(u32 addr, u32 size, u64 start, u64 len, u32 type)
{
	put32(addr, size);
	put64(addr + 4, start);
	put64(addr + 12, len);
	put32(addr + 20, type);
	return addr + size + 4;
}

void put_module(u32 addr, u32 start, u32 end, u32 string)
{
	put32(addr, start);
	put32(addr + 4, end);
	put32(addr + 8, string);
	put32(addr + 12, 0);
}

/* QEMU 7.2's map for -m 128 (SeaBIOS e820), as the kernel logs it. */
void put_qemu_info(const char *cmdline)
{
	u32 e = QEMU_MAP_AT;

	put32(INFO_AT + MBI_FLAGS, F_MEM | F_CMDLINE | F_MMAP | F_LOADER);
	put32(INFO_AT + MBI_MEM_LOWER, 639);
	put32(INFO_AT + MBI_MEM_UPPER, 129920);
	put32(INFO_AT + MBI_CMDLINE, QEMU_CMDLINE_AT);
	put_string(QEMU_CMDLINE_AT, cmdline);
	put32(INFO_AT + MBI_LOADER_NAME, QEMU_LOADER_AT);
	put_string(QEMU_LOADER_AT, "qemu");
	e = put_map_entry(e, 20, 0, 0x9fc00, 1);
	e = put_map_entry(e, 20, 0x9fc00, 0x400, 2);
	e = put_map_entry(e, 20, 0xf0000, 0x10000, 2);
	e = put_map_entry(e, 20, 0x100000, 0x7ee0000, 1);
	e = put_map_entry(e, 20, 0x7fe0000, 0x20000, 2);
	put_map_entry(e, 20, 0xfffc0000, 0x40000, 2);
	put32(INFO_AT + MBI_MMAP_ADDR, QEMU_MAP_AT);
	put32(INFO_AT + MBI_MMAP_LENGTH, QEMU_MAP_LEN);
}

void parse(u32 addr)
{
	multiboot_parse_info(&test_env, addr, &bi, &notes);
}

void parse_with_kernel_at(u32 addr, u32 kstart, u32 kend)
{
	struct mb_env env = test_env;

	env.kernel_start = kstart;
	env.kernel_end = kend;
	multiboot_parse_info(&env, addr, &bi, &notes);
}

/* RAM 0-639 KiB and 1 MiB-128 MiB less QEMU's 128 KiB at the top. */
void check_qemu_memory_at(const char *file, int line)
{
	const struct mem_region *r = bi.regions;

	if (!bi.has_meminfo || bi.mem_lower_kb != 639 || bi.mem_upper_kb != 129920)
		check_failed(file, line, "meminfo %d %u %u, want 639 and 129920 KiB",
			     bi.has_meminfo, bi.mem_lower_kb, bi.mem_upper_kb);
	if (!bi.has_mmap || bi.mmap_entries != 6 || bi.nr_regions != 2 ||
	    r[0].start != 0 || r[0].end != 0x9fc00 ||
	    r[1].start != 0x100000 || r[1].end != 0x7fe0000)
		check_failed(file, line, "map %d, %u entries, %u regions "
			     "[%#llx, %#llx) [%#llx, %#llx): not QEMU's",
			     bi.has_mmap, bi.mmap_entries, bi.nr_regions,
			     (unsigned long long)r[0].start, (unsigned long long)r[0].end,
			     (unsigned long long)r[1].start, (unsigned long long)r[1].end);
	if (bi.mmap_usable_bytes != 130559ull * 1024 || bi.mmap_top != 0x7fe0000 ||
	    bi.ram_above_4g)
		check_failed(file, line, "usable %llu KiB top %#llx above 4G %llu",
			     (unsigned long long)bi.mmap_usable_bytes >> 10,
			     (unsigned long long)bi.mmap_top,
			     (unsigned long long)bi.ram_above_4g);
}

const char *note_text(unsigned int i)
{
	const struct mb_note *n = &notes.note[i];

	return note_line(mb_note_format(n->kind), n->subject, n->a, n->b, n->c);
}

void check_notes_at(const char *file, int line, const char *const *want, unsigned int n)
{
	check_note_lines_at(file, line, want, n, notes.nr, notes.dropped, note_text);
}
