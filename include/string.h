/*
 * string.h - the few memory and string routines the kernel uses
 * (kernel/string.c).  GCC may also emit calls to memcpy/memset itself.
 */
#ifndef PV386_STRING_H
#define PV386_STRING_H

#include <types.h>

void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strstr(const char *haystack, const char *needle);
size_t strlcpy(char *dst, const char *src, size_t size);

#endif
