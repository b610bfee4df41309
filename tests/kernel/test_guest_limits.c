/*
 * test_guest_limits.c - starting a guest when the host is short, and a
 * guest's life (asm/host.h: NONE, RUNNING, STOPPED, RELEASED) when
 * commands come close together.
 *
 * Short of memory: a guest larger than the host's free memory is
 * refused, and nothing is kept.  Short of frames, closer: the host's
 * free frames are all taken here but a few (a hog), and a guest of a
 * few instructions is started with each number of frames left in turn:
 * it is refused, or it runs and is stopped by name, and every frame
 * comes back; the same with no frames for its thread's stack.  That one
 * takes every free frame, which costs time in proportion to the RAM: it
 * runs only when named, in a small machine (tests/suite/guest.py,
 * guest-short-of-frames-y).  Short of task slots: the start is refused,
 * said why, and its memory comes back.  A guest stopped and started
 * again at once: the start waits (-EBUSY) until the thread that ran the
 * stopped one has let it go, so that two threads never run one guest
 * (a launch waits a while for that; one that never comes is busy).
 * Short of its own quota of shadow frames: exactly the quota is given,
 * not a frame more, and a refusal at its edge names the quota.
 */
#include <kernel.h>
#include <stddef.h>
#include <elf.h>
#include <host.h>
#include <ktest.h>
#include <page_alloc.h>
#include <string.h>
#include <task.h>
#include "../../arch/x86/host/host.h"	/* the host's own: tests reach in */
#include <asm/hypercall.h>
#include <asm/paging.h>
#include <asm/switcher.h>
#include <asm/stop_cpus.h>
#include "console_capture.h"

#define CODE_GPA	0x100000u
#define WAIT_TICKS	200	/* 2 s at 100 Hz: for a thread to do its part */

/* ---- a kernel image of a few instructions ---- */

struct tiny_image {
	struct elf32_ehdr h;
	struct elf32_phdr ph;
	u8 code[16];
} __packed;

/* An image whose entry, at 1 MiB, runs code[0..len). */
static void build_image(struct tiny_image *img, const u8 *code, unsigned int len)
{
	u32 code_off = offsetof(struct tiny_image, code);

	memset(img, 0, sizeof(*img));
	img->h = (struct elf32_ehdr){ .magic = ELF_MAGIC, .class = ELFCLASS32,
		.type = ET_EXEC, .machine = EM_386, .entry = CODE_GPA,
		.phoff = offsetof(struct tiny_image, ph),
		.phentsize = sizeof(struct elf32_phdr), .phnum = 1 };
	img->ph = (struct elf32_phdr){ PT_LOAD, code_off, CODE_GPA, CODE_GPA,
				       sizeof(img->code), sizeof(img->code), PF_X, 4096 };
	memcpy(img->code, code, len);
}

/* Spins at ring 1, interrupts on: it runs until stopped. */
static const u8 spin_code[] = { 0xeb, 0xfe };		/* jmp . */

/* Touches its second 4 MiB, then makes a hypercall before init, which
 * stops it: three shadow tables' worth of faults, then its end. */
static const u8 touch_code[] = {
	0xa3, 0x00, 0x00, 0x50, 0x00,			/* mov %eax, 0x500000 */
	0xb8, HCALL_halt, 0x00, 0x00, 0x00,		/* mov $HCALL_halt, %eax */
	0xcd, HYPERCALL_VECTOR,				/* int $0x1f */
};

/* Whether a guest is there that a test must not start over. */
static bool guest_busy(void)
{
	struct guest *g = guest_current();

	return g && (g->state == GUEST_RUNNING || g->state == GUEST_STOPPED);
}

/* Every test here starts a guest of its own: it runs on a host (each
 * says KT_NOT_IN_GUEST itself, for docs/guest.md's table to name it)
 * that runs no guest now. */
#define SKIP_IF_GUEST_BUSY()						\
	do {								\
		if (guest_busy())					\
			KT_SKIP("a guest is running");			\
	} while (0)

/* Why a test is skipped when the host cannot run a guest here (-ENODEV). */
#define NO_HOST		"no host here: no CR0.WP that holds (a 386, or an emulator)"

/* ---- the hog: every free frame taken, a chain through their first words ---- */

static u32 hog_chain;

