/*
 * asm/patch.h - patch sites: the recorded places where the kernel calls
 * through paravirt_ops, and the engine that rewrites them at boot.
 *
 * Each hot-op call is emitted inside a *site*, a byte range whose address,
 * op, length and clobbers the assembler records in .parainstructions.
 * A site always has one of two shapes, so the patcher can check that the
 * bytes are what the build put there before it touches them:
 *
 *   call site:  push each of EAX, ECX, EDX the site must preserve,
 *               the op's prologue if it has one (PATCH_PROLOGUES),
 *               call *paravirt_ops+4*slot, then pop them again
 *               (none for a callee-save site: CLBR_CALLEE_SAVE);
 *   jump site:  jmp *%cs:paravirt_ops+4*slot     (iret, sysexit)
 *
 * A prologue moves an argument the site takes in a register the C
 * convention keeps (EBX) to the one the op's function wants: its caller
 * may hold the value there already, and inlined, the template reads it
 * there, so nothing moves at all.
 *
 * Sites are sized per op: where an op's native template is longer than
 * its call (load_tls), the build pads the call to the template's length
 * (PATCH_SITE_LEN_<op>), so that inlined, the template fills the site and
 * no padding runs at all.  The build's padding is one nop for one byte,
 * else a jmp over int3 filler (patch_original() rebuilds it).
 *
 * Whatever a site becomes, its padding is at most one instruction: one
 * NOP of the CPU's table, or a jmp over the rest when longer than the
 * longest NOP (patch_fill_padding()).
 *
 * The engine (arch/x86/paravirt/patch/engine.c) only computes bytes: it works on
 * buffers, so native tests can run it (tests/native/).  The boot-time
 * patcher (arch/x86/paravirt/patch/patch.c) decides what each site becomes and writes it.
 */
#ifndef ASM_PATCH_H
#define ASM_PATCH_H

/* Clobber masks: registers a site may change (the rest it preserves). */
#define CLBR_NONE	0
#define CLBR_EAX	1
#define CLBR_ECX	2
#define CLBR_EDX	4
#define CLBR_ANY	7
/* Not a register: the op's functions keep all three (spin_unlock), or
 * all but the result's (spin_draw: CLBR_EAX beside it), so its call form
 * saves none, and neither pvdebug nor the engine assume it may change
 * another. */
#define CLBR_CALLEE_SAVE	8

#define PATCH_MAX_SITE_LEN	64	/* longer sites are left alone; a
					   jmp rel8 can skip the rest of any */
#define PATCH_FILLER		0xcc	/* int3: skipped bytes trap if ever run */
#define PATCH_POISON		0xf00dbad0	/* pvdebug's value for clobbered registers */

/*
 * The lengths of the sites sized to their op's template (see above): the
 * template's length, checked by templates.S against the bytes the
 * assembler makes.  Other ops' sites are as long as their call.
 */
#define PATCH_SITE_LEN_load_tls		59	/* six movs of 2 to 7 bytes */
#define PATCH_SITE_LEN_load_esp0	6	/* two 3-byte movs: the call's length */
#define PATCH_SITE_LEN_spin_unlock	6	/* one add, stretched: the bare call's */
#define PATCH_SITE_LEN_spin_draw	6	/* one xadd, stretched: the same */
/*
 * Sites with room for a longer template than native's: the guest's
 * flag ops, which read and write its shared interrupt flag inline
 * (backends/guest_entry.S), as Xen's direct versions of them do.
 * Natively the template and one padding jump, as in a call-long site.
 */
#define PATCH_SITE_LEN_save_fl			13
#define PATCH_SITE_LEN_save_fl_irq_disable	20
#define PATCH_SITE_LEN_restore_fl		13

#ifndef __ASSEMBLER__

#include <types.h>

/* One record of .parainstructions, as the site macros emit it. */
struct paravirt_patch_site {
	u32 instr;		/* address of the site's first byte */
	u8 slot;		/* the op: its place in paravirt_ops, in pointers */
	u8 len;			/* bytes in the site */
	u16 clobbers;		/* CLBR_* registers the site may change; a jump
				   site never returns, so it says CLBR_ANY */
};

/* The site macros emit this layout by hand (.long, .byte, .byte, .short). */
_Static_assert(sizeof(struct paravirt_patch_site) == 8, "site record is 8 bytes");
_Static_assert(offsetof(struct paravirt_patch_site, slot) == 4 &&
	       offsetof(struct paravirt_patch_site, len) == 5 &&
	       offsetof(struct paravirt_patch_site, clobbers) == 6,
	       "site record layout");

/* An op's template: the native instructions its sites become inline,
 * and what the engine must know to place them. */
struct op_template {
	const char *name;
	const u8 *tpl;		/* native instructions, or NULL if none */
	u8 tpl_len;
	u8 writes;		/* CLBR_* registers the template writes (its
				   result, or a scratch register) */
	bool jump;		/* reached by a jump (iret, sysexit), not a call */
	const u8 *prologue;	/* the call form's moves before its call */
	u8 prologue_len;	/* (0: none) */
};

/* What the patcher decided a site should become. */
enum patch_kind {
	PATCH_INLINE,		/* the native template, padded with NOPs */
	PATCH_NOPS,		/* all NOPs: the op does nothing */
	PATCH_DIRECT,		/* call rel32 (or jmp rel32) to the op's function */
	PATCH_EMPTY,		/* call a stub that panics naming the op */
};

/* What patch_compute_site() found.  It only computes: nothing is written
 * until the patcher copies out[] to the site with kernel_text_poke(). */
