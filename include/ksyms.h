/*
 * ksyms.h - the kernel's own symbol table, for turning code addresses
 * into function names in backtraces and the patcher's log.
 *
 * The Makefile links the kernel twice: the first link's text symbols
 * (nm) become a table (tools/gen-ksyms) linked into the second, placed
 * after all code so no code address moves.
 */
#ifndef PV386_KSYMS_H
#define PV386_KSYMS_H

#include <types.h>

/* Name of the function containing addr, or NULL; *offset is addr's
 * distance from the function's start. */
const char *ksym_lookup(u32 addr, u32 *offset);

#endif