static void hog_all(void)
{
	u32 frame;

	while ((frame = page_alloc())) {
		*(u32 *)frame = hog_chain;
		hog_chain = frame;
	}
}

/* n frames (all, if fewer) back to the allocator. */
static void unhog(unsigned long n)
{
	while (n-- && hog_chain) {
		u32 frame = hog_chain;

		hog_chain = *(u32 *)frame;
		page_free(frame);
	}
}

#define GUEST_MIB	8	/* two 4 MiB slots: the image touches both */
#define GUEST_PAGES	(GUEST_MIB * 0x100000u / PAGE_SIZE)

/* The guest until the host stops it (a bounded number of runs), then
 * released; false if it was still running. */
static bool run_until_stopped(struct guest *g)
{
	unsigned int runs;

	for (runs = 0; runs < 1000 && g->state == GUEST_RUNNING; runs++)
		guest_run(g);
	if (g->state == GUEST_RUNNING)
		guest_stop(g, "still running after %u runs", runs);
	guest_release();
	return runs < 1000;
}

/* Live tasks named name (a zombie is not). */
static const char *counted_name;
static unsigned int counted;

static void count_named(struct task *t)
{
	if ((t->state == TASK_RUNNABLE || t->state == TASK_SLEEPING) &&
	    !strcmp(t->name, counted_name))
		counted++;
}

static unsigned int tasks_named(const char *name)
{
	counted_name = name;
	counted = 0;
	task_for_each(count_named);
	return counted;
}

/* Sleep until cond holds, WAIT_TICKS at most: other threads do their
 * part meanwhile (and the idle task reaps the ones that ended). */
#define WAIT_FOR(cond)							\
	do {								\
		unsigned int waited_;					\
		for (waited_ = 0; waited_ < WAIT_TICKS && !(cond); waited_++) \
			sched_sleep_ticks(1);				\
	} while (0)

/* The free frames once the tasks that ended before are reaped (by the
 * idle task, which runs while this one sleeps): what a test that makes
 * threads must find again at its end. */
static unsigned long settled_free_count(void)
{
	sched_sleep_ticks(1);
	return pages_free_count();
}

/* A launch that must be refused for its thread: err, the line that says
 * why, the guest released, named as stopped for it. */
static void expect_no_thread(struct ktest_ctx *kt_ctx, int err, int expected, const char *why)
{
	struct guest *g = guest_current();

	KT_EXPECT_EQ(err, expected);
	KT_EXPECT(captured_anywhere("host: no guest: ") && captured_anywhere(why));
	KT_EXPECT(g && g->state == GUEST_RELEASED);
	KT_EXPECT(g && !strcmp(g->stop_reason, "no host thread to run it"));
	if (!captured_anywhere(why))
		printk("ktest:   no line saying '%s'\n", why);
}

/* With k frames left beside its memory: what must become of the guest.
 * NULL: refused; else how the host's reason for stopping it starts. */
static const char *const with_frames_left[] = {
	NULL,					/* no shadow directory */
	NULL,					/* no table for the Switcher */
	"the host is out of memory for its page tables",	/* its first fetch */
	"the host is out of memory for its page tables",	/* its second slot */
	"hypercall halt before init",		/* it ran */
	"hypercall halt before init",
};

/* More memory than the host has free: refused, nothing kept - on any
 * machine, a 4 MiB one too. */
KTEST(guest_start_refused_without_room)
{
	unsigned long before = pages_free_count();
	unsigned int mib = before * PAGE_SIZE / 0x100000u + 1;
	struct tiny_image img;
	int err;

	KT_NOT_IN_GUEST("a guest cannot host: the Switcher runs at ring 0");
	SKIP_IF_GUEST_BUSY();
	build_image(&img, touch_code, sizeof(touch_code));
	err = guest_start_image(&img, sizeof(img), "", max(mib, GUESTMEM_MIN_MIB));
	KT_EXPECT_EQ(pages_free_count(), before);
	if (err == -ENODEV)
		KT_SKIP(NO_HOST);
	KT_EXPECT_EQ(err, mib > KERNEL_SPACE_END / 0x100000u ? -EINVAL : -ENOMEM);
	KT_EXPECT(guest_current() == NULL);
}

/* After a start with k frames left beside run's: every frame back, run
 * taken aside again, the rest hogged. */
