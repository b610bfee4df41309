/*
 * paravirt.c - owns paravirt_ops, the table every privileged operation
 * goes through, and puts a backend's functions into it.
 *
 * _start calls paravirt_init() before any other C code, so the table is
 * complete before its first use, and checked: an empty op would be a call
 * to address 0, so a backend that leaves one is stopped at once.  Today the only backend is the native
 * one (native.c); later backends are chosen here too, which is why the
 * kernel calls through this one writable copy and never through a
 * backend's own table.
 */
#include <kernel.h>
#include <console.h>
#include <asm/paravirt.h>

struct paravirt_ops paravirt_ops;

extern const struct paravirt_ops native_paravirt_ops;

/* Every member after the name and kernel_rpl is a function pointer. */
#define PARAVIRT_FIRST_OP	offsetof(struct paravirt_ops, cpuid)
#define PARAVIRT_NR_OPS	\
	((sizeof(struct paravirt_ops) - PARAVIRT_FIRST_OP) / sizeof(void *))

static void *const *paravirt_op_slots(void)
{
	return (void *const *)((const char *)&paravirt_ops + PARAVIRT_FIRST_OP);
}

/* Nothing can be trusted yet, not even halting (it is an op): say so on
 * the serial line, which needs no op, and stop here. */
static void __noreturn paravirt_bad_backend(unsigned int op)
{
	char msg[80];

	snprintf(msg, sizeof(msg), "pv386: backend %s leaves op %u empty; stopped.\n",
		 paravirt_ops.name, op);
	serial_init();
	serial_puts(msg);
	for (;;)
		;
}

void paravirt_init(void)
{
	unsigned int i;

	paravirt_ops = native_paravirt_ops;
	for (i = 0; i < PARAVIRT_NR_OPS; i++)
		if (!paravirt_op_slots()[i])
			paravirt_bad_backend(i);
}

void paravirt_report(void)
{
	printk("paravirt: backend %s, %u ops\n", paravirt_ops.name, PARAVIRT_NR_OPS);
	paravirt_patch_report();
}
