/*
 * multiboot_header.h - the Multiboot v1 header: the three words a loader
 * (GRUB, QEMU's -kernel, pv386's own, a pv386 host) looks for to know
 * that an image is a Multiboot kernel.  For the assembly of every such
 * program in the tree: pv386 itself (boot/multiboot.S), the guest
 * fuzzer (tests/guestfuzz/) and the v86 bug programs (tests/v86bugs/).
 * Where a loader looks for it: arch/x86/kernel/multiboot.c.
 */
#ifndef PV386_MULTIBOOT_HEADER_H
#define PV386_MULTIBOOT_HEADER_H

#define MULTIBOOT_HEADER_MAGIC	0x1BADB002
#define MULTIBOOT_PAGE_ALIGN	(1 << 0)	/* modules on 4 KiB boundaries */
#define MULTIBOOT_MEMORY_INFO	(1 << 1)	/* please fill mem_lower/upper, mmap */

#ifdef __ASSEMBLER__
/*
 * The header asking for flags: magic, flags and a checksum that make
 * the three sum to 0.  In section .multiboot, which each program's
 * linker script puts first, so that it lies 4-aligned in the first
 * 8 KiB where loaders search; the section in use before is kept.
 */
.macro MULTIBOOT_HEADER flags
	.pushsection .multiboot, "a"
	.balign 4
	.long MULTIBOOT_HEADER_MAGIC, \flags, -(MULTIBOOT_HEADER_MAGIC + \flags)
	.popsection
.endm
#endif

#endif
