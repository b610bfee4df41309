/*
 * irq_window.c - the pending check of a guest's interrupt flag, made by
 * the MMU: the moment the guest can take an interrupt that waits.
 *
 * A guest's IF is a word in its shared flag page (asm/hypercall.h), and
 * every way it turns IF on is one store, the ones at irq_enable's sites
 * inline: no test of what waits follows (lguest once shipped an
 * irq_enable without one, and an interrupt that came while it was off
 * waited for the next).  Instead, before each entry, if an interrupt
 * waits that the guest's IF holds back, the host makes the flag page
 * read-only in the shadow the guest runs on.  The guest's next store
 * there - in practice the one that turns IF on - traps as a page fault;
 * the shadow fills the page writable as the guest's tables allow, the
 * host sets the trap flag, the store runs, and the debug trap after it
 * brings the host back to deliver, if IF is now on.  VT-x calls this an
 * interrupt-window exit; here the MMU is the hardware for it.
 *
 * The guest maps its memory 1:1, so the flag page's gpa is its va too.
 * A guest that maps it elsewhere as well can store there without a trap
 * and only delays its own interrupts.
 */
#include <kernel.h>
#include <asm/processor-flags.h>
#include "host.h"

/* An interrupt waits, unmasked, and the guest's IF holds it back. */
static bool interrupt_held_back(const struct guest *g)
{
	volatile struct guest_shared *s = g->shared;

	return s && !(s->irq_enabled & X86_EFLAGS_IF) && (s->irq_pending & ~s->irq_masked);
}

/* Before each entry: the flag page read-only exactly while one is held
 * back (and not while the store let through has yet to run). */
void irq_window_arm(struct guest *g)
{
	if (g->window_step)
		return;
	if (interrupt_held_back(g)) {
		shadow_write_protect(g->shadows.active, g->flag_page);
		g->window_armed = true;
	} else if (g->window_armed) {
		shadow_cache_forget(&g->shadows, g->flag_page);	/* refills writable */
		g->window_armed = false;
	}
}

/* A page fault the shadow has just filled: if it was a store to the
 * armed flag page, let that one instruction run, then come back. */
void irq_window_fault(struct guest *g, struct pt_regs *r, u32 cr2)
{
	if (!g->window_armed || (cr2 & PAGE_MASK) != g->flag_page ||
	    !(r->error_code & PF_WRITE))
		return;
	g->window_keeps_tf = r->eflags & X86_EFLAGS_TF;
	r->eflags |= X86_EFLAGS_TF;
	g->window_step = true;
	g->stats.irq_windows++;
}

/* A debug trap: true if it is only the step irq_window_fault() asked
 * for (run.c then delivers what waits, if the store turned IF on); a
 * guest that was single-stepping itself gets its trap as ever. */
bool irq_window_stepped(struct guest *g, struct pt_regs *r)
{
	if (!g->window_step)
		return false;
	g->window_step = false;
	if (g->window_keeps_tf)
		return false;
	r->eflags &= ~X86_EFLAGS_TF;
	return true;
}
