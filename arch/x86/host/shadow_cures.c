/*
 * shadow_cures.c - the host's boot options that turn the shadows' cures
 * off for its guests, so that make bench can measure what each saves
 * (docs/guest.md, "What it costs"), as nofastswitch does the Switcher's:
 *
 *   noshadowshare   each shadow makes tables of its own for the guest's
 *                   kernel half: no shared tables (shadow_share.c);
 *   noshadowspares  a shadow's frames go back to the host at once, and
 *                   each new one comes from the page allocator;
 *   noprefill       a changed page-table entry's shadow is forgotten,
 *                   never made again at once (page_tables.c).
 *
 * Read at each guest's start, into the guest's own structures; no fault
 * or hypercall asks the options themselves.  They make a guest slower,
 * never more correct.
 */
#include <kernel.h>
#include <cmdline.h>
#include "host.h"

static bool no_share, no_spares, no_prefill;

/* Each option's handler: its cure off. */
static int cure_off(bool *flag)
{
	*flag = true;
	return 0;
}

static int set_noshadowshare(const char *v)	{ (void)v; return cure_off(&no_share); }
static int set_noshadowspares(const char *v)	{ (void)v; return cure_off(&no_spares); }
static int set_noprefill(const char *v)		{ (void)v; return cure_off(&no_prefill); }
boot_option("noshadowshare", set_noshadowshare,
	    "a host: each shadow of a guest makes its own tables for the kernel half");
boot_option("noshadowspares", set_noshadowspares,
	    "a host: a guest's shadow frames go back to the host at once (no spares)");
boot_option("noprefill", set_noprefill,
	    "a host: a guest's changed page-table entries are forgotten, not made again");

/* The cures for the guest whose shadows c holds, as the options say,
 * each one off said so. */
void shadow_cures_choose(struct shadow_cache *c)
{
	c->shares.no_sharing = no_share;
	c->shares.no_prefill = no_prefill;
	c->mem->no_spares = no_spares;
	if (no_share)
		printk("host: the guest's kernel tables are not shared among its shadows "
		       "(noshadowshare): each shadow fills its own\n");
	if (no_spares)
		printk("host: the guest's shadows keep no spare frames (noshadowspares): "
		       "each frame goes back to the host at once\n");
	if (no_prefill)
		printk("host: the guest's changed page-table entries are not made again "
		       "(noprefill): each is forgotten\n");
}
