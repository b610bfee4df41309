/*
 * asm/processor-flags.h - bit names for EFLAGS and the control registers.
 *
 * Plain numbers so that both C and assembly can use them.
 */
#ifndef ASM_PROCESSOR_FLAGS_H
#define ASM_PROCESSOR_FLAGS_H

#define X86_EFLAGS_CF	0x00000001
#define X86_EFLAGS_FIXED 0x00000002	/* bit 1 always reads as 1 */
#define X86_EFLAGS_ZF	0x00000040
#define X86_EFLAGS_TF	0x00000100
#define X86_EFLAGS_IF	0x00000200	/* maskable interrupts enabled */
#define X86_EFLAGS_DF	0x00000400
#define X86_EFLAGS_IOPL	0x00003000	/* I/O privilege level, 2 bits */
#define X86_EFLAGS_IOPL_BIT	12
#define X86_EFLAGS_NT	0x00004000
#define X86_EFLAGS_RF	0x00010000	/* resume: no instruction breakpoint */
#define X86_EFLAGS_VM	0x00020000
#define X86_EFLAGS_AC	0x00040000	/* toggles on a 486 and later only */
#define X86_EFLAGS_ID	0x00200000	/* toggles only where CPUID exists */

#define X86_CR0_PE	0x00000001	/* protected mode */
#define X86_CR0_MP	0x00000002
#define X86_CR0_EM	0x00000004
#define X86_CR0_TS	0x00000008	/* task switched: next FPU use traps */
#define X86_CR0_ET	0x00000010
#define X86_CR0_NE	0x00000020
#define X86_CR0_WP	0x00010000
#define X86_CR0_AM	0x00040000
#define X86_CR0_NW	0x20000000
#define X86_CR0_CD	0x40000000
#define X86_CR0_PG	0x80000000	/* paging */

#define X86_CR4_VME	0x00000001
#define X86_CR4_PVI	0x00000002
#define X86_CR4_TSD	0x00000004
#define X86_CR4_DE	0x00000008
#define X86_CR4_PSE	0x00000010
#define X86_CR4_PAE	0x00000020
#define X86_CR4_PGE	0x00000080
#define X86_CR4_PCE	0x00000100	/* rdpmc allowed in ring 3 */
#define X86_CR4_OSFXSR	0x00000200	/* the OS saves state with fxsave */
#define X86_CR4_OSXMMEXCPT 0x00000400	/* SSE exceptions raise #XM */

#endif
