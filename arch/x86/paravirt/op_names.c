/*
 * op_names.c - the name of each op of paravirt_ops, by slot.
 *
 * Generated from the one list of ops (PARAVIRT_OPS in asm/paravirt.h),
 * so a name cannot drift from its slot.  A file of its own because
 * everything that talks about ops uses it - the table's owner, the
 * patcher, opcount, the trace backend's reports - and it uses nothing.
 */
#include <kernel.h>
#include <asm/paravirt.h>

#define OP_NAME(op, ret, params)	[PARAVIRT_SLOT(op)] = #op,
static const char *const op_names[PARAVIRT_NR_SLOTS] = {
	PARAVIRT_OPS(OP_NAME)
};

const char *paravirt_op_name(unsigned int slot)
{
	return slot < PARAVIRT_NR_SLOTS && op_names[slot] ? op_names[slot] : "?";
}
