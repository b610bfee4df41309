/*
 * test_guest_fuzz.c - the host's side of the guest fuzzer
 * (docs/guest.md): start the fuzzing guest (tests/guestfuzz/, packed into this
 * kernel by guestfuzz_image.S) life after life, run it, and between its
 * batches check that the host is still itself.
 *
 * The guest judges what it sees (its trap frames, registers, page-fault
 * addresses, instructions that must fault) and counts its findings in
 * the report page (tests/guestfuzz/report.h).  The host checks what
 * only it can: after every batch, that another host thread still runs,
 * that its clock has not run ahead of the TSC (a host that takes a
 * guest's trap for its own timer interrupt does), that it printed no
 * "unexpected IRQ"; when the guest stops, that the host stopped it for
 * a reason a guest can give (a refusal, or its own exit), not for one
 * that means the host lost track ("a frame that is not a guest's", a
 * double fault, no gate where the fuzzer has all 256); after each life,
 * that every page and task slot came back; at the end, that one more
 * guest starts and ends as it should.
 *
 * Runs only when named, for as long as asked:
 *
 *     test=guest_fuzz guestfuzz=seed=S,seconds=T[,life=L][,lives=N][,families=M]
 *
 * Each failure names the seed and life, and the line that replays it.
 */
#include <ktest.h>
#include <cmdline.h>
#include <page_alloc.h>
#include <math64.h>
#include <string.h>
#include <task.h>
#include <asm/cpu.h>
#include <asm/hypercall.h>
#include "../../arch/x86/host/host.h"	/* the host's own: tests reach in */
#include <asm/timer.h>
#include "console_capture.h"
#include "../guestfuzz/report.h"

#define GUESTFUZZ_MIB		GUESTMEM_MIN_MIB
#define BATCHES_PER_LIFE	6
#define LIFE_LIMIT_S		60	/* a life's batches take a few seconds */
#define CLOCK_SLACK_TICKS	10	/* ticks the host's clock may run ahead */
#define FAILURES_SHOWN		12	/* a run goes on after one, to name more */

extern const u8 guestfuzz_image[], guestfuzz_image_end[];

static struct {
	unsigned long seed, seconds, life, lives, families;
} opt = { 1, 20, 0, 0, 0xffffffff };

static char *find_char(char *s, char c)
{
	for (; *s; s++)
		if (*s == c)
			return s;
	return NULL;
}

/* guestfuzz=seed=S,seconds=T,life=L,lives=N,families=M (each optional;
 * families, a mask of the fuzzer's enum family, only to look past a
 * known defect by hand). */
static int parse_guestfuzz(const char *value)
{
	char buf[96], *item, *next;

	if (!value || strlen(value) >= sizeof(buf))
		return -EINVAL;
	strlcpy(buf, value, sizeof(buf));
	for (item = buf; item; item = next) {
		unsigned long *field = NULL;
		char *eq = find_char(item, '=');

		next = find_char(item, ',');
		if (next)
			*next++ = '\0';
		if (!eq)
			return -EINVAL;
		*eq = '\0';
		if (!strcmp(item, "seed"))
			field = &opt.seed;
		else if (!strcmp(item, "seconds"))
			field = &opt.seconds;
		else if (!strcmp(item, "life"))
			field = &opt.life;
		else if (!strcmp(item, "lives"))
			field = &opt.lives;
		else if (!strcmp(item, "families"))
			field = &opt.families;
		if (!field || parse_ulong(eq + 1, field))
			return -EINVAL;
	}
	return 0;
}
boot_option("guestfuzz", parse_guestfuzz,
	    "the guest fuzzer's run in test=guest_fuzz: seed=S,seconds=T[,life=L][,lives=N]");

/* ---- a host thread that must keep running beside the guest ---- */

static volatile unsigned long beats;
static volatile bool heart_stop, heart_stopped;

static void heartbeat(void)
{
	while (!heart_stop) {
		beats++;
		sched_sleep_ticks(1);
	}
	heart_stopped = true;
}

/* ---- the host's state, before and after ---- */

/* Free pages; if fewer than expected, again once the idle task has
 * collected what exited. */
