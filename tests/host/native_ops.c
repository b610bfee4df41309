/*
 * native_ops.c - the ops the kernel patches inline, as the host tests see
 * them: each template from paravirt/patch/templates.S next to the bytes the
 * instruction set says it must be, and the site the kernel's macros
 * (asm/paravirt.h, asm/privileged.h) emit for it.
 *
 * writes and jump are this file's own expectations; test_kernel_op_list
 * checks that the kernel's PATCH_TEMPLATES agrees.  The slot numbers are
 * arbitrary (distinct, below 64): the engine only uses a slot as a number
 * (address = table + 4 * slot), never as a position in the real table.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* A void op or one returning in EAX: the C sites save ECX and EDX. */
#define CALL_OP(op, writes, slot, ...)					\
	{ #op, tpl_##op, tpl_##op##_end, { __VA_ARGS__ },		\
	  sizeof((u8[]){ __VA_ARGS__ }), writes, false, slot, CLBR_EAX }

/* An op taking its argument in EAX: its C sites keep all three. */
#define WRITE_OP(op, slot, ...)						\
	{ #op, tpl_##op, tpl_##op##_end, { __VA_ARGS__ },		\
	  sizeof((u8[]){ __VA_ARGS__ }), 0, false, slot, CLBR_NONE }

#define JUMP_OP(op, slot, ...)						\
	{ #op, tpl_##op, tpl_##op##_end, { __VA_ARGS__ },		\
	  sizeof((u8[]){ __VA_ARGS__ }), 0, true, slot, CLBR_ANY }

const struct native_op native_ops[] = {
	CALL_OP(irq_disable,		0,	  19, 0xfa),		/* cli */
	CALL_OP(irq_enable,		0,	  20, 0xfb),		/* sti */
	WRITE_OP(restore_fl,			  17, 0x50, 0x9d),	/* push %eax; popf */
	CALL_OP(save_fl,		CLBR_EAX, 16, 0x9c, 0x58),	/* pushf; pop %eax */
	CALL_OP(save_fl_irq_disable,	CLBR_EAX, 18, 0x9c, 0x58, 0xfa),
	CALL_OP(safe_halt,		0,	  21, 0xfb, 0xf4),	/* sti; hlt */
	CALL_OP(halt,			0,	  22, 0xf4),		/* hlt */
	JUMP_OP(iret,				  41, 0xcf),
	JUMP_OP(irq_enable_sysexit,		  40, 0xfb, 0x0f, 0x35), /* sti; sysexit */
	CALL_OP(read_cr0,		CLBR_EAX,  7, 0x0f, 0x20, 0xc0), /* mov %cr0,%eax */
	WRITE_OP(write_cr0,			   8, 0x0f, 0x22, 0xc0), /* mov %eax,%cr0 */
	CALL_OP(read_cr2,		CLBR_EAX,  9, 0x0f, 0x20, 0xd0),
	CALL_OP(read_cr3,		CLBR_EAX, 11, 0x0f, 0x20, 0xd8),
	WRITE_OP(write_cr3,			  12, 0x0f, 0x22, 0xd8), /* mov %eax,%cr3 */
	CALL_OP(clts,			0,	   6, 0x0f, 0x06),
	/* u64 in EDX:EAX: its site saves only ECX. */
	{ "read_tsc", tpl_read_tsc, tpl_read_tsc_end, { 0x0f, 0x31 }, 2,
	  CLBR_EAX | CLBR_EDX, false, 26, CLBR_EAX | CLBR_EDX },
};

const unsigned int nr_native_ops = sizeof(native_ops) / sizeof(native_ops[0]);

struct op_template op_of(const struct native_op *n)
{
	return (struct op_template){
		.name = n->name, .tpl = n->start, .tpl_len = n->end - n->start,
		.writes = n->writes, .jump = n->jump,
	};
}

struct paravirt_patch_site site_of(const struct native_op *n, u32 instr)
{
	return n->jump ? jump_site(instr, n->slot)
		       : call_site(instr, n->slot, n->clobbers);
}

const struct native_op *native_op(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_native_ops; i++)
		if (strcmp(native_ops[i].name, name) == 0)
			return &native_ops[i];
	fprintf(stderr, "no native op %s in the test table\n", name);
	abort();
}
