/*
 * paravirt.c - owns paravirt_ops, the table every privileged operation
 * goes through, and puts a backend's functions into it.
 *
 * _start calls paravirt_init() before any other C code, so the table is
 * complete before its first use.  Today the only backend is the native
 * one (native.c); later backends are chosen here too, which is why the
 * kernel calls through this one writable copy and never through a
 * backend's own table.
 */
#include <kernel.h>
#include <asm/paravirt.h>

struct paravirt_ops paravirt_ops;

extern const struct paravirt_ops native_paravirt_ops;

/* Every member after the name and kernel_rpl is a function pointer. */
#define PARAVIRT_FIRST_OP	offsetof(struct paravirt_ops, cpuid)
#define PARAVIRT_NR_OPS	\
	((sizeof(struct paravirt_ops) - PARAVIRT_FIRST_OP) / sizeof(void *))

void paravirt_init(void)
{
	paravirt_ops = native_paravirt_ops;
}

/* An empty op is a backend bug: its patched sites call a stub that
 * panics, and its unpatched ones jump to 0.  Say so at boot. */
void paravirt_report(void)
{
	void *const *op = (void *const *)((const char *)&paravirt_ops +
					   PARAVIRT_FIRST_OP);
	unsigned int i;

	printk("paravirt: backend %s, %u ops\n", paravirt_ops.name, PARAVIRT_NR_OPS);
	for (i = 0; i < PARAVIRT_NR_OPS; i++)
		if (!op[i])
			printk("paravirt: warning: op in slot %u is empty\n",
			       i + PARAVIRT_FIRST_OP / (unsigned int)sizeof(void *));
	paravirt_patch_report();
}
