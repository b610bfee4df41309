/*
 * pv386.h - the user library: system calls and a few C helpers for
 * pv386's user programs.  Everything a program can ask of the kernel is
 * here; the numbers and the calling convention are in uapi/syscalls.h.
 */
#ifndef PV386_USER_H
#define PV386_USER_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <uapi/syscalls.h>
#include <uapi/errno.h>

/* The registers the kernel started this program with, as crt0.S found
 * them before anything ran (segment registers zero-extended). */
struct entry_state {
	uint32_t eax, ebx, ecx, edx, esi, edi, ebp, esp, eflags;
	uint32_t cs, ds, es, fs, gs, ss;
};
extern const struct entry_state entry_state;

/* The raw ways in: nr and up to three arguments; the result (or -errno). */
long syscall3(long nr, long a, long b, long c);		/* the best the CPU has */
long syscall_int80(long nr, long a, long b, long c);
long syscall_sysenter(long nr, long a, long b, long c);
int have_sysenter(void);

void exit(int status) __attribute__((noreturn));
long write(const void *buf, size_t len);
int getpid(void);
void yield(void);
long sleep_ticks(unsigned long ticks);	/* 0, or -EINVAL past SLEEP_MAX_TICKS */
int spawn(const char *program, const char *arg);
int wait(int pid, int *status);
int set_tls(int slot, const void *base, unsigned long limit);	/* a selector */
int set_ldt(int slot, const void *base, unsigned long limit);	/* a selector */
int iopl(int level);
void *brk(void *end);
void *sbrk(long increment);		/* (void *)-1 when refused */
/* A thread sharing this program's memory: fn(arg) on the stack that ends
 * (grows down from) stack_top, then exit(0).  Its pid (wait() collects
 * it), or a negative error. */
int thread_create(void (*fn)(void *), void *arg, void *stack_top);
/* Pipes and descriptors (uapi/syscalls.h): fds[0] reads what fds[1]
 * writes.  read and fdwrite return the bytes moved or a negative error;
 * a child spawned after pipe() holds the same descriptors. */
int pipe(int fds[2]);
long read(int fd, void *buf, size_t len);
long fdwrite(int fd, const void *buf, size_t len);
int close(int fd);
int watch(void *addr, int len);
int getarg(char *buf, size_t size);
int uptime(uint32_t out[4]);
int read_pmc_count(uint64_t *count);
/* In a guest: exits to its host and hypercalls its host counted; else -ENODEV. */
int host_counts(uint32_t out[2]);
/* What the machine counted for measuring programs (COUNTS_HOST, COUNTS_PADDING):
 * at most n words into out; how many there are, or -ENODEV where not counted. */
long machine_counts(uint32_t *out, unsigned long n, int which);
uint32_t cpu_features(void);	/* CPUID.1:EDX bits the kernel supports */

/* A 32-bit read through %gs or %fs at offset: segments of a task's own
 * (set_tls, set_ldt).  Never %es: compiled code uses it for string
 * instructions. */
static inline uint32_t read_gs(uint32_t offset)
{
	uint32_t v;

	asm volatile("movl %%gs:(%1), %0" : "=r" (v) : "r" (offset));
	return v;
}

static inline uint32_t read_fs(uint32_t offset)
{
	uint32_t v;

	asm volatile("movl %%fs:(%1), %0" : "=r" (v) : "r" (offset));
	return v;
}

/* C helpers: the kernel's string routines (kernel/string.c) */
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
char *strstr(const char *haystack, const char *needle);
size_t strlcpy(char *dst, const char *src, size_t size);
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int atoi(const char *s);
unsigned long strtoul(const char *s, char **end, int base);

#endif
