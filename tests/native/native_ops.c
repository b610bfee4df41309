/*
 * native_ops.c - the ops the kernel patches inline, as the native tests see
 * them: each template (and call prologue) from paravirt/patch/templates.S
 * next to the bytes the instruction set says it must be, and the site the
 * kernel's macros (asm/paravirt.h, asm/privileged.h) emit for it.
 *
 * writes and jump are this file's own expectations; test_kernel_op_list
 * checks that the kernel's PATCH_TEMPLATES agrees.  The slot numbers are
 * arbitrary (distinct, below 64): the engine only uses a slot as a number
 * (address = table + 4 * slot), never as a position in the real table.
 */
#include <stdlib.h>
#include <string.h>
#include <generated/asm-offsets.h>
#include "check.h"

#define OP(op, writes_, jump_, slot_, clobbers_, ...)			\
	.name = #op, .start = tpl_##op, .end = tpl_##op##_end,		\
	.want = { __VA_ARGS__ }, .want_len = sizeof((u8[]){ __VA_ARGS__ }), \
	.writes = writes_, .jump = jump_, .slot = slot_, .clobbers = clobbers_

/* A void op or one returning in EAX: the C sites save ECX and EDX. */
#define CALL_OP(op, writes, slot, ...)	{ OP(op, writes, false, slot, CLBR_EAX, __VA_ARGS__) }

/* An op taking its argument in EAX: its C sites keep all three. */
#define WRITE_OP(op, slot, ...)		{ OP(op, 0, false, slot, CLBR_NONE, __VA_ARGS__) }

#define JUMP_OP(op, slot, ...)		{ OP(op, 0, true, slot, CLBR_ANY, __VA_ARGS__) }

/* An op whose native template is empty: no bytes wanted. */
#define LAZY_OP(op, slot_)						\
	{ .name = #op, .start = tpl_##op, .end = tpl_##op##_end, .want_len = 0, \
	  .slot = slot_, .clobbers = CLBR_CALLEE_SAVE }

/*
 * load_tls and load_esp0: called as C functions (CLBR_ANY), their sites
 * as long as their templates.  The templates' operands are the kernel's
 * offsets (asm-offsets), load_tls's written through %fs (this CPU's
 * per-CPU area holds its GDT), all of them small enough for the short
 * forms spelled here.
 */
_Static_assert(THREAD_tls_array == 0 && THREAD_esp0 < 128 && TSS_esp0 < 128,
	       "the encodings below assume these offsets");

#define LE32(a)		(u8)(a), (u8)((a) >> 8), (u8)((a) >> 16), (u8)((a) >> 24)
#define TLS_WORD(i)	LE32(PERCPU_gdt + 8 * 7 + 4 * (i))	/* GDT_ENTRY_TLS_MIN 7 */
/* mov 4i(%ebx),%edx (8b 13 for i = 0, else 8b 53 disp8);
 * mov %edx,%fs:abs32 (64 89 15) */
#define TLS_COPY(i)	0x8b, 0x53, 4 * (i), 0x64, 0x89, 0x15, TLS_WORD(i)
#define LOAD_TLS_BYTES	0x8b, 0x13, 0x64, 0x89, 0x15, TLS_WORD(0), TLS_COPY(1), TLS_COPY(2), \
			TLS_COPY(3), TLS_COPY(4), TLS_COPY(5)

const struct native_op native_ops[] = {
	CALL_OP(irq_disable,		0,	  19, 0xfa),		/* cli */
	CALL_OP(irq_enable,		0,	  20, 0xfb),		/* sti */
	/* The flag ops' sites have room for a backend's longer template. */
	{ OP(restore_fl, 0, false, 17, CLBR_NONE, 0x50, 0x9d),	/* push %eax; popf */
	  .site_len = PATCH_SITE_LEN_restore_fl },
	{ OP(save_fl, CLBR_EAX, false, 16, CLBR_EAX, 0x9c, 0x58),	/* pushf; pop %eax */
	  .site_len = PATCH_SITE_LEN_save_fl },
	{ OP(save_fl_irq_disable, CLBR_EAX, false, 18, CLBR_EAX, 0x9c, 0x58, 0xfa),
	  .site_len = PATCH_SITE_LEN_save_fl_irq_disable },
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
	{ OP(read_tsc, CLBR_EAX | CLBR_EDX, false, 26, CLBR_EAX | CLBR_EDX, 0x0f, 0x31) },
	/* t in EBX, copied through EDX; the call moves t to EAX (89 d8). */
	{ OP(load_tls, CLBR_EDX, false, 35, CLBR_ANY, LOAD_TLS_BYTES),
	  .site_len = PATCH_SITE_LEN_load_tls, .pro_start = pro_load_tls,
	  .pro_end = pro_load_tls_end, .want_pro = { 0x89, 0xd8 }, .want_pro_len = 2 },
	/* mov THREAD_esp0(%edx),%ecx; mov %ecx,TSS_esp0(%eax) */
	{ OP(load_esp0, CLBR_ECX, false, 36, CLBR_ANY,
	     0x8b, 0x4a, THREAD_esp0, 0x89, 0x48, TSS_esp0),
	  .site_len = PATCH_SITE_LEN_load_esp0 },
	/* The ticket lock's release, ds addw $1,0x0(%eax) (disp8): a callee-save
	 * site, the bare call (no saves), which every function of the op keeps. */
	{ OP(spin_unlock, 0, false, 45, CLBR_CALLEE_SAVE, 0x3e, 0x66, 0x83, 0x40, 0x00, 0x01) },
	/* The take's draw, lock ds xadd %eax,0x0(%edx): a callee-save site
	 * whose result is EAX. */
	{ OP(spin_draw, CLBR_EAX, false, 46, CLBR_EAX | CLBR_CALLEE_SAVE,
	     0xf0, 0x3e, 0x0f, 0xc1, 0x42, 0x00) },
	/* The lazy modes: empty templates at callee-save sites. */
	LAZY_OP(start_context_switch, 47),
	LAZY_OP(end_context_switch, 48),
	LAZY_OP(enter_lazy_mmu, 49),
	LAZY_OP(leave_lazy_mmu, 50),
};

const unsigned int nr_native_ops = sizeof(native_ops) / sizeof(native_ops[0]);

struct op_template op_of(const struct native_op *n)
{
	return (struct op_template){
		.name = n->name, .tpl = n->start, .tpl_len = n->end - n->start,
		.writes = n->writes, .jump = n->jump,
		.prologue = n->pro_start, .prologue_len = n->pro_end - n->pro_start,
	};
}

/* A site of the op saving what clobbers says: its call or jump, or as
 * long as its template when that is longer. */
struct paravirt_patch_site site_clobbering(const struct native_op *n, u32 instr,
					   u16 clobbers)
{
	struct paravirt_patch_site site = n->jump ? jump_site(instr, n->slot) :
		prologue_site(instr, n->slot, clobbers, n->want_pro_len);

	if (n->site_len > site.len)
		site.len = n->site_len;
	return site;
}

struct paravirt_patch_site site_of(const struct native_op *n, u32 instr)
{
	return site_clobbering(n, instr, n->clobbers);
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
