/*
 * uapi/syscalls.h - pv386's system calls: the numbers and the calling
 * convention, shared by the kernel (kernel/syscall.c) and the user
 * library (user/lib/).
 *
 * Two ways in, the same calls behind them:
 *   int $0x80   EAX = number, arguments in EBX, ECX, EDX, ESI, EDI;
 *               result in EAX; returns through the table's iret.
 *   sysenter    the same registers, where the CPU has SEP.  The CPU saves
 *               neither the user's EIP nor ESP, so the stub pushes its
 *               return address and puts its stack pointer in EBP; the
 *               kernel leaves with sysexit (irq_enable_sysexit).
 * A result from -4095 to -1 is minus an error number (uapi/errno.h).
 *
 * Descriptors: a task has NR_FDS of them, small numbers naming the ends
 * of pipes it holds (kernel/fd.c, kernel/pipe.c).  A task spawned or
 * started as a thread gets a copy of its creator's table, every end in
 * it one more holder, as fork and exec would leave it: a parent hands a
 * child a pipe by creating it before the spawn (and passing its numbers
 * in the argument string), then each closes the ends it does not use.
 * A pipe reads end of file once every write end is closed, and refuses
 * a write once every read end is.  Every descriptor is closed when its
 * task ends.  The descriptor's write is SYS_fdwrite, a call of its own:
 * SYS_write keeps its ABI (buf, len: the console), which every program
 * uses, rather than taking a descriptor that would make its console a
 * special number.  read and fdwrite move bytes in pieces of 128 bytes of
 * buf, as write does: a piece that faults ends the call, which returns
 * the bytes moved before it (-EFAULT if none).  A caller killed while it
 * waits returns -EINTR (or the bytes moved) and ends.
 */
#ifndef PV386_UAPI_SYSCALLS_H
#define PV386_UAPI_SYSCALLS_H

#define SYS_exit	0	/* (status) */
#define SYS_write	1	/* (buf, len): to the console, len at most 4096;
				   bytes written: len, or the whole 128-byte
				   chunks read before an unreadable byte
				   (-EFAULT if none) */
#define SYS_getpid	2
#define SYS_yield	3
#define SYS_sleep	4	/* (ticks): 0 after them, -EINVAL past
				   SLEEP_MAX_TICKS; 0 ticks yields */
#define SYS_spawn	5	/* (program name, argument string): pid */
#define SYS_wait	6	/* (pid or -1, int *status): pid */
#define SYS_set_tls	7	/* (slot 0-2, base, limit in bytes): GDT selector;
				   base = limit = 0 frees the slot */
#define SYS_iopl	8	/* (0 or 3): I/O privilege (only for tasks allowed it) */
#define SYS_brk		9	/* (new end or 0): the heap's end */
#define SYS_watch	10	/* (address, len 1/2/4): trap on writes */
#define SYS_set_ldt	11	/* (slot, base, limit in bytes): LDT selector;
				   base = limit = 0 frees the slot */
#define SYS_getarg	12	/* (buf, size): the argument string spawn gave */
#define SYS_uptime	13	/* (u32 out[4]): ticks, HZ, TSC low, TSC high */
#define SYS_pmc		14	/* (u32 out[2]): this task's PMC0 count */
#define SYS_nop		15	/* does nothing: for measuring the way in */
#define SYS_cpuinfo	16	/* (u32 out[2]): CPU family, CPUID.1:EDX features
				   as the kernel uses them (cpu= may hide some) */
#define SYS_hostcounts	17	/* (u32 out[2]): in a guest, its exits to its
				   host and the hypercalls among them so far;
				   -ENODEV on bare hardware */
#define SYS_thread	18	/* (entry, stack top, arg): a thread sharing the
				   caller's memory, started as entry(arg); pid */
#define SYS_counts	19	/* (u32 out[], n, which): what the machine
				   counted for measuring programs (make bench),
				   at most n words of it; how many words there
				   are.  COUNTS_HOST: in a guest, its exits to
				   its host, the hypercalls among them, then the
				   host's counts by reason (the kernel's bench
				   names them); COUNTS_PADDING: under the trace
				   backend, the padding instructions the patched
				   native sites would have run.  -ENODEV where
				   it is not counted, -EINVAL: no such which */
#define SYS_pipe	20	/* (int fds[2]): a new pipe, fds[0] its read end
				   and fds[1] its write end, the two lowest free
				   descriptors; 0, or -EMFILE (fewer than two
				   free), -ENFILE (every pipe allowed is open),
				   -ENOMEM */
#define SYS_read	21	/* (fd, buf, len): from a read end, what the pipe
				   holds up to len, after waiting while it is
				   empty and a write end is open; 0 when empty
				   with none (end of file); -EBADF */
#define SYS_fdwrite	22	/* (fd, buf, len): to a write end, waiting while
				   the pipe is full; up to PIPE_BUF bytes go in
				   whole; -EPIPE when no read end is open
				   (before any byte); -EBADF */
#define SYS_close	23	/* (fd): 0, or -EBADF if it is not open */
#define NR_SYSCALLS	24

/* SYS_counts' which. */
#define COUNTS_HOST	0
#define COUNTS_PADDING	1

#define NR_FDS		16	/* descriptors a task may have open */
#define PIPE_BUF	4096	/* a pipe's capacity: a write up to this is
				   never interleaved with another */

/* The longest sleep: wake-up times are compared with the tick counter
 * as a signed difference, which orders two times only when they are
 * less than 2^31 ticks apart (some 248 days at 100 Hz). */
#define SLEEP_MAX_TICKS	0x7fffffffu

/* wait()'s status: what the child passed to exit, or, for a child the
 * kernel killed for a CPU exception v, -(EXIT_KILLED_BASE + v). */
#define EXIT_KILLED_BASE 1000

#define SYSCALL_VECTOR	0x80
#define SYSCALL_ERROR_MAX 4095

#endif
