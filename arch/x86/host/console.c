/*
 * console.c - a guest's console on the host's: what the guest prints
 * (the console_write hypercall) comes out a line at a time, each marked
 * "guest: ", and what the host's `guest console` types goes into the
 * input ring of the guest's shared page, announced as its IRQ 4.
 */
#include <kernel.h>
#include <asm/atomic.h>
#include "host.h"

static void print_line(struct guest *g)
{
	g->line[g->line_len] = '\0';
	printk("guest: %s\n", g->line);
	g->line_len = 0;
}

/* The guest's text, a line at a time, each marked as the guest's.  A
 * control character becomes '?': the host's terminal is not the guest's
 * to drive (an escape sequence could redraw the host's own lines). */
void guest_console_output_locked(struct guest *g, const char *s, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\n')
			print_line(g);
		else if (c != '\r')
			g->line[g->line_len++] = (c >= ' ' && c < 0x7f) || c == '\t' ? c : '?';
		if (g->line_len == sizeof(g->line) - 1)
			print_line(g);
	}
}

/* The same, under guest_lock: guest_stop flushes the line from another
 * CPU perhaps. */
void guest_console_output(struct guest *g, const char *s, u32 n)
{
	unsigned long flags;

	spin_lock_irqsave_call(&guest_lock, &flags);
	guest_console_output_locked(g, s, n);
	spin_unlock_irqrestore_call(&guest_lock, flags);
}

/* Bytes typed for guest g (or none: NULL): into its input ring, then
 * IRQ 4.  How many it took, or -ESRCH if it is not running. */
int guest_console_input(struct guest *g, const char *s, unsigned int n)
{
	volatile struct guest_shared *sh;
	unsigned int taken = 0;
	unsigned long flags;

	spin_lock_irqsave_call(&guest_lock, &flags);	/* not released under us */
	sh = g ? g->shared : NULL;
	if (!sh || g->state != GUEST_RUNNING) {
		spin_unlock_irqrestore_call(&guest_lock, flags);
		return -ESRCH;
	}
	while (taken < n && sh->input_tail - sh->input_head < GUEST_INPUT_LEN) {
		sh->input[sh->input_tail % GUEST_INPUT_LEN] = s[taken++];
		sh->input_tail++;
	}
	atomic_or(&sh->irq_pending, 1u << GUEST_IRQ_CONSOLE);	/* the guest's thread clears bits */
	spin_unlock_irqrestore_call(&guest_lock, flags);
	return taken;
}
