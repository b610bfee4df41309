/*
 * guestfuzz.h - a guest kernel that fuzzes its host (docs/guest.md).
 *
 * Why a Multiboot kernel of its own, and not pv386 with a test= option:
 * a fuzzer must be free to wreck the state it runs on - its GDT, LDT,
 * IDT, page tables, watchpoints, segment registers, shared page - and
 * to take any trap at any point, and go on.  pv386 as a guest would
 * panic on the first trap its exception table does not expect, and its
 * scheduler, timer and tasks would make a run from a seed differ from
 * the next.  This kernel owns every table it has, rebuilds them at each
 * boot ("life"), takes every trap through one handler that records it,
 * and draws every probe from one seeded stream: (seed, life) replays a
 * life probe for probe.  It speaks the hypercall ABI of asm/hypercall.h
 * directly, as any guest kernel of the host's may.
 *
 * A probe is a few bytes of code, written at run time into a ring-1 or a
 * ring-3 code page, entered by an iret from a frame of chosen registers
 * (struct launch), and ended by a trap: either its own (a fault, an
 * int n) or the `int $0x80` appended after it.  The trap's handler
 * (trap_c) checks what a CPU would guarantee whatever the probe did -
 * a frame from ring 1 or 3 with no I/O privilege, the registers the
 * probe may not change unchanged, a vector the probe can raise, a page
 * fault's address one the probe touched - and each breach is a finding,
 * printed and counted in the report page (report.h) the host reads.
 *
 * Files: start.S (entry, stubs, probe_enter), machine.c (its tables,
 * pages and hypercalls), probe.c (running and judging one probe),
 * families.c (what to probe), main.c (lives and batches), lib.c
 * (strings and printing).
 */
#ifndef TESTS_GUESTFUZZ_H
#define TESTS_GUESTFUZZ_H

#include <types.h>
#include <stdarg.h>
#include <asm/desc_defs.h>
#include <asm/hypercall.h>
#include <asm/processor-flags.h>
#include <asm/segment.h>
#include <asm/switcher.h>
#include <asm/traps.h>
#include "report.h"

#define KCS		(__KERNEL_CS | 1)
#define KDS		(__KERNEL_DS | 1)
#define UCS		__USER_CS
#define UDS		__USER_DS
#define SYSCALL_GATE	0x80		/* the probes' end: a DPL-3 trap gate */
#define NR_SCRATCH	4		/* frames the page-table edits may map */
#define EDIT_VA		0x40000000u	/* the directory slot the edits play in */
#define EDIT_PAGES	8
#define VM86_PAGE	0x6000u		/* user page below 1 MiB: vm86 code */
#define CODE_MAX	64		/* a probe's bytes, with its end */
#define PAD_OFFSET	0xf00		/* landing pad in each code page */

/* ---- lib.c ---- */
void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
size_t strlen(const char *s);
/* ---- kernel/vsprintf.c, linked in ---- */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* ---- lib.c ---- */
void print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
u32 parse_number(const char *cmdline, const char *key, u32 dflt);

/* The stream every choice is drawn from (xorshift). */
void rng_seed(u32 seed, u32 life);
u32 rnd(void);
static inline u32 below(u32 n)	{ return n ? rnd() % n : 0; }
static inline bool chance(u32 one_in)	{ return below(one_in) == 0; }
#define PICK(array)	((array)[below(ARRAY_SIZE(array))])

/* ---- machine.c: the fuzzer's own machine ---- */
struct machine {
	u32 mem_end;				/* guest memory: [0, mem_end) */
	volatile struct guest_shared *shared;	/* as the host knows it */
	u64 gdt[GDT_ENTRIES], ldt[LDT_ENTRIES], idt[256];
	u32 *pgd, *pt_low, *pt_edit, *alt_pgd;
	u8 *kcode, *ucode, *kscratch, *uscratch, *vm86;
	u32 scratch[NR_SCRATCH];		/* frames edits may map writable */
	u32 ring1_stack_top, user_stack_top, probe_stack_top;
	unsigned int iopl;			/* set_iopl's, for ring-3 in/out */
	bool dr_armed;
};
extern struct machine m;

void machine_boot(const void *multiboot_info);	/* init, tables, paging */
void machine_reload(void);	/* its tables and settings again, after a random call */
u32 selector_dpl(u32 sel);	/* the DPL of the descriptor sel names, or 4: none */
bool selector_is_data(u32 sel, bool writable);
bool gate_dpl3(unsigned int vector);	/* the fuzzer's gate admits ring 3 */

/* ---- probe.c: one probe, run and judged ---- */
/* enum fuzz_family is report.h's: the host reads the last probe's */
extern const char *const family_names[F_NR];

#define OUT(reg)	(1u << (reg))
enum { R_EDI, R_ESI, R_EBP, R_ESP, R_EBX, R_EDX, R_ECX, R_EAX,
       R_GS, R_FS, R_ES, R_DS };
#define OUT_SEGS	(OUT(R_GS) | OUT(R_FS) | OUT(R_ES) | OUT(R_DS))
#define OUT_ALL		0xfffu

/* The registers as popal and the segment pops take them (start.S). */
struct regs {
	u32 edi, esi, ebp, esp_unused, ebx, edx, ecx, eax;
	u32 gs, fs, es, ds;
};

struct probe {
	enum fuzz_family family;
	unsigned int ring;		/* 1 or 3 */
	u8 code[CODE_MAX];
	unsigned int len;		/* bytes before the appended end */
	unsigned int insn_at;		/* where the instruction under test starts */
	struct regs in;
	u32 eflags;
	u32 outputs;			/* OUT() of registers it may change */
	u32 vectors;			/* bit v: it may raise vector v (< 32) */
	int int_vector;			/* an int n: n, else -1 */
	bool must_fault;		/* finishing is a finding */
	bool loose;			/* lands anywhere: only what always holds */
	u32 mem_lo, mem_hi;		/* what a page fault may name, [lo, hi) */
	const char *what;		/* its name in a finding */
};

/* What the probe's trap showed. */
struct outcome {
	unsigned int vector;
	bool has_error_code;
	u32 error_code, eip, cs, eflags, esp, ss, cr2, dr6;
	struct regs r;
	bool finished;			/* it reached the appended end */
	bool bad_frame;			/* no CPU pushes such a frame */
	bool error_code_surprise;	/* it makes sense only read the other way */
};

void probe_init(struct probe *p, enum fuzz_family f, unsigned int ring, const char *what);
void probe_bytes(struct probe *p, const void *bytes, unsigned int n);
void probe_insn(struct probe *p, const void *bytes, unsigned int n);	/* the one tested */
bool probe_run(struct probe *p, struct outcome *o);	/* false: a finding */
void finding(const struct probe *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
u32 random_segment(unsigned int ring, bool any);	/* for data registers */
extern struct fuzz_report *const report;

/* ---- families.c ---- */
extern u32 families;				/* 1 << enum family: those to probe */
void fuzz_int_sweep(void);			/* every int n once, at both rings */
void fuzz_one(void);				/* one random probe */

/* ---- the hypercall, as any guest makes it ---- */
static inline u32 hcall(u32 nr, u32 a1, u32 a2, u32 a3)
{
	u32 ret = nr;

	asm volatile("int %[vector]" : "+a" (ret)
		     : [vector] "i" (HYPERCALL_VECTOR), "b" (a1), "c" (a2), "d" (a3)
		     : "memory");
	return ret;
}

#endif
