/*
 * stage1.S - the boot sector: the 512 bytes the BIOS loads at 0x7c00.
 *
 * Its one job is to read stage 2 and the kernel header (LBA 1-17, see
 * layout.h) from the drive the BIOS started it from (DL) and jump there
 * with DL still holding that drive.  It reads one sector at a time in
 * CHS, converting with the geometry the BIOS reports (INT 13h AH=08h),
 * so the same sector boots a floppy and a hard disk; stage 2 does the
 * fast track-by-track reading of the kernel.  On a hard disk this sector
 * is the MBR, and tools/mkbootimg fills in its partition table.
 */
#include "layout.h"

#define READ_TRIES	5	/* floppy motors need a reset and a retry or two */
#define COM1		0x3f8

	.code16
	.section .text
	.globl stage1_start
stage1_start:
	cli
	xorw %ax, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movw $STAGE1_ADDR, %sp
	ljmp $0, $1f		/* some BIOSes jump to 07c0:0000: make CS 0 */
1:	sti
	cld
	movb %dl, boot_drive

	/* Geometry: CL bits 0-5 = sectors per track, DH = last head.  ES:DI
	 * = 0:0 works around BIOSes that read it for floppies. */
	movb $0x08, %ah
	xorw %di, %di
	int $0x13
	jc no_geometry
	xorw %ax, %ax		/* for a floppy, ES:DI now point at its table */
	movw %ax, %es
	andb $0x3f, %cl
	jz no_geometry
	movb %cl, sectors
	incb %dh
	movb %dh, heads

	movw $STAGE2_LBA, %ax		/* AX = LBA, BX = where it goes */
	movw $STAGE2_ADDR, %bx
next_sector:
	call read_sector
	addw $512, %bx
	incw %ax
	cmpw $HEADER_LBA + 1, %ax
	jb next_sector
	movb boot_drive, %dl
	jmp STAGE2_ADDR

/* Read LBA AX to 0:BX, trying READ_TRIES times with a reset between.
 * Keeps AX and BX. */
read_sector:
	pusha
	movw $READ_TRIES, %bp
	movw %ax, %si
retry:
	movw %si, %ax
	divb sectors		/* AL = LBA / spt (track), AH = LBA % spt */
	movb %ah, %cl
	incb %cl		/* sectors count from 1 */
	xorb %ah, %ah
	divb heads		/* AL = cylinder, AH = head (LBA 17 fits in AL) */
	movb %al, %ch
	movb %ah, %dh
	movb boot_drive, %dl
	movw $0x0201, %ax	/* read one sector */
	int $0x13
	jnc read_done
	xorb %ah, %ah		/* reset the drive, then try again */
	movb boot_drive, %dl
	int $0x13
	decw %bp
	jnz retry
	movw $msg_read, %si
	jmp die
read_done:
	popa
	ret

no_geometry:
	movw $msg_geometry, %si
/* Print the NUL-terminated string at SI on screen and COM1, then halt. */
die:
	lodsb
	testb %al, %al
	jz halt
	movb $0x0e, %ah		/* teletype output */
	xorw %bx, %bx
	int $0x10
	movw $COM1, %dx		/* COM1 as the BIOS left it; unread if absent */
	outb %al, %dx
	jmp die
halt:
	cli
	hlt
	jmp halt

msg_read:	.asciz "pv386 boot: disk read error, stopped\r\n"
msg_geometry:	.asciz "pv386 boot: no disk geometry from the BIOS, stopped\r\n"

	.section .bss
boot_drive:	.skip 1
sectors:	.skip 1
heads:		.skip 1
