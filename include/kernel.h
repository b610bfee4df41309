/*
 * kernel.h - what every kernel file needs: printk, panic and small helpers.
 */
#ifndef PV386_KERNEL_H
#define PV386_KERNEL_H

#include <types.h>
#include <stdarg.h>

#define __printf(a, b)	__attribute__((format(printf, a, b)))

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);
/* How much of s[0..n) is whole lines (to its last newline), or n if it
 * has no newline: where text from outside is cut into messages. */
size_t printk_whole_lines(const char *s, size_t n);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

void panic(const char *fmt, ...) __printf(1, 2) __noreturn;

#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))

#endif