static unsigned long free_pages_settled(unsigned long expected)
{
	if (pages_free_count() != expected)
		sched_sleep_ticks(2);
	return pages_free_count();
}

/* ---- one run ---- */

struct run {
	struct ktest_ctx *kt_ctx;
	u32 tsc_per_tick;		/* 0: no TSC, no clock check */
	unsigned long pages, slots;	/* the host's, before any guest */
	unsigned int failures;
	u32 lives, batches, probes, findings, irqs;
};

/* A failure, with the line that replays its life. */
static void fail(struct run *run, u32 life, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct run *run, u32 life, const char *fmt, ...)
{
	char text[200];
	va_list ap;

	run->kt_ctx->failures++;
	if (run->failures++ >= FAILURES_SHOWN)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	printk("ktest:   guestfuzz seed %lu life %u: %s\n", opt.seed, life, text);
	if (opt.families == 0xffffffff)
		printk("ktest:   replay: make fuzz-guest FUZZ_SEED=%lu FUZZ_LIFE=%u FUZZ_LIVES=1 "
		       "(test=guest_fuzz guestfuzz=seed=%lu,life=%u,lives=1)\n", opt.seed, life,
		       opt.seed, life);
	else
		printk("ktest:   replay: make fuzz-guest FUZZ_SEED=%lu FUZZ_LIFE=%u FUZZ_LIVES=1 "
		       "FUZZ_FAMILIES=%lu\n", opt.seed, life, opt.families);
}

/* TSC counts per host tick, measured on a quiet host. */
static u32 measure_tsc_per_tick(void)
{
	u64 t0, t1;
	unsigned long start;

	if (!clock_tsc(&t0))
		return 0;
	sched_sleep_ticks(1);
	start = timer_ticks();
	clock_tsc(&t0);
	sched_sleep_ticks(20);
	clock_tsc(&t1);
	t1 -= t0;
	div64_u32_rem(&t1, timer_ticks() - start);
	return t1 >> 32 ? 0 : (u32)t1;
}

/* Where a batch began: the host's clock, its TSC, the heartbeat. */
struct mark {
	unsigned long ticks, beats;
	u64 tsc;
};

static void mark_now(struct mark *mk)
{
	mk->ticks = timer_ticks();
	mk->beats = beats;
	mk->tsc = 0;
	clock_tsc(&mk->tsc);
	capture_start();
}

/*
 * After a batch: the heartbeat thread ran if the clock moved on; the
 * clock moved no faster than the TSC says time went (fake ticks are a
 * host taking a guest's trap for its timer's interrupt); the host
 * printed nothing about interrupts that never came.
 */
static void check_batch(struct run *run, u32 life, const struct mark *mk)
{
	unsigned long ticks = timer_ticks() - mk->ticks;
	u64 tsc = 0;

	capture_stop();
	if (ticks >= 3 && beats == mk->beats)
		fail(run, life, "another host thread did not run in %lu ticks", ticks);
	if (run->tsc_per_tick && clock_tsc(&tsc)) {
		unsigned long by_tsc;

		tsc -= mk->tsc;
		div64_u32_rem(&tsc, run->tsc_per_tick);
		by_tsc = (unsigned long)tsc;

		if (ticks > 3 * by_tsc + CLOCK_SLACK_TICKS)
			fail(run, life, "the host's clock ran %lu ticks while its TSC counted %lu "
			     "ticks' worth (fake timer interrupts)", ticks, by_tsc);
	}
	if (captured_anywhere("irq: unexpected"))
		fail(run, life, "the host handled an interrupt that never came (irq: unexpected)");
	if (captured_anywhere("KERNEL PANIC") || captured_anywhere("trap:"))
		fail(run, life, "the host trapped while the guest ran");
}

/* The hypercalls' names, as asm/hypercall.h lists them (the host names
 * the call first when it refuses one). */
#define HCALL_NAME(name)	#name,
static const char *const hypercall_names[] = { HYPERCALLS(HCALL_NAME) };

/* Reasons that mean the host lost track of the guest, whatever form
 * they take: never a guest's doing (run.c, world_switch.S). */
