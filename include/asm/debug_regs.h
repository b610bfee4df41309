/*
 * asm/debug_regs.h - the bits of the debug registers DR6 and DR7 (Intel
 * SDM vol. 3, 17.2), for everything that reads or arms them: the
 * kernel's watchpoints (arch/x86/kernel/hw_breakpoint.c), its single
 * step check (traps.c), a host's check of its guest's watchpoints
 * (arch/x86/host/check.c) and their tests.
 *
 * DR0-DR3 hold addresses; DR7 arms them: for slot i, a local and a
 * global enable bit (bits 2i and 2i+1), a condition (bits 16+4i: 00 an
 * instruction, 01 data writes, 10 I/O, 11 data reads and writes) and a
 * length (bits 18+4i: 0 = 1 byte, 1 = 2, 3 = 4, aligned).  DR6 says
 * what raised the last #DB.
 */
#ifndef ASM_DEBUG_REGS_H
#define ASM_DEBUG_REGS_H

#define DR6_HIT_MASK		0xfu		/* B0-B3: which slot fired */
#define DR6_BS			(1u << 14)	/* a single step (TF) */

#define DR7_LOCAL_ENABLE(i)	(1u << (2 * (i)))
#define DR7_ENABLES		0x000000ffu	/* L0, G0 ... L3, G3 */
#define DR7_EXACT		0x00000300u	/* LE, GE: exact data breakpoints */
#define DR7_ALWAYS_ONE		0x00000400u	/* bit 10 reads as 1 */
#define DR7_GD			(1u << 13)	/* general detect: a move to DRn traps */
#define DR7_SLOT_FIELDS		0xffff0000u	/* every slot's condition and length */

#define DR7_RW_SHIFT(i)		(16 + 4 * (i))
#define DR7_RW_WRITE(i)		(1u << DR7_RW_SHIFT(i))
#define DR7_RW_IO		2u		/* slot i's condition field: I/O */
#define DR7_RW_OF(dr7, i)	(((dr7) >> DR7_RW_SHIFT(i)) & 3)
#define DR7_LEN(i, code)	((u32)(code) << (18 + 4 * (i)))
#define DR7_LEN_4		3u

#endif