static void frames_back(struct ktest_ctx *kt_ctx, u32 *run, unsigned int k)
{
	KT_EXPECT_EQ(pages_free_count(), GUEST_PAGES + k);
	*run = pages_alloc(GUEST_PAGES);
	KT_EXPECT(*run != 0);
	hog_all();
}

/* A guest with k frames left beside its memory (run, taken aside): as
 * with_frames_left says, and every frame back.  run is taken again. */
static void start_with_frames_left(struct ktest_ctx *kt_ctx, const struct tiny_image *img,
				   u32 *run, unsigned int k)
{
	const char *stop = with_frames_left[k];
	struct guest *g;
	int err;

	pages_free(*run, GUEST_PAGES);
	unhog(k);
	err = guest_start_image(img, sizeof(*img), "", GUEST_MIB);
	g = guest_current();
	if (!stop) {
		KT_EXPECT_EQ(err, -ENOMEM);
		KT_EXPECT(g == NULL);
	} else if (err) {
		KT_EXPECT_EQ(err, 0);
	} else {
		KT_EXPECT(run_until_stopped(g));
		KT_EXPECT(!strncmp(g->stop_reason, stop, strlen(stop)));
		if (strncmp(g->stop_reason, stop, strlen(stop)))
			printk("ktest:   %u frames left: stopped with '%s'\n", k, g->stop_reason);
		KT_EXPECT_EQ(g->state, GUEST_RELEASED);
	}
	frames_back(kt_ctx, run, k);
}

/* Memory and shadows, but no stack for its thread: refused, said why. */
static void launch_without_a_stack(struct ktest_ctx *kt_ctx, const struct tiny_image *img,
				   u32 *run)
{
	int err;

	pages_free(*run, GUEST_PAGES);
	unhog(2);
	capture_start();
	err = guest_launch_image(img, sizeof(*img), "", GUEST_MIB);
	capture_stop();
	expect_no_thread(kt_ctx, err, -ENOMEM, "not enough memory for its thread's stack");
	frames_back(kt_ctx, run, 2);
}

KTEST_ALONE(guest_start_short_of_frames)
{
	unsigned long before = pages_free_count();
	struct tiny_image img;
	unsigned int k;
	u32 run;

	KT_NOT_IN_GUEST("a guest cannot host: the Switcher runs at ring 0");
	SKIP_IF_GUEST_BUSY();
	build_image(&img, touch_code, sizeof(touch_code));
	if (!switcher_setup())
		KT_SKIP(NO_HOST);
	run = pages_alloc(GUEST_PAGES);		/* its memory, kept aside */
	if (!run)
		KT_SKIP("no room for an 8 MiB guest");
	hog_all();
	KT_EXPECT_EQ(pages_free_count(), 0);
	/* Not a frame: refused at its memory. */
	KT_EXPECT_EQ(guest_start_image(&img, sizeof(img), "", GUEST_MIB), -ENOMEM);
	KT_EXPECT_EQ(pages_free_count(), 0);
	for (k = 0; k < ARRAY_SIZE(with_frames_left); k++)
		start_with_frames_left(kt_ctx, &img, &run, k);
	launch_without_a_stack(kt_ctx, &img, &run);
	pages_free(run, GUEST_PAGES);
	unhog(before);
	KT_EXPECT_EQ(pages_free_count(), before);
}

/* ---- the shadow quota, to the frame ---- */

#define QUOTA_GUEST_MIB	16
#define QUOTA_FRAMES	104	/* SHADOWS_KEPT x (2 + 2 x 16 MiB / 4 MiB + 16): memory.c */
#define QUOTA_PD	0x200000u	/* the guest's directories and table, in its memory */
#define QUOTA_PD_NEW	0x201000u
#define QUOTA_PT	0x202000u
#define QUOTA_FRAME	0x300000u	/* what the table maps */

/* The guest's directory at QUOTA_PD: every 4 MiB slot but the first and
 * the Switcher's through one table, which maps one page of its own. */
static void write_quota_tables(struct guest *g)
{
	u32 *pd = guest_memory_ptr(&g->mem, QUOTA_PD, PAGE_SIZE);
	u32 *pt = guest_memory_ptr(&g->mem, QUOTA_PT, PAGE_SIZE);
	unsigned int slot;

	pt[1] = QUOTA_FRAME | PTE_PRESENT | PTE_WRITE;
	for (slot = 1; slot < SWITCHER_ADDR / PGDIR_SPAN; slot++)
		pd[slot] = QUOTA_PT | PTE_PRESENT | PTE_WRITE;
}

