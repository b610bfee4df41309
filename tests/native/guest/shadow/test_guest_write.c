/*
 * test_guest_write.c - the host's write of a trap frame through the
 * guest's own page tables (page_tables.c's shadow_guest_write), as the
 * CPU's pushes would make it: accessed and dirty bits set, all of it or
 * nothing, a page not mapped or read-only refused (the guest's double
 * fault), a frame across two pages looked at on both, the upper first.
 */
#include <string.h>
#include "../../../../arch/x86/host/host.h"	/* the host's own: tests reach in */
#include <asm/paging.h>
#include "../../runner/runner.h"
#include "fake_page_alloc.h"

#define GUEST_MIB	8
#define PD		0x20000u
#define PT		0x21000u
#define LOWER		0x300000u	/* the frames behind the two stack pages */
#define UPPER		0x305000u
#define STACK_VA	0x400000u	/* slot 1: its pages 0 and 1 */
#define PTE_ACCESSED	0x020
#define PTE_DIRTY	0x040

static struct guest_memory m;
static struct shadow sh;
static const u32 frame[3] = { 0x11111111, 0x22222222, 0x33333333 };

static u32 *guest_word(u32 gpa)
{
	return guest_memory_ptr(&m, gpa, 4);
}

/* A guest whose slot 1 maps LOWER then UPPER with the entries given, and
 * a shadow of its directory; its two stack frames filled with 0xee. */
static void start(u32 lower_pte_bits, u32 upper_pte_bits)
{
	fake_reset(0, false);
	CHECK(guest_memory_alloc(&m, GUEST_MIB) == 0, "no guest memory");
	CHECK(shadow_init(&sh, &m, NULL, PD) == 0, "no shadow");
	*guest_word(PD + 4) = PT | PTE_PRESENT | PTE_WRITE;
	*guest_word(PT) = LOWER | lower_pte_bits;
	*guest_word(PT + 4) = UPPER | upper_pte_bits;
	memset(guest_memory_ptr(&m, LOWER, PAGE_SIZE), 0xee, PAGE_SIZE);
	memset(guest_memory_ptr(&m, UPPER, PAGE_SIZE), 0xee, PAGE_SIZE);
}

static void stop(const char *when)
{
	shadow_free(&sh);
	guest_memory_free(&m);
	fake_check_nothing_held(when);
	fake_reset(0, false);
}

/* Whether nothing of a refused frame reached either page or an entry. */
static void check_untouched(const char *what)
{
	CHECK(*guest_word(LOWER + PAGE_SIZE - 8) == 0xeeeeeeeeu &&
	      *guest_word(UPPER) == 0xeeeeeeeeu, "%s: part of the frame was written", what);
	CHECK(!(*guest_word(PT) & (PTE_ACCESSED | PTE_DIRTY)) &&
	      !(*guest_word(PT + 4) & (PTE_ACCESSED | PTE_DIRTY)) &&
	      !(*guest_word(PD + 4) & PTE_ACCESSED), "%s: an entry's bits were set", what);
}

/* Across the two pages: its words where the CPU's pushes put them, both
 * pages' entries accessed and dirty, the directory entry accessed. */
void test_frame_across_two_pages_sets_accessed_and_dirty(void)
{
	u32 where = 0, va = STACK_VA + PAGE_SIZE - 8;

	start(PTE_PRESENT | PTE_WRITE, PTE_PRESENT | PTE_WRITE);
	CHECK(shadow_guest_write(&sh, va, frame, sizeof(frame), &where) == GUEST_WRITTEN,
	      "not written");
	CHECK(*guest_word(LOWER + PAGE_SIZE - 8) == frame[0] &&
	      *guest_word(LOWER + PAGE_SIZE - 4) == frame[1] && *guest_word(UPPER) == frame[2],
	      "the words are not where the pushes put them");
	CHECK((*guest_word(PT) & (PTE_ACCESSED | PTE_DIRTY)) == (PTE_ACCESSED | PTE_DIRTY),
	      "the lower page's entry is %08x", *guest_word(PT));
	CHECK((*guest_word(PT + 4) & (PTE_ACCESSED | PTE_DIRTY)) == (PTE_ACCESSED | PTE_DIRTY),
	      "the upper page's entry is %08x", *guest_word(PT + 4));
	CHECK(*guest_word(PD + 4) & PTE_ACCESSED, "the directory entry is not accessed");
	stop("a frame across two pages");
}

/* Either page not present, or read-only: refused with its reason and the
 * lowest address of the frame on the page that refused, nothing written. */