enum patch_result {
	PATCH_NEEDS_WRITE,	/* out[] holds the replacement; the site does not yet */
	PATCH_ALREADY_DONE,	/* the site already holds it: nothing to write */
	PATCH_REFUSED_BYTES,	/* not the indirect call the build recorded */
	PATCH_REFUSED_FIT,	/* the replacement does not fit or is unsafe */
	PATCH_REFUSED_RECORD,	/* the record itself is bad (slot, place) */
};

/* The running machine, as far as the engine cares. */
struct patch_env {
	u32 table;		/* address of paravirt_ops */
	const u8 *const *nops;	/* nops[n] is an n-byte NOP, n = 1..max_nop */
	unsigned int max_nop;
	bool poison;		/* pvdebug: spoil clobbered registers */
};

/*
 * The ops arch/x86/paravirt/patch/templates.S has a native template for: one
 * list, so the patcher and the native tests cannot disagree on it.
 * PATCH_TEMPLATES(X) expands X(op, writes, jump) for each op, where
 * writes are the registers the template changes (its result, or scratch:
 * load_tls and load_esp0 copy memory through a register) and jump says
 * the op is jumped to (iret, sysexit) rather than called.
 */
#define PATCH_TEMPLATES(X)					\
	X(irq_disable,		0,			false)	\
	X(irq_enable,		0,			false)	\
	X(restore_fl,		0,			false)	\
	X(save_fl,		CLBR_EAX,		false)	\
	X(save_fl_irq_disable,	CLBR_EAX,		false)	\
	X(safe_halt,		0,			false)	\
	X(halt,			0,			false)	\
	X(iret,			0,			true)	\
	X(irq_enable_sysexit,	0,			true)	\
	X(read_cr0,		CLBR_EAX,		false)	\
	X(write_cr0,		0,			false)	\
	X(read_cr2,		CLBR_EAX,		false)	\
	X(read_cr3,		CLBR_EAX,		false)	\
	X(write_cr3,		0,			false)	\
	X(clts,			0,			false)	\
	X(read_tsc,		CLBR_EAX | CLBR_EDX,	false)	\
	X(load_tls,		CLBR_EDX,		false)	\
	X(load_esp0,		CLBR_ECX,		false)	\
	X(spin_unlock,		0,			false)	\
	X(spin_draw,		CLBR_EAX,		false)	\
	X(start_context_switch,	0,			false)	\
	X(end_context_switch,	0,			false)	\
	X(enter_lazy_mmu,	0,			false)	\
	X(leave_lazy_mmu,	0,			false)

/* tpl_<op> .. tpl_<op>_end: the template's bytes. */
#define DECLARE_PATCH_TEMPLATE(op, writes, jump) \
	extern const u8 tpl_##op[], tpl_##op##_end[];
PATCH_TEMPLATES(DECLARE_PATCH_TEMPLATE)

/*
 * A backend's own function the patcher may put inline, as the bytes from
 * start to end, which write the registers in writes (CLBR_*).  Native's
 * templates are the list above; another backend declares its own with
 * paravirt_inline() beside the function, and a site whose op holds that
 * function gets them when they fit (the guest's irq_disable: a store to
 * the shared page, backends/guest.c).
 */
struct paravirt_inline {
	const void *fn;
	const u8 *start, *end;
	u8 writes;
	const bool *off;	/* NULL, or true when a boot option withdrew it */
};

#define paravirt_inline(fn, tpl, writes) paravirt_inline_unless(fn, tpl, writes, NULL)

/* The same, but withdrawn when *off is true by the time the patcher runs
 * (an early boot option's flag): fn's sites are then direct calls. */
#define paravirt_inline_unless(fn, tpl, writes, off)				\
	extern const u8 tpl[], tpl##_end[];					\
	static const struct paravirt_inline __pv_inline_##fn			\
	__section(".pv_inlines") __used __attribute__((aligned(4))) =		\
	{ fn, tpl, tpl##_end, writes, off }

extern const struct paravirt_inline __start_pv_inlines[], __stop_pv_inlines[];

/*
 * The ops whose call sites start with a prologue (templates.S):
 * PATCH_PROLOGUES(X) expands X(op); pro_<op> .. pro_<op>_end are its
 * bytes.  load_tls: its sites take t in EBX, where the context switch
 * keeps the next task.
 */
#define PATCH_PROLOGUES(X)	X(load_tls)
#define PATCH_MAX_PROLOGUE	8	/* longer: no site is the op's */

#define DECLARE_PATCH_PROLOGUE(op)	extern const u8 pro_##op[], pro_##op##_end[];
PATCH_PROLOGUES(DECLARE_PATCH_PROLOGUE)

/* NOP tables, from arch/x86/paravirt/patch/templates.S. */
#define GENERIC_MAX_NOP	9	/* 386 and later */
#define P6_MAX_NOP	11	/* the 0f 1f NOPs of family 6 and later */
extern const u8 *const generic_nops[GENERIC_MAX_NOP + 1];
extern const u8 *const p6_nops[P6_MAX_NOP + 1];

int patch_original(const struct patch_env *env,
		   const struct paravirt_patch_site *site, const struct op_template *op,
		   u8 *out);
void patch_fill_padding(const struct patch_env *env, u8 *out, unsigned int len);
enum patch_result patch_compute_site(const struct patch_env *env,
				     const struct paravirt_patch_site *site,
				     const struct op_template *op, enum patch_kind kind,
				     u32 target, const u8 *cur, u8 *out);
/* Padding instructions the site runs each time it is passed (0 or 1),
 * holding what kind makes of it, or as built if kept or it cannot be. */
unsigned int patch_padding_runs(const struct patch_env *env,
				const struct paravirt_patch_site *site,
				const struct op_template *op, enum patch_kind kind,
				u32 target, bool kept);

#endif /* !__ASSEMBLER__ */
#endif
