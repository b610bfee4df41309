/*
 * syscall.h - the system calls behind both ways in (kernel/syscall.c).
 * The arch code (arch/x86/entry/syscall.c) takes the number and arguments out
 * of the registers and puts the result back.
 */
#ifndef PV386_SYSCALL_H
#define PV386_SYSCALL_H

#include <types.h>
#include <uapi/syscalls.h>

struct pt_regs;

long do_syscall(struct pt_regs *regs, u32 nr, u32 a, u32 b, u32 c);

#endif