/* A fault at a new slot's second page: one shadow table more, or none. */
static enum shadow_result fault_new_slot(struct guest *g, unsigned int slot)
{
	u32 error_code = 0;

	return shadow_fault(g->shadows.active, slot * PGDIR_SPAN + PAGE_SIZE, &error_code);
}

/*
 * The quota is a number the host keeps to the frame: a guest of 16 MiB
 * may have exactly QUOTA_FRAMES in its shadows - the last fill given,
 * the next refused - and a new directory one frame short of it (its two
 * frames: it gets one, hands it back) is stopped by the quota's name,
 * not as the host's lack of memory.  A quota moved by one either way, or
 * a comparison off by one, fails here; so does naming the host.
 */
KTEST(guest_shadow_quota_holds_to_the_frame)
{
	unsigned long before = settled_free_count();
	struct tiny_image img;
	struct guest *g;
	unsigned int slot = 1;
	int err;

	KT_NOT_IN_GUEST("a guest cannot host: the Switcher runs at ring 0");
	SKIP_IF_GUEST_BUSY();
	build_image(&img, spin_code, sizeof(spin_code));
	err = guest_start_image(&img, sizeof(img), "", QUOTA_GUEST_MIB);
	if (err == -ENODEV)
		KT_SKIP(NO_HOST);
	if (err == -ENOMEM)
		KT_SKIP("no room for a 16 MiB guest");
	KT_EXPECT_EQ(err, 0);
	if (err)
		return;
	g = guest_current();		/* never run: the test plays its faults */
	KT_EXPECT_EQ(g->mem.shadow_quota, QUOTA_FRAMES);
	write_quota_tables(g);
	KT_EXPECT(shadow_cache_switch(&g->shadows, QUOTA_PD) != NULL);
	while (g->mem.shadow_frames < QUOTA_FRAMES - 1 &&
	       fault_new_slot(g, slot) == SHADOW_FILLED)
		slot++;
	KT_EXPECT_EQ(g->mem.shadow_frames, QUOTA_FRAMES - 1);

	/* One short: a new directory is refused, by the quota. */
	KT_EXPECT(shadow_cache_switch(&g->shadows, QUOTA_PD_NEW) == NULL);
	KT_EXPECT_EQ(g->mem.shadow_frames, QUOTA_FRAMES - 1);
	guest_stop_no_frame(g);
	KT_EXPECT(!strcmp(g->stop_reason, "its page tables reached their quota of 104 host frames"));
	if (strcmp(g->stop_reason, "its page tables reached their quota of 104 host frames"))
		printk("ktest:   stopped with '%s'\n", g->stop_reason);

	/* The last frame is given, the one after it refused. */
	KT_EXPECT_EQ(fault_new_slot(g, slot++), SHADOW_FILLED);
	KT_EXPECT_EQ(g->mem.shadow_frames, QUOTA_FRAMES);
	KT_EXPECT_EQ(fault_new_slot(g, slot++), SHADOW_NO_MEMORY);
	KT_EXPECT_EQ(g->mem.shadow_frames, QUOTA_FRAMES);
	KT_EXPECT(g->mem.quota_refused);

	guest_release();
	KT_EXPECT_EQ(g->state, GUEST_RELEASED);
	KT_EXPECT_EQ(pages_free_count(), before);
}

/* ---- no thread for it ---- */

static volatile bool fillers_may_end;

static void filler_thread(void)
{
	while (!fillers_may_end)
		sched_sleep_ticks(1);
}

