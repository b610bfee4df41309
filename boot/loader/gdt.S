/*
 * gdt.S - the loader's GDT: flat 4 GiB code and data, 32-bit.
 *
 * Two users: unreal.S loads the data descriptor into DS/ES/FS/GS for a
 * moment so real mode keeps 4 GiB limits, and enter_kernel.S switches to
 * protected mode with both, the flat segments Multiboot promises.
 */
#include "loader_asm.h"

	.section .rodata
	.balign 8
gdt:
	.quad 0				/* the null descriptor */
	.quad 0x00cf9a000000ffff	/* LOADER_CODE32: base 0, 4 GiB, exec/read */
	.quad 0x00cf92000000ffff	/* LOADER_DATA32: base 0, 4 GiB, read/write */
gdt_end:

	.globl gdt_descriptor
gdt_descriptor:
	.word gdt_end - gdt - 1
	.long gdt
