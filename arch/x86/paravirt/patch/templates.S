/*
 * templates.S - the native instructions a patched site becomes,
 * and the NOPs that pad it.
 *
 * This is data, not code: it lives in .rodata and is only ever copied.
 * Each template is assembled from real instructions between two labels,
 * so its bytes come from the assembler, not from hand-typed hex.  Call
 * sites pass arguments and results in EAX (and EDX), the regparm
 * convention of every op, so the templates use those registers.
 *
 * The native tests (tests/native/) link this file into a 64-bit program:
 * .code32 keeps the encodings 32-bit there, and PTR is a host pointer.
 * The per-CPU GDT is reached through %fs: its offset is asm-offsets'.
 */
#include <asm/patch.h>
#include <asm/segment.h>
#include <generated/asm-offsets.h>

#ifdef __x86_64__
#define PTR .quad
#else
#define PTR .long
#endif

	.code32

#define TEMPLATE(name, insns...)			\
	.globl tpl_##name, tpl_##name##_end;		\
tpl_##name:						\
	insns;						\
tpl_##name##_end:

/* A template whose sites are sized to it (asm/patch.h): its length must
 * be the one the sites were built with, or it would not fit them, or
 * leave padding where none was meant to run. */
#define SIZED_TEMPLATE(name, insns...)			\
	TEMPLATE(name, insns);				\
	.if tpl_##name##_end - tpl_##name != PATCH_SITE_LEN_##name; \
	.error "tpl_" #name " is not PATCH_SITE_LEN_" #name " bytes (asm/patch.h)"; \
	.endif

/* A call form's prologue (asm/patch.h, PATCH_PROLOGUES): the moves its
 * sites make before the call, from where the site takes an argument to
 * where the op's C convention wants it. */
#define PROLOGUE(name, insns...)			\
	.globl pro_##name, pro_##name##_end;		\
pro_##name:						\
	insns;						\
pro_##name##_end:

/* The 32-bit word i of this CPU's thread-local GDT slots, through %fs
 * (its per-CPU area, which holds its GDT: asm/percpu.h), and of t's copy. */
#define TLS_GDT(i)	%fs:PERCPU_gdt + 8 * GDT_ENTRY_TLS_MIN + 4 * (i)
#define TLS_COPY(i)	movl THREAD_tls_array + 4 * (i)(%ebx), %edx; movl %edx, TLS_GDT(i)

	.section .rodata.patch_templates, "a"

TEMPLATE(irq_disable,		cli)
TEMPLATE(irq_enable,		sti)
TEMPLATE(restore_fl,		pushl %eax; popfl)
TEMPLATE(save_fl,		pushfl; popl %eax)
TEMPLATE(save_fl_irq_disable,	pushfl; popl %eax; cli)
TEMPLATE(safe_halt,		sti; hlt)
TEMPLATE(halt,			hlt)
TEMPLATE(iret,			iret)
TEMPLATE(irq_enable_sysexit,	sti; sysexit)
TEMPLATE(read_cr0,		movl %cr0, %eax)
TEMPLATE(write_cr0,		movl %eax, %cr0)
TEMPLATE(read_cr2,		movl %cr2, %eax)
TEMPLATE(read_cr3,		movl %cr3, %eax)
TEMPLATE(write_cr3,		movl %eax, %cr3)
TEMPLATE(clts,			clts)
TEMPLATE(read_tsc,		rdtsc)

/* load_tls(t, cpu in EDX), its site taking t in EBX: the three
 * descriptors, word by word, into the GDT of the CPU running it, which
 * is cpu (the context switch passes its own), as native_load_tls does.
 * The call form moves t to EAX first. */
SIZED_TEMPLATE(load_tls,	TLS_COPY(0); TLS_COPY(1); TLS_COPY(2);
				TLS_COPY(3); TLS_COPY(4); TLS_COPY(5))
PROLOGUE(load_tls,		movl %ebx, %eax)
/* load_esp0(tss in EAX, t in EDX): tss->esp0 = t->esp0. */
SIZED_TEMPLATE(load_esp0,	movl THREAD_esp0(%edx), %ecx; movl %ecx, TSS_esp0(%eax))

/* spin_unlock(lock in EAX): the ticket lock's release, `addw $1` on
 * the owner half (asm/spinlock.h), stretched to its callee-save site's
 * 6 bytes as the NOPs below are stretched: a %ds prefix (the segment it
 * uses anyway) and an 8-bit zero displacement.  So patched the site is
 * this one instruction, with no padding to run. */
