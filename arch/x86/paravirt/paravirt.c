/*
 * paravirt.c - owns paravirt_ops, the table every privileged operation
 * goes through, and puts the backend pv= names into it at boot.
 *
 * _start calls paravirt_init() before any other C code, so the table is
 * complete before its first use, and checked: an empty op would be a call
 * to address 0, so a backend that leaves one is stopped at once.  The
 * table starts native (native.c); kmain then calls
 * paravirt_choose_backend(), before the patcher, to put in the backend
 * the pv= boot option names (paravirt/switch.c changes it later, for
 * `pv use`).  The kernel always calls through this one writable copy,
 * never through a backend's own table.  The ops' names are in
 * paravirt/op_names.c.
 */
#include <kernel.h>
#include <cmdline.h>
#include <console.h>
#include <string.h>
#include <asm/paravirt.h>

struct paravirt_ops paravirt_ops;

extern const struct paravirt_ops native_paravirt_ops;

/* The ops fill the table from PARAVIRT_FIRST_OP_SLOT to its end, one
 * pointer each: a slot number is an offset / 4 (the asm sites compute it
 * that way), and the site records and the NULL-op stub (push imm8) hold
 * it in a signed byte. */
#define ASSERT_OP_SLOT(op, ret, params)					\
	_Static_assert(offsetof(struct paravirt_ops, op) % sizeof(void *) == 0, \
		       #op " is not on a slot boundary");
PARAVIRT_OPS(ASSERT_OP_SLOT)
_Static_assert(offsetof(struct paravirt_ops, kernel_rpl) + sizeof(unsigned int) ==
	       PARAVIRT_FIRST_OP_SLOT * sizeof(void *),
	       "something but name and kernel_rpl precedes the ops");
_Static_assert(PARAVIRT_NR_SLOTS <= 127, "paravirt_ops has too many slots");

unsigned int paravirt_first_empty_op(const struct paravirt_ops *ops)
{
	void *const *slots = (void *const *)ops;
	unsigned int slot;

	for (slot = PARAVIRT_FIRST_OP_SLOT; slot < PARAVIRT_NR_SLOTS; slot++)
		if (!slots[slot])
			return slot;
	return 0;
}

/* Nothing can be trusted yet, not even halting (it is an op): say so on
 * the serial line, which needs no op, and stop here. */
static void __noreturn paravirt_bad_backend(unsigned int slot)
{
	char msg[96];

	snprintf(msg, sizeof(msg),
		 "pv386: backend %s leaves op %s (slot %u) empty; stopped.\n",
		 paravirt_ops.name, paravirt_op_name(slot), slot);
	serial_init();
	serial_puts(msg);
	for (;;)
		;
}

void paravirt_init(void)
{
	unsigned int empty;

	paravirt_ops = native_paravirt_ops;
	empty = paravirt_first_empty_op(&paravirt_ops);
	if (empty)
		paravirt_bad_backend(empty);
}

/* ---- choosing a backend at boot: pv=NAME ---- */

static char wanted[16] = "native";
static const char *refusal;	/* why the wanted backend is not running */

static int parse_pv(const char *value)
{
	if (value && *value && strlen(value) < sizeof(wanted))
		strlcpy(wanted, value, sizeof(wanted));
	else
		refusal = "pv= needs the name of a backend";
	return 0;
}
early_boot_option("pv", parse_pv, "the paravirt backend: native, trace or rom");

const struct paravirt_backend *paravirt_find_backend(const char *name)
{
	const struct paravirt_backend *b;

	for_each_paravirt_backend(b)
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}

/*
 * Put the backend pv= named into the table, or stay native and keep the
 * reason for paravirt_report().  Runs before the patcher and before the
 * console: nothing is printed here, and no site has been patched yet.
 */
void paravirt_choose_backend(void)
{
	const struct paravirt_backend *b = paravirt_find_backend(wanted);
	const struct paravirt_ops *ops;

	if (!b) {
		refusal = refusal ? refusal : "no such backend";
		return;
	}
	ops = b->prepare(&refusal);
	if (!ops)
		return;
	if (paravirt_first_empty_op(ops)) {
		refusal = "its table leaves an op empty";
		return;
	}
	paravirt_install_ops(ops);	/* behind the opcount stubs, if counting */
}

void paravirt_report(void)
{
	if (strcmp(wanted, paravirt_ops.name))
		printk("paravirt: backend %s refused (%s): staying %s\n", wanted,
		       refusal ? refusal : "it cannot run here", paravirt_ops.name);
	printk("paravirt: backend %s, %u ops\n", paravirt_ops.name, PARAVIRT_NR_OPS);
	paravirt_patch_report();
}