void test_frame_refused_on_either_page_writes_nothing(void)
{
	static const struct {
		const char *what;
		u32 lower, upper;
		enum guest_write_result result;
		u32 where;
	} cases[] = {
		{ "lower not present", 0, PTE_PRESENT | PTE_WRITE, GUEST_WRITE_NOT_MAPPED,
		  STACK_VA + PAGE_SIZE - 8 },
		{ "upper not present", PTE_PRESENT | PTE_WRITE, 0, GUEST_WRITE_NOT_MAPPED,
		  STACK_VA + PAGE_SIZE },
		{ "lower read-only", PTE_PRESENT, PTE_PRESENT | PTE_WRITE, GUEST_WRITE_READ_ONLY,
		  STACK_VA + PAGE_SIZE - 8 },
		{ "upper read-only", PTE_PRESENT | PTE_WRITE, PTE_PRESENT, GUEST_WRITE_READ_ONLY,
		  STACK_VA + PAGE_SIZE },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		u32 where = 0;
		enum guest_write_result r;

		start(cases[i].lower, cases[i].upper);
		r = shadow_guest_write(&sh, STACK_VA + PAGE_SIZE - 8, frame, sizeof(frame), &where);
		CHECK(r == cases[i].result, "%s: result %d", cases[i].what, r);
		CHECK(where == cases[i].where, "%s: at %08x", cases[i].what, where);
		check_untouched(cases[i].what);
		stop(cases[i].what);
	}
}

/* The directory entry writable but not the table's, and the other way:
 * a write needs both. */
void test_frame_needs_both_entries_writable(void)
{
	u32 where;

	start(PTE_PRESENT | PTE_WRITE, PTE_PRESENT | PTE_WRITE);
	*guest_word(PD + 4) = PT | PTE_PRESENT;
	CHECK(shadow_guest_write(&sh, STACK_VA + 16, frame, sizeof(frame), &where) ==
	      GUEST_WRITE_READ_ONLY, "a read-only directory entry let the frame through");
	stop("a read-only directory entry");
}

/* Tables or page outside its memory, a 4 MiB page, the Switcher's slot,
 * a frame that wraps below 0: refused, each by its name. */
void test_frame_refused_outside_and_wrapped(void)
{
	u32 where;

	start(PTE_PRESENT | PTE_WRITE, PTE_PRESENT | PTE_WRITE);
	*guest_word(PT) = 0x40000000u | PTE_PRESENT | PTE_WRITE;
	CHECK(shadow_guest_write(&sh, STACK_VA + 16, frame, sizeof(frame), &where) ==
	      GUEST_WRITE_OUTSIDE, "a page outside its memory");
	*guest_word(PD + 4) = 0x40000000u | PTE_PRESENT | PTE_WRITE;
	CHECK(shadow_guest_write(&sh, STACK_VA + 16, frame, sizeof(frame), &where) ==
	      GUEST_WRITE_OUTSIDE, "a table outside its memory");
	*guest_word(PD + 4) = PT | PTE_PRESENT | PTE_WRITE | 0x80;	/* PS */
	CHECK(shadow_guest_write(&sh, STACK_VA + 16, frame, sizeof(frame), &where) ==
	      GUEST_WRITE_LARGE_PAGE, "a 4 MiB page");
	CHECK(shadow_guest_write(&sh, 0xfffffff8u, frame, sizeof(frame), &where) ==
	      GUEST_WRITE_NOT_MAPPED, "a frame that wraps below 0");
	CHECK(shadow_guest_write(&sh, SWITCHER_ADDR, frame, sizeof(frame), &where) ==
	      GUEST_WRITE_NOT_MAPPED, "a frame on the Switcher");
	stop("refusals by name");
}

/* Before its first cr3 its memory is 1:1, and only that. */
void test_frame_before_the_first_cr3_is_physical(void)
{
	u32 where;

	fake_reset(0, false);
	CHECK(guest_memory_alloc(&m, GUEST_MIB) == 0, "no guest memory");
	CHECK(shadow_init(&sh, &m, NULL, SHADOW_IDENTITY) == 0, "no shadow");
	CHECK(shadow_guest_write(&sh, LOWER + 8, frame, sizeof(frame), &where) == GUEST_WRITTEN &&
	      *guest_word(LOWER + 16) == frame[2], "not written at its physical address");
	CHECK(shadow_guest_write(&sh, GUEST_MIB * 0x100000u - 8, frame, sizeof(frame), &where) ==
	      GUEST_WRITE_OUTSIDE, "a frame past its memory");
	stop("the identity shadow");
}
