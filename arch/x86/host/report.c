/*
 * report.c - the host's lines about what its guest did: a gate it
 * refused, an instruction it ran itself, a hypercall there is not.
 *
 * Each such line is the guest's to cause, as often as it likes: one
 * load_idt of 256 bad gates would be 256 lines, and a guest in a loop
 * could fill the host's console (and hold its interrupts off while
 * printk writes each one).  So every line about a guest goes through
 * guest_report(), which prints
 *
 *   - at most one line per exit (a hypercall with its whole queue, a
 *     trap): the rest of that exit's are counted, not printed;
 *   - at most REPORT_BURST lines at once, then one per REPORT_PERIOD_S
 *     seconds of the host's clock (a token bucket per guest, refilled by
 *     the host's timer ticks, which the guest cannot speed up or stop);
 *
 * and says how many it held back, "host: N lines about the guest
 * suppressed", before the guest runs again when the bucket allows it,
 * and when the guest stops whatever the bucket says.  The first line of
 * each kind a guest causes is printed whole, so the host's log still
 * names what it did.  A guest_stop() line is not one of these: a guest
 * stops once.  Nor is the guest's own console (guest.c), which is its
 * output, not the host's: bounded per call, paid for by the guest's own
 * time, each line marked as the guest's.
 */
#include <kernel.h>
#include <asm/timer.h>
#include "host.h"

#define REPORT_BURST	8	/* lines a guest may cause at once */
#define REPORT_PERIOD_S	1	/* then one line per period */
#define REPORT_LINE_MAX	160	/* longer ones are cut */

/* The tokens the host's clock has given back since the last refill. */
static void refill(struct guest_reports *r)
{
	unsigned long period = timer_hz() * REPORT_PERIOD_S;
	unsigned long regained;

	if (!period)
		period = 1;
	regained = (timer_ticks() - r->refilled) / period;
	if (!regained)
		return;
	r->spent = regained >= r->spent ? 0 : r->spent - regained;
	r->refilled += regained * period;
}

/* One line's token, if the bucket has one.  A zeroed guest_reports is
 * a full bucket: a new guest may say its first few things at once. */
static bool take_token(struct guest_reports *r)
{
	refill(r);
	if (r->spent >= REPORT_BURST)
		return false;
	r->spent++;
	return true;
}

void guest_report(struct guest *g, const char *fmt, ...)
{
	struct guest_reports *r = &g->reports;
	char line[REPORT_LINE_MAX];
	va_list ap;

	if (r->said_this_exit || !take_token(r)) {
		r->suppressed++;
		return;
	}
	r->said_this_exit = true;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	printk("host: %s\n", line);
}

static void print_suppressed(struct guest_reports *r)
{
	printk("host: %lu line%s about the guest suppressed\n", r->suppressed,
	       r->suppressed == 1 ? "" : "s");
	r->suppressed = 0;
}

/* Before each entry into the guest: a new exit may say one line, and
 * the count of those held back is told once the bucket has a token. */
void guest_report_resume(struct guest *g)
{
	struct guest_reports *r = &g->reports;

	r->said_this_exit = false;
	if (r->suppressed && take_token(r))
		print_suppressed(r);
}

/* The guest has stopped: the count is told now, token or not (once: a
 * stopped guest causes no more). */
void guest_report_end(struct guest *g)
{
	if (g->reports.suppressed)
		print_suppressed(&g->reports);
}
