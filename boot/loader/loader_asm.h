/*
 * loader_asm.h - selectors of the loader's GDT (gdt.S), for the assembly
 * files that load them.
 */
#ifndef PV386_LOADER_ASM_H
#define PV386_LOADER_ASM_H

#define LOADER_CODE32	0x08
#define LOADER_DATA32	0x10

#endif
