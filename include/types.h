/*
 * types.h - the fixed-width integer types every pv386 file uses.
 *
 * The kernel is freestanding: it may include only the compiler's own
 * headers (stdint.h, stddef.h, stdbool.h, stdarg.h), never a C library.
 * Short Linux-style names (u8 .. u64) keep structure layouts readable.
 */
#ifndef PV386_TYPES_H
#define PV386_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

typedef uint8_t  u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t   s8;
typedef int16_t  s16;
typedef int32_t  s32;
typedef int64_t  s64;

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define __packed	__attribute__((packed))
#define __noreturn	__attribute__((noreturn))
#define __used		__attribute__((used))
#define __section(s)	__attribute__((section(s)))

#include <uapi/errno.h>

#endif
