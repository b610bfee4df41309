/*
 * layout.h - where the pv386 loader puts things, on the disk and in memory.
 *
 * Shared by both stages (assembly and C) and mirrored by tools/mkbootimg,
 * which writes the image.  The disk, floppy or hard disk alike, is:
 *
 *   LBA 0                   stage 1, the boot sector (an MBR on a disk)
 *   LBA 1 .. 16             stage 2, at most 8 KiB
 *   LBA 17                  the kernel header: what and where the kernel is
 *   LBA 18 ..               the kernel ELF file, unchanged (stripped)
 *   then                    each module (the ops ROM ...), from a sector
 *                           boundary, as the header lists them
 *
 * In memory (real mode, all in segment 0 but the track buffer):
 *
 *   0x07c00                 stage 1, where the BIOS loads it
 *   0x07e00                 stage 2, then the header sector at 0x09e00
 *   0x0a000 .. 0x10000      stage 2's bss: Multiboot info, map, strings
 *   0x10000 .. 0x18000      the track buffer the BIOS reads into: 64 KiB
 *                           aligned, so no read crosses a DMA boundary
 *   below 0x07c00           the stack
 */
#ifndef PV386_LOADER_LAYOUT_H
#define PV386_LOADER_LAYOUT_H

#define STAGE1_ADDR		0x7c00
#define STAGE2_ADDR		0x7e00
#define STAGE2_LBA		1
#define STAGE2_SECTORS		16
#define HEADER_LBA		(STAGE2_LBA + STAGE2_SECTORS)
#define HEADER_ADDR		(STAGE2_ADDR + STAGE2_SECTORS * 512)
#define KERNEL_LBA		(HEADER_LBA + 1)
#define TRACK_BUFFER		0x10000
#define TRACK_BUFFER_BYTES	0x8000	/* 63 sectors fit, a whole track */

/* The kernel header (LBA 17), little-endian, as tools/mkbootimg packs it. */
#define HEADER_MAGIC		"PV386KRN"	/* 8 bytes, no NUL */
#define HEADER_OFF_LBA		8	/* u32: first sector of the kernel */
#define HEADER_OFF_BYTES	12	/* u32: the kernel file's size */
#define HEADER_OFF_FLAGS	16	/* u32: HEADER_F_* */
#define HEADER_OFF_CMDLINE	20	/* char[256]: the default line */
#define HEADER_CMDLINE_MAX	256
#define HEADER_OFF_NR_MODULES	276	/* u32: Multiboot modules on the disk */
#define HEADER_OFF_MODULES	280	/* each: u32 LBA, u32 bytes, char name[24] */
#define HEADER_MODULE_SIZE	32
#define HEADER_MODULE_NAME	24	/* with its NUL: the module's string */
#define HEADER_MAX_MODULES	4

/* Test switches, off in a normal image (tools/mkbootimg --flags). */
#define HEADER_F_A20_OFF_FIRST	(1 << 0)	/* turn A20 off via port 0x92 first */
#define HEADER_F_A20_NO_BIOS	(1 << 1)	/* skip INT 15h AX=2401 */
#define HEADER_F_A20_NO_KBC	(1 << 2)	/* skip the keyboard controller */
#define HEADER_F_NO_E820	(1 << 3)	/* as if the BIOS had no E820 */
#define HEADER_F_NO_E801	(1 << 4)	/* ... and no E801 */

#endif