static const char *const host_lost_track[] = {
	"a frame that is not a guest's", "a trap whose frame the CPU did not push whole",
	"the host is out of memory",
};

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* "trap N: its ...": what the guest's own state did to a trap of its. */
static bool trap_of_its_own(const char *reason)
{
	if (!starts_with(reason, "trap ") || reason[5] < '0' || reason[5] > '9')
		return false;
	for (reason += 5; *reason >= '0' && *reason <= '9'; reason++)
		;
	return starts_with(reason, ": its ");
}

/* A refusal of a hypercall: the call's name first ("write_cr3: ...",
 * "set_stack ..."), or the table entry a write_*_entry gave, or the
 * queue's count. */
static bool hypercall_refused(const char *reason)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hypercall_names); i++) {
		size_t n = strlen(hypercall_names[i]);

		if (!strncmp(reason, hypercall_names[i], n) && (reason[n] == ':' || reason[n] == ' '))
			return true;
	}
	return starts_with(reason, "GDT entry ") || starts_with(reason, "LDT entry ") ||
	       starts_with(reason, "IDT gate ") || strstr(reason, " calls in a queue of ");
}

/*
 * Whether the host stopped the guest for the guest's own doing, read by
 * the form of the host's reason rather than a list of its sentences, so
 * that a new refusal of the same form needs nothing here:
 *   - never one of host_lost_track[], whatever else it says;
 *   - a hypercall refused: hypercall_refused();
 *   - the guest's own state, which the host words as "its ..." ("its page
 *     tables map ...", "its page directory maps ... (PS=1)"), or "trap N:
 *     its ..." (its stack);
 *   - its own request ("it asked to stop: "), or a wait of its own that
 *     cannot end ("halted with interrupts off", "interrupts off for ");
 *   - a double fault right after the fuzzer's own hypercalls, which may
 *     have made its own code or stack segment one the CPU cannot return
 *     to (a PC would triple-fault).
 * Any other reason is a failure, and names itself: a stop of a new form
 * for a guest's misdeed is added here by its form, with the host line
 * that shows it.
 */
static bool stop_expected(const char *reason, const struct fuzz_report *r)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(host_lost_track); i++)
		if (starts_with(reason, host_lost_track[i]))
			return false;
	if (hypercall_refused(reason) || starts_with(reason, "its ") || trap_of_its_own(reason))
		return true;
	if (starts_with(reason, "it asked to stop: ") ||
	    starts_with(reason, "halted with interrupts off") ||
	    starts_with(reason, "interrupts off for "))
		return true;
	if (starts_with(reason, "double fault at "))
		return r->last.family == F_HCALL || r->last.family == F_QUEUE;
	return false;
}

static const struct fuzz_report *report_of(struct guest *g)
{
	const struct fuzz_report *r = guest_memory_ptr(&g->mem, FUZZ_REPORT_GPA, sizeof(*r));

	return r && r->magic == FUZZ_REPORT_MAGIC ? r : NULL;
}

/* What the life's last probe was, when the host stopped it unexpectedly. */
static void show_last_probe(const struct fuzz_report *r)
{
	const struct fuzz_probe_note *n = &r->last;
	unsigned int i;

	printk("ktest:   its last probe: family %u ring %u, eax %08x ebx %08x ecx %08x "
	       "edx %08x ds %04x es %04x fs %04x gs %04x eflags %08x, code", n->family, n->ring,
	       n->eax, n->ebx, n->ecx, n->edx, n->ds & 0xffff, n->es & 0xffff, n->fs & 0xffff,
	       n->gs & 0xffff, n->eflags);
	for (i = 0; i < n->len && i < sizeof(n->code); i++)
		printk(" %02x", n->code[i]);
	printk("\n");
}

/* Run the guest to its end, checking the host after each batch. */
static void run_guest(struct run *run, struct guest *g, u32 life)
{
	unsigned long start = timer_ticks();
	u32 batches = 0;
	struct mark mk;

	mark_now(&mk);
	while (g->state == GUEST_RUNNING) {
		const struct fuzz_report *r;

		guest_run(g);
		r = report_of(g);
		if (r && r->batches != batches) {
			batches = r->batches;
			check_batch(run, life, &mk);
			mark_now(&mk);
		}
		if (timer_ticks() - start > LIFE_LIMIT_S * timer_hz())
			guest_stop(g, "guestfuzz: still running after %u s", LIFE_LIMIT_S);
		if (g->halted)
			sched_sleep_ticks(1);
		else
			sched_yield();
	}
	check_batch(run, life, &mk);
}

