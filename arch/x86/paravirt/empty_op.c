/*
 * empty_op.c - what a call to an empty op of the table does: it
 * stops the kernel, naming the op and the site that called it.
 *
 * The patcher makes a site whose op is NULL call paravirt_null_op_entry
 * (paravirt_entry.S), which pushes the slot and comes here.  A file of
 * its own, so that the stub's callee is not the patcher that points
 * sites at the stub (no call loop).
 */
#include <kernel.h>
#include <panic.h>
#include <asm/paravirt.h>

/*
 * Reached through paravirt_null_op_entry from a site whose op is NULL.
 * paravirt_init() refuses a backend with an empty op, so at boot this
 * cannot happen; it is for a table changed later (live switching).
 */
void paravirt_null_op(unsigned int slot, u32 site)
{
	panic("paravirt: op %s is empty (slot %u), called from the site at %08x",
	      paravirt_op_name(slot), slot, site);
}
