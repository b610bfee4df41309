/*
 * page_alloc.c - hands out 4 KiB frames of physical RAM.
 *
 * One bit per frame below the end of the kernel's map (KERNEL_SPACE_END):
 * set means in use.  Every frame starts in use; page_alloc_init() frees
 * the frames the loader's map calls available, then takes back the first
 * MiB (BIOS data, the VGA window), the kernel image and what the loader
 * left in RAM (the info block, strings, modules).  So nothing is handed
 * out that anything else owns, even if the map is unsorted or its
 * regions overlap.  RAM above the kernel's map is only reported.
 *
 * A bitmap rather than a free list: it needs no writes to free RAM at
 * boot, finds contiguous runs (kernel stacks), and a student can print
 * it.
 *
 * The bitmap, the free count and the search hint are one state that any
 * CPU may change: page_lock guards them (rank LOCK_RANK_PAGES, a leaf
 * but for the printing of a panic).  It is taken with interrupts off, as
 * the bitmap was touched before there were locks, since a fault handler
 * may allocate on the CPU whose task was allocating.  The clearing of a
 * new run and the printing are done outside it.
 */
#include <kernel.h>
#include <bootinfo.h>
#include <page_alloc.h>
#include <spinlock.h>
#include <string.h>
#include <asm/paging.h>
#include <asm/privileged.h>

#define NR_FRAMES	(KERNEL_SPACE_END / PAGE_SIZE)
#define BITS_PER_WORD	32

static u32 frame_used[NR_FRAMES / BITS_PER_WORD];
static unsigned long nr_free;
static u32 search_from;		/* a word before which nothing is free */
DEFINE_SPINLOCK(page_lock, LOCK_RANK_PAGES);	/* page_alloc.h */

extern char __kernel_start[], __kernel_end[];

static bool frame_is_used(u32 frame)
{
	return frame_used[frame / BITS_PER_WORD] & (1u << (frame % BITS_PER_WORD));
}

static void mark(u32 frame, bool used)
{
	u32 bit = 1u << (frame % BITS_PER_WORD);

	if (used == frame_is_used(frame))
		return;
	frame_used[frame / BITS_PER_WORD] ^= bit;
	nr_free += used ? -1 : 1;
}

/* Mark the frames wholly inside [start, end) free, or the frames that
 * touch it used: a partial page is never handed out. */
static void mark_range(u64 start, u64 end, bool used)
{
	u64 first = used ? start / PAGE_SIZE : (start + PAGE_SIZE - 1) / PAGE_SIZE;
	u64 last = used ? (end + PAGE_SIZE - 1) / PAGE_SIZE : end / PAGE_SIZE;
	u64 f;

	for (f = first; f < last && f < NR_FRAMES; f++)
		mark(f, used);
}

/* RAM above 4 GiB is not in the regions, only counted (bootinfo.h). */
static void report_unmapped_ram(void)
{
	u64 above = boot_info.ram_above_4g;
	unsigned int i;

	for (i = 0; i < boot_info.nr_regions; i++) {
		const struct mem_region *r = &boot_info.regions[i];

		if (r->end > KERNEL_SPACE_END)
			above += r->end - max(r->start, (u64)KERNEL_SPACE_END);
	}
	if (above)
		printk("mem: %llu MiB of RAM above %u MiB is beyond the kernel's map, unused\n",
		       above >> 20, KERNEL_SPACE_END >> 20);
}

void page_alloc_init(void)
{
	unsigned int i;

	memset(frame_used, 0xff, sizeof(frame_used));
	for (i = 0; i < boot_info.nr_regions; i++)
		mark_range(boot_info.regions[i].start, boot_info.regions[i].end, false);
	mark_range(0, 0x100000, true);
	mark_range((u32)__kernel_start, (u32)__kernel_end, true);
	for (i = 0; i < boot_info.nr_reserved; i++)
		mark_range(boot_info.reserved[i].start, boot_info.reserved[i].end, true);
	printk("mem: %lu KiB free for pages (kernel image %u KiB, %u loader ranges kept)\n",
	       nr_free * (PAGE_SIZE / 1024),
	       (unsigned int)(__kernel_end - __kernel_start) >> 10, boot_info.nr_reserved);
	report_unmapped_ram();
}

/* The first run of n free frames at or after word `search_from`. */
static u32 find_free_run(unsigned int n)
{
	u32 frame, run = 0;

	for (frame = search_from * BITS_PER_WORD; frame < NR_FRAMES; frame++) {
		if (frame % BITS_PER_WORD == 0 && run == 0 &&
		    frame_used[frame / BITS_PER_WORD] == ~0u) {
			frame += BITS_PER_WORD - 1;	/* a full word: skip it */
			continue;
		}
		run = frame_is_used(frame) ? 0 : run + 1;
		if (run == n)
			return frame + 1 - n;
	}
	return 0;
}

u32 pages_alloc(unsigned int n)
{
	unsigned long flags;
	u32 first, i;

	spin_lock_irqsave(&page_lock, &flags);
	first = n <= nr_free ? find_free_run(n) : 0;

	for (i = 0; first && i < n; i++)
		mark(first + i, true);
	if (first && n == 1)
		search_from = first / BITS_PER_WORD;
	spin_unlock_irqrestore(&page_lock, flags);
	if (!first)
		return 0;
	memset((void *)(first * PAGE_SIZE), 0, n * PAGE_SIZE);
	return first * PAGE_SIZE;
}

u32 page_alloc(void)
{
	return pages_alloc(1);
}

void pages_free(u32 addr, unsigned int n)
{
	unsigned long flags;
	u32 frame = addr / PAGE_SIZE, i;

	if (addr % PAGE_SIZE || frame + n > NR_FRAMES)
		panic("pages_free: bad address %08x", addr);
	spin_lock_irqsave(&page_lock, &flags);
	for (i = 0; i < n; i++) {
		if (!frame_is_used(frame + i))
			panic("pages_free: page %08x is already free", addr + i * PAGE_SIZE);
		mark(frame + i, false);
	}
	if (frame / BITS_PER_WORD < search_from)
		search_from = frame / BITS_PER_WORD;
	spin_unlock_irqrestore(&page_lock, flags);
}

void page_free(u32 addr)
{
	pages_free(addr, 1);
}

unsigned long pages_free_count(void)
{
	return nr_free;
}