/* One life: started, run, judged, released; false if it would not start. */
static bool life(struct run *run, u32 n, unsigned int batches)
{
	char cmdline[64];
	const struct fuzz_report *r;
	struct guest *g;
	int err;

	snprintf(cmdline, sizeof(cmdline), "seed=%lu life=%u batches=%u families=%lu", opt.seed,
		 n, batches, opt.families);
	err = guest_start_image(guestfuzz_image, guestfuzz_image_end - guestfuzz_image, cmdline,
				GUESTFUZZ_MIB);
	if (err) {
		fail(run, n, "the guest did not start: error %d", err);
		return false;
	}
	g = guest_current();
	run_guest(run, g, n);
	r = report_of(g);
	if (!r) {
		fail(run, n, "no report page (never made, or overwritten) when it stopped: %s",
		     g->stop_reason);
	} else {
		run->batches += r->batches;
		run->probes += r->probes;
		run->irqs += r->irqs;
		run->findings += r->findings;
		if (r->findings)
			fail(run, n, "%u findings in the guest, the first: %s", r->findings, r->first);
		if (!stop_expected(g->stop_reason, r)) {
			fail(run, n, "the host stopped it: %s", g->stop_reason);
			if (run->failures <= FAILURES_SHOWN)
				show_last_probe(r);
		}
	}
	guest_release();
	run->lives++;
	return true;
}

/* Every page and task slot back after a life. */
static void check_leaks(struct run *run, u32 n)
{
	unsigned long pages = free_pages_settled(run->pages), slots = task_slots_free();

	if (pages != run->pages || slots != run->slots) {
		fail(run, n, "the host has %lu free pages and %lu task slots, %lu and %lu before",
		     pages, slots, run->pages, run->slots);
		run->pages = pages;
		run->slots = slots;
	}
}

KTEST_ALONE(guest_fuzz)
{
	struct run run = { .kt_ctx = kt_ctx };
	unsigned long deadline;
	u32 n;

	KT_NOT_IN_GUEST("a guest cannot host: the Switcher runs at ring 0");
	if (guest_current() && guest_current()->state == GUEST_RUNNING)
		KT_SKIP("a guest is running");
	if (!cpu_has_write_protect())
		KT_SKIP("no guest can start here (no CR0.WP that holds)");
	heart_stop = heart_stopped = false;
	task_create_kernel("heartbeat", heartbeat);
	run.tsc_per_tick = measure_tsc_per_tick();
	run.pages = free_pages_settled(0);
	run.slots = task_slots_free();
	printk("guestfuzz: seed %lu, %lu s from life %lu%s%s\n", opt.seed, opt.seconds, opt.life,
	       opt.families == 0xffffffff ? "" : ", not every family",
	       run.tsc_per_tick ? "" : " (no TSC: no clock check)");
	deadline = timer_ticks() + opt.seconds * timer_hz();
	for (n = opt.life; opt.lives ? n < opt.life + opt.lives : timer_ticks() < deadline; n++) {
		if (!life(&run, n, BATCHES_PER_LIFE))
			break;
		check_leaks(&run, n);
	}
	/* And the next guest starts, and ends as it asks. */
	if (life(&run, n, 0) && !run.failures)
		KT_EXPECT(!strcmp(guest_current()->stop_reason,
				  "it asked to stop: emulator exit (value 0x10)"));
	check_leaks(&run, n);
	heart_stop = true;
	while (!heart_stopped)
		sched_sleep_ticks(1);
	printk("guestfuzz: seed %lu: %u lives, %u batches, %u probes, %u interrupts, "
	       "%u findings, %u failures\n", opt.seed, run.lives, run.batches, run.probes,
	       run.irqs, run.findings, run.failures);
}
