/*
 * check.h - what the native tests of the patch engine share: the
 * CHECK macros, the list of tests main() runs, and a few helpers.
 *
 * Every *.c in tests/native/ is linked with arch/x86/paravirt/patch/engine.c and
 * arch/x86/paravirt/patch/templates.S into one native 64-bit program with ASan and
 * UBSan (make native-tests).  The engine only computes bytes, so it runs
 * here exactly as in the kernel; the templates keep their 32-bit
 * encodings because the .S file says .code32.
 */
#ifndef NATIVE_CHECK_H
#define NATIVE_CHECK_H

#include <stdio.h>
#include <asm/patch.h>
#include "runner/runner.h"

/* ---- checking (runner/runner.h, and main.c) ---- */

/* Compare n bytes; on a difference, fail with both in hex. */
bool check_bytes_at(const char *file, int line, const u8 *got, const u8 *want,
		    unsigned int n, const char *what);

#define CHECK_BYTES(got, want, n, what) \
	check_bytes_at(__FILE__, __LINE__, (got), (want), (n), (what))

/* ---- the tests, in the order main() runs them ---- */

void test_original_bytes(void);		/* test_templates.c */
void test_original_mismatch(void);
void test_template_bytes(void);
void test_inline_sites(void);
void test_kernel_op_list(void);
void test_nop_tables(void);		/* test_nops.c */
void test_nop_padding(void);
void test_refuse_bytes(void);		/* test_refuse.c */
void test_refuse_fit(void);
void test_refuse_writes(void);
void test_direct(void);			/* test_rewrite.c */
void test_nops_kind(void);
void test_empty_kind(void);
void test_poison(void);
void test_idempotent(void);
void test_padding_runs(void);		/* test_padding.c */
void test_guard_pages(void);		/* test_guard.c */
void test_fuzz(void);			/* fuzz_patch.c */

/* The fuzzer's seed, from argv or PATCH_FUZZ_SEED (main.c). */
extern unsigned long long fuzz_seed;

/* ---- helpers (helpers.c) ---- */

#define TEST_TABLE	0x0010a2c0u	/* a paravirt_ops address, as linked */

extern const struct patch_env env_generic, env_p6;

/* The expected NOPs, written out from the CPU manuals, not the .S file. */
extern const u8 want_generic_nop[GENERIC_MAX_NOP + 1][GENERIC_MAX_NOP];
extern const u8 want_p6_nop[P6_MAX_NOP + 1][P6_MAX_NOP];
const u8 *want_nop(const struct patch_env *env, unsigned int len);

/* The padding the engine must leave in len spare bytes, from the tables
 * above: the NOP of that length, or a jmp rel8 over int3 filler.  And
 * whether p[0..len) is that padding. */
void want_padding(const struct patch_env *env, u8 *out, unsigned int len);
bool is_padding(const struct patch_env *env, const u8 *p, unsigned int len);

/* Sites shaped as the kernel's macros emit them: a call site as long as
 * its call (with a prologue of pro_len bytes), a jump site. */
struct paravirt_patch_site call_site(u32 instr, u8 slot, u16 clobbers);
struct paravirt_patch_site prologue_site(u32 instr, u8 slot, u16 clobbers,
					 unsigned int pro_len);
struct paravirt_patch_site jump_site(u32 instr, u8 slot);

/* Length of the NOP instruction at p (at most avail bytes), or 0 if p
 * does not start a recognised do-nothing instruction. */
unsigned int nop_insn_len(const u8 *p, unsigned int avail);

/* Read a little-endian 32-bit operand. */
u32 get32(const u8 *p);

/* Bytes as "fa 89 f6", in one of a few rotating static buffers. */
const char *hex(const u8 *p, unsigned int n);

/* Read-write pages, each between two PROT_NONE pages: touching a byte
 * outside one crashes.  guarded_page(i) is the same page on every call,
 * i < GUARDED_PAGES; its size is guarded_size. */
#define GUARDED_PAGES	4
u8 *guarded_page(unsigned int i);
extern const unsigned long guarded_size;

/* ---- the ops the kernel patches (native_ops.c) ---- */

struct native_op {
	const char *name;
	const u8 *start, *end;	/* the template, from paravirt/patch/templates.S */
	u8 want[PATCH_MAX_SITE_LEN];	/* its bytes, as the instruction set
					   defines them */
	u8 want_len;
	u8 writes;		/* as arch/x86/paravirt/patch/patch.c declares the op */
	bool jump;
	u8 slot;		/* any number will do: the engine only adds it */
	u16 clobbers;		/* of the site the kernel's macros emit for it */
	u8 site_len;		/* of its sites when sized to the template
				   (PATCH_SITE_LEN_<op>), else 0 */
	const u8 *pro_start, *pro_end;	/* its call's prologue, or NULL */
	u8 want_pro[4];		/* the prologue's bytes, by the instruction set */
	u8 want_pro_len;
};

extern const struct native_op native_ops[];
extern const unsigned int nr_native_ops;

const struct native_op *native_op(const char *name);
struct op_template op_of(const struct native_op *n);
/* The site the kernel emits for the op (a call or jump site), and one
 * like it saving other registers. */
struct paravirt_patch_site site_of(const struct native_op *n, u32 instr);
struct paravirt_patch_site site_clobbering(const struct native_op *n, u32 instr,
					   u16 clobbers);

#endif