SIZED_TEMPLATE(spin_unlock,	ds; {disp8} addw $1, 0(%eax))
/* spin_draw(add in EAX, lock in EDX): the take's `lock xadd`, the old
 * word in EAX, stretched to the site's 6 bytes the same way. */
SIZED_TEMPLATE(spin_draw,	lock; ds; {disp8} xaddl %eax, 0(%edx))
/* The lazy modes: a CPU holds nothing back, so their templates are
 * empty and a site is its padding alone, one NOP. */
TEMPLATE(start_context_switch, )
TEMPLATE(end_context_switch, )
TEMPLATE(enter_lazy_mmu, )
TEMPLATE(leave_lazy_mmu, )

/*
 * NOPs of each length that are one instruction and change nothing.  They
 * are spelled in hex on purpose: for "lea 0(%esi),%esi" the assembler
 * drops the zero displacement, and the exact length is the point here.
 *
 * generic_nops run on every x86 from the 386 on: mov/lea of %esi to itself,
 * with a %ds prefix (ignored by lea) for 5, 8 and 9 bytes, and for 9 an
 * operand-size prefix too: "lea 0(%esi),%si" writes %si with itself.
 * No more than one prefix of each kind: stacking them is not promised to
 * work on every old CPU.
 */
	.section .rodata.patch_nops, "a"
gnop1:	.byte 0x90				/* nop */
gnop2:	.byte 0x89, 0xf6			/* mov %esi,%esi */
gnop3:	.byte 0x8d, 0x76, 0x00			/* lea 0x0(%esi),%esi */
gnop4:	.byte 0x8d, 0x74, 0x26, 0x00		/* lea 0x0(%esi,%eiz,1),%esi */
gnop5:	.byte 0x3e, 0x8d, 0x74, 0x26, 0x00	/* ds lea 0x0(%esi,%eiz,1),%esi */
gnop6:	.byte 0x8d, 0xb6, 0x00, 0x00, 0x00, 0x00 /* lea 0x0(%esi),%esi, disp32 */
gnop7:	.byte 0x8d, 0xb4, 0x26, 0x00, 0x00, 0x00, 0x00
						/* lea 0x0(%esi,%eiz,1),%esi, disp32 */
gnop8:	.byte 0x3e, 0x8d, 0xb4, 0x26, 0x00, 0x00, 0x00, 0x00
						/* ds, then the 7-byte lea */
gnop9:	.byte 0x3e, 0x66, 0x8d, 0xb4, 0x26, 0x00, 0x00, 0x00, 0x00
						/* ds, data16, the 7-byte lea */

/*
 * p6_nops: the "nop r/m" instruction (0f 1f /0) of the Pentium Pro and
 * later; 0x66 and %cs prefixes stretch it.  A P5, a K6 or some VIA CPUs
 * raise #UD on it: arch/x86/paravirt/patch/patch.c checks before choosing these.
 */
pnop1:	.byte 0x90				/* nop */
pnop2:	.byte 0x66, 0x90			/* xchg %ax,%ax */
pnop3:	.byte 0x0f, 0x1f, 0x00			/* nopl (%eax) */
pnop4:	.byte 0x0f, 0x1f, 0x40, 0x00		/* nopl 0x0(%eax) */
pnop5:	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00	/* nopl 0x0(%eax,%eax,1) */
pnop6:	.byte 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 /* nopw 0x0(%eax,%eax,1) */
pnop7:	.byte 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00
						/* nopl 0x0(%eax), disp32 */
pnop8:	.byte 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00
						/* nopl 0x0(%eax,%eax,1), disp32 */
pnop9:	.byte 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00
						/* nopw 0x0(%eax,%eax,1), disp32 */
pnop10:	.byte 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00
						/* nopw %cs:0x0(%eax,%eax,1) */
pnop11:	.byte 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00
						/* data16 nopw %cs:0x0(...) */

	.section .rodata, "a"
	.balign 8
	.globl generic_nops, p6_nops
generic_nops:	/* generic_nops[n]: an n-byte NOP; [0] unused */
	PTR 0, gnop1, gnop2, gnop3, gnop4, gnop5, gnop6, gnop7, gnop8, gnop9
p6_nops:
	PTR 0, pnop1, pnop2, pnop3, pnop4, pnop5, pnop6, pnop7, pnop8
	PTR pnop9, pnop10, pnop11
