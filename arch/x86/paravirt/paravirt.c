/*
 * paravirt.c - owns paravirt_ops, the table every privileged operation
 * goes through: its slots, the names of its ops, and what a call to an
 * empty op does.
 *
 * _start calls paravirt_init() before any other C code, so the table is
 * complete before its first use, and checked: an empty op would be a
 * call to address 0, so a backend that leaves one is stopped at once.
 * The table starts native (backends/native.c); kmain then puts in the
 * backend the pv= boot option names (backends.c), and `pv use` another
 * one later (switch.c), always through install.c.  The kernel always
 * calls through this one writable copy, never through a backend's own
 * table.
 */
#include <kernel.h>
#include <console.h>
#include <panic.h>
#include <asm/paravirt.h>
#include <asm/processor.h>

struct paravirt_ops paravirt_ops;


/* The ops fill the table from PARAVIRT_FIRST_OP_SLOT to its end, one
 * pointer each: a slot number is an offset / 4 (the asm sites compute it
 * that way), and the site records and the empty-op stub (push imm8) hold
 * it in a signed byte. */
#define ASSERT_OP_SLOT(op, ret, params)					\
	_Static_assert(offsetof(struct paravirt_ops, op) % sizeof(void *) == 0, \
		       #op " is not on a slot boundary");
PARAVIRT_OPS(ASSERT_OP_SLOT)
_Static_assert(offsetof(struct paravirt_ops, eager_fpu) + sizeof(void *) ==
	       PARAVIRT_FIRST_OP_SLOT * sizeof(void *),
	       "something but name, kernel_rpl and eager_fpu precedes the ops");
_Static_assert(PARAVIRT_NR_SLOTS <= 127, "paravirt_ops has too many slots");

/* Generated from the one list of ops, so a name cannot drift from its
 * slot. */
#define OP_NAME(op, ret, params)	[PARAVIRT_SLOT(op)] = #op,
static const char *const op_names[PARAVIRT_NR_SLOTS] = {
	PARAVIRT_OPS(OP_NAME)
};

const char *paravirt_op_name(unsigned int slot)
{
	return slot < PARAVIRT_NR_SLOTS && op_names[slot] ? op_names[slot] : "?";
}

/* Nothing can be trusted yet, not even halting (it is an op): say so on
 * the serial line, which needs no op, and stop here. */
static void __noreturn paravirt_bad_backend(const struct paravirt_ops *ops,
						unsigned int slot)
{
	char msg[96];

	snprintf(msg, sizeof(msg),
		 "pv386: backend %s leaves op %s (slot %u) empty; stopped.\n",
		 ops->name, paravirt_op_name(slot), slot);
	serial_init();
	serial_puts(msg);
	for (;;)
		;
}

/*
 * The table the kernel boots on: native, or the guest backend's when
 * this kernel runs at ring 1 under a pv386 host, where a native
 * instruction would be the first #GP (backends/guest.c).
 */
static const struct paravirt_ops *boot_ops(void)
{
	const struct paravirt_backend *b = paravirt_find_backend(paravirt_ring_backend());
	const struct paravirt_ops *ops = NULL;
	const char *why;

	if (b)
		ops = b->prepare(&why);
	return ops ? ops : &native_paravirt_ops;
}

void paravirt_init(void)
{
	const struct paravirt_ops *ops = boot_ops();
	unsigned int empty = paravirt_first_empty_op(ops);

	if (empty)
		paravirt_bad_backend(ops, empty);
	paravirt_install_ops(ops);
}

/*
 * Reached through paravirt_empty_op_entry (ops_entry.S), which the
 * patcher makes a site of an empty op call.  No table with an empty op
 * is ever installed (paravirt_init, backends.c), so this is for a table
 * changed some other way: it stops the kernel, naming the op and the
 * site that called it.
 */
void paravirt_empty_op(unsigned int slot, u32 site)
{
	panic("paravirt: op %s is empty (slot %u), called from the site at %08x",
	      paravirt_op_name(slot), slot, site);
}
