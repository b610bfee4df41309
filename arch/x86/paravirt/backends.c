/*
 * backends.c - the backends pv386 knows, and the one pv= chooses at boot.
 *
 * Each backend file (backends/native.c, trace.c, rom.c) declares itself
 * with paravirt_backend(); the linker gathers them in the .pv_backends
 * section, so adding a backend touches no list.  Preparing one by name
 * is the same at boot (pv=) and for a live switch (switch.c): the
 * backend builds its table or says why it cannot run here, and a table
 * that leaves an op empty is refused before it can be installed.
 */
#include <kernel.h>
#include <cmdline.h>
#include <string.h>
#include <asm/paravirt.h>
#include <asm/processor.h>

const struct paravirt_backend *paravirt_find_backend(const char *name)
{
	const struct paravirt_backend *b;

	for_each_paravirt_backend(b)
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}

const char *paravirt_ring_backend(void)
{
	return current_ring() == 0 ? "native" : "guest";
}

/* A complete table answers 0: slot 0 is the name, never an op. */
unsigned int paravirt_first_empty_op(const struct paravirt_ops *ops)
{
	void *const *slots = (void *const *)ops;
	unsigned int slot;

	for (slot = PARAVIRT_FIRST_OP_SLOT; slot < PARAVIRT_NR_SLOTS; slot++)
		if (!slots[slot])
			return slot;
	return 0;
}

const struct paravirt_ops *paravirt_prepare_backend(const char *name, const char **why,
						    int *err)
{
	const struct paravirt_backend *b = paravirt_find_backend(name);
	const struct paravirt_ops *ops;

	*err = -ENOENT;
	if (!b) {
		*why = "no such backend";
		return NULL;
	}
	*err = -EINVAL;
	*why = "it cannot run here";	/* unless the backend says better */
	ops = b->prepare(why);
	if (ops && paravirt_first_empty_op(ops)) {
		*why = "its table leaves an op empty";
		return NULL;
	}
	return ops;
}

/* ---- choosing a backend at boot: pv=NAME ---- */

/* Empty: the backend the kernel booted on (native, or guest at ring 1). */
static char wanted[16];
static const char *refusal;	/* why the wanted backend is not running */

static int parse_pv(const char *value)
{
	if (value && *value && strlen(value) < sizeof(wanted))
		strlcpy(wanted, value, sizeof(wanted));
	else
		refusal = "pv= needs the name of a backend";
	return 0;
}
early_boot_option("pv", parse_pv, "the paravirt backend: native, trace, rom or guest");

/*
 * Put the backend pv= named into the table, or stay on the ring's and
 * keep the reason for paravirt_backend_report().  Runs after cpu_detect,
 * before the patcher and before the console: nothing is printed here,
 * and no site has been patched yet.  Staying, the ring's backend is
 * prepared again: its boot table (paravirt_init) was made before the
 * CPU was known, with the lock draws that are right for one CPU, and
 * now it gets the ones this machine needs (spin_choose_draw_ops).
 */
void paravirt_choose_backend(void)
{
	const struct paravirt_ops *ops;
	const char *why;
	int err;

	if (!refusal && wanted[0]) {
		ops = paravirt_prepare_backend(wanted, &why, &err);
		if (ops) {
			paravirt_install_ops(ops);
			return;
		}
		refusal = why;
	}
	ops = paravirt_prepare_backend(paravirt_ring_backend(), &why, &err);
	if (ops)
		paravirt_install_ops(ops);
}

void paravirt_backend_report(void)
{
	const struct paravirt_backend *b = paravirt_find_backend(paravirt_ops.name);

	if (wanted[0] && strcmp(wanted, paravirt_ops.name))
		printk("paravirt: backend %s refused (%s): staying %s\n", wanted,
		       refusal ? refusal : "it cannot run here", paravirt_ops.name);
	printk("paravirt: backend %s, %u ops\n", paravirt_ops.name, PARAVIRT_NR_OPS);
	if (b && b->report)
		b->report();
}
