/*
 * asm/processor.h - the CPU state a task owns beyond its registers:
 * what arch/x86/kernel/process.c puts into the CPU when the task is switched
 * in, and what the paravirt ops load_tls and load_esp0 read.
 */
#ifndef ASM_PROCESSOR_H
#define ASM_PROCESSOR_H

#include <types.h>
#include <asm/segment.h>

#define NR_WATCHPOINTS	4	/* DR0-DR3 */

/*
 * The x87/SSE register file as the CPU saves it.  fxsave (CPUs with
 * FXSR) writes 512 bytes on a 16-byte boundary, XMM registers and MXCSR
 * included; fnsave writes 108, whose 16-bit fields sit in 32-bit words.
 * The kernel itself sets only the control and tag words, in a fresh
 * task's image (fpu.c), whose every other byte is zero.
 */
struct fxsave_area {
	u16 fcw, fsw;		/* control and status words */
	u8 ftw;			/* abridged tag word: a bit per full register */
	u8 reserved;
	u16 fop;
	u32 fip, fcs, fdp, fds;	/* the last x87 instruction and operand */
	u32 mxcsr, mxcsr_mask;
	u8 st[8][16];		/* st0-st7 (also mm0-mm7), 10 bytes used each */
	u8 xmm[8][16];
	u8 unused[224];
};

struct fnsave_area {
	u32 fcw, fsw;
	u32 ftw;		/* full tag word: 2 bits a register, 11 = empty */
	u32 fip, fcs, fdp, fds;
	u8 st[8][10];
};

union fpu_state {
	struct fxsave_area fxsave;
	struct fnsave_area fnsave;
} __attribute__((aligned(16)));

/* The CPU's layouts, not the compiler's: */
_Static_assert(sizeof(struct fxsave_area) == 512, "fxsave writes 512 bytes");
_Static_assert(__builtin_offsetof(struct fxsave_area, mxcsr) == 24, "MXCSR at 24");
_Static_assert(__builtin_offsetof(struct fxsave_area, xmm) == 160, "XMM0 at 160");
_Static_assert(sizeof(struct fnsave_area) == 108, "fnsave writes 108 bytes");

struct thread_struct {
	u64 tls_array[GDT_ENTRY_TLS_ENTRIES];	/* GDT slots load_tls fills */
	u32 esp0;		/* kernel stack top, copied into the TSS */
	u32 iopl;		/* EFLAGS IOPL bits the task runs with */
	u32 debugreg[NR_WATCHPOINTS];	/* watchpoint addresses */
	u32 dr7;		/* 0: no watchpoint armed */
	u64 ldt[LDT_ENTRIES];	/* its own LDT ... */
	bool has_ldt;		/* ... if set_ldt gave it one */
	u64 pmc_count;		/* performance counter 0, while it ran */
	union fpu_state fpu;	/* its FPU while another task owns it */
};

/*
 * The ring this code runs at: 0 on bare hardware, 1 as a guest of a
 * pv386 host.  Any ring may read %cs: it is how a kernel finds out that
 * it is a guest before its first privileged operation.
 */
static inline unsigned int current_ring(void)
{
	u16 cs;

	asm("movw %%cs, %0" : "=r" (cs));
	return cs & 3;
}

#endif
