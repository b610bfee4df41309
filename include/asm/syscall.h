/*
 * asm/syscall.h - the x86 ways into the kernel for a system call:
 * int $0x80 and sysenter (arch/x86/entry/syscall.c, entry.S).
 */
#ifndef ASM_SYSCALL_H
#define ASM_SYSCALL_H

#include <uapi/syscalls.h>

#ifndef __ASSEMBLER__
#include <asm/traps.h>

void syscall_init(void);
void syscall_cpu_init(void);	/* an AP's sysenter MSRs, as the boot CPU's */
bool syscall_sysenter_enabled(void);
void sysenter_block(void);	/* while a guest runs: sysenter raises #GP */
void sysenter_unblock(void);
void sysenter_dispatch(struct pt_regs *regs);
#endif

#endif