KTEST(guest_launch_refused_with_no_task_slot)
{
	unsigned long before;
	struct tiny_image img;
	unsigned int fillers = 0;
	int err;

	KT_NOT_IN_GUEST("a guest cannot host: the Switcher runs at ring 0");
	SKIP_IF_GUEST_BUSY();
	before = settled_free_count();
	build_image(&img, spin_code, sizeof(spin_code));
	fillers_may_end = false;
	while (task_try_create_kernel("filler", filler_thread, &err))
		fillers++;
	KT_EXPECT_EQ(err, -EAGAIN);
	KT_EXPECT(fillers > 0);
	capture_start();
	err = guest_launch_image(&img, sizeof(img), "", GUESTMEM_MIN_MIB);
	capture_stop();
	fillers_may_end = true;
	if (err == -ENODEV || err == -ENOMEM) {
		KT_EXPECT(guest_current() == NULL);
		WAIT_FOR(!tasks_named("filler") && pages_free_count() == before);
		KT_EXPECT_EQ(pages_free_count(), before);
		KT_SKIP(err == -ENODEV ? NO_HOST :
			"no room for guest memory (guest_start_refused_without_room checks that)");
	}
	expect_no_thread(kt_ctx, err, -EAGAIN, "no task slot free for its thread");
	WAIT_FOR(!tasks_named("filler") && pages_free_count() == before);
	KT_EXPECT_EQ(tasks_named("filler"), 0);
	KT_EXPECT_EQ(pages_free_count(), before);
}

/* ---- stop, then start at once ---- */

KTEST(guest_stop_then_start_waits_for_release)
{
	unsigned int late;
	unsigned long before;
	struct tiny_image img;
	struct guest *g;
	int err;

	KT_NOT_IN_GUEST("a guest cannot host: the Switcher runs at ring 0");
	SKIP_IF_GUEST_BUSY();
	before = settled_free_count();
	build_image(&img, spin_code, sizeof(spin_code));
	err = guest_launch_image(&img, sizeof(img), "", GUESTMEM_MIN_MIB);
	if (err == -ENODEV)
		KT_SKIP(NO_HOST);
	if (err == -ENOMEM)
		KT_SKIP("no room for guest memory (guest_start_refused_without_room "
			"checks the refusal)");
	KT_EXPECT_EQ(err, 0);
	if (err)
		return;
	g = guest_current();
	WAIT_FOR(g->stats.exits > 0);
	KT_EXPECT(g->stats.exits > 0);		/* its thread runs it */

	/* As `guest stop` and `guest start` typed together: its thread has
	 * not run since, and holds it: the host refuses a new guest.  With
	 * more CPUs its thread may run on another one at once, so they are
	 * held still (at a safe point) for the two steps. */
	KT_EXPECT_EQ(stop_other_cpus(&late), 0);
	guest_stop(g, "stopped by the test");
	KT_EXPECT_EQ(guest_start_image(&img, sizeof(img), "", GUESTMEM_MIN_MIB), -EBUSY);
	KT_EXPECT_EQ(g->state, GUEST_STOPPED);
	/* Counted while the other CPUs are held: once they go on, its
	 * thread may let the guest go and end at once. */
	KT_EXPECT_EQ(tasks_named("guest"), 1);
	resume_other_cpus();

	/* A launch waits for that thread to let it go: a new guest, in one
	 * thread. */
	err = guest_launch_image(&img, sizeof(img), "", GUESTMEM_MIN_MIB);
	KT_EXPECT_EQ(err, 0);
	WAIT_FOR(g->stats.exits > 0 && tasks_named("guest") == 1);
	KT_EXPECT(g->stats.exits > 0);
	KT_EXPECT_EQ(tasks_named("guest"), 1);
	KT_EXPECT_EQ(g->state, GUEST_RUNNING);

	guest_stop(g, "stopped by the test, again");
	WAIT_FOR(g->state == GUEST_RELEASED && !tasks_named("guest"));
	KT_EXPECT_EQ(g->state, GUEST_RELEASED);
	KT_EXPECT_EQ(tasks_named("guest"), 0);

	/* A stopped guest that nothing lets go (one this test runs itself):
	 * a launch waits its while, then says busy. */
	KT_EXPECT_EQ(guest_start_image(&img, sizeof(img), "", GUESTMEM_MIN_MIB), 0);
	guest_stop(g, "stopped by the test, and held");
	capture_start();
	err = guest_launch_image(&img, sizeof(img), "", GUESTMEM_MIN_MIB);
	capture_stop();
	KT_EXPECT_EQ(err, -EBUSY);
	KT_EXPECT(captured_anywhere("host: no guest: a guest is running already, or the "
				    "stopped one's thread has not let it go yet"));
	KT_EXPECT_EQ(g->state, GUEST_STOPPED);
	guest_release();
	KT_EXPECT_EQ(g->state, GUEST_RELEASED);
	WAIT_FOR(pages_free_count() == before);
	KT_EXPECT_EQ(pages_free_count(), before);
}
