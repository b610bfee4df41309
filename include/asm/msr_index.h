/*
 * asm/msr_index.h - the model-specific registers pv386 names, by the
 * numbers Intel's SDM (vol. 4) and AMD's manuals give them: one name
 * for each, whoever reads or writes it (the kernel, the host's rules
 * for its guest, the tests).
 *
 * Not msr-index.h: the native tests look in include/ after the system's
 * own headers (-idirafter), where Linux's would come first.
 */
#ifndef ASM_MSR_INDEX_H
#define ASM_MSR_INDEX_H

#define MSR_IA32_TSC		0x10	/* the time-stamp counter rdtsc reads */
#define MSR_P5_CESR		0x11	/* the Pentium's counter event select */
#define MSR_IA32_PLATFORM_ID	0x17	/* the board's platform, for microcode */
#define MSR_IA32_APIC_BASE	0x1b
#define MSR_IA32_BIOS_SIGN_ID	0x8b	/* the microcode's revision */
#define MSR_IA32_SYSENTER_CS	0x174
#define MSR_IA32_SYSENTER_ESP	0x175
#define MSR_IA32_SYSENTER_EIP	0x176
#define MSR_P6_PERFEVTSEL0	0x186	/* P6 and later: counter 0's event select */
#define MSR_EFER		0xc0000080	/* long mode, NX, syscall */
#define MSR_K7_PERFEVTSEL0	0xc0010000	/* AMD's counter 0 event select */

#endif
