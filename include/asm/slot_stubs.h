/*
 * asm/slot_stubs.h - for assembly: a table of one stub per slot of
 * paravirt_ops, the shape both the opcount stubs
 * (paravirt/count_entry.S) and the trace backend's
 * (paravirt/backends/trace_entry.S) have.
 *
 * SLOT_STUBS table, body emits, for slot = 0 .. PARAVIRT_SLOTS - 1, a
 * stub made by the assembler macro `body slot`, and in .rodata the
 * array `table` of their addresses (void *const table[slots]).
 *
 * SLOT_COUNT counters, n adds one to the 32-bit counters[n] leaving
 * every register and the flags as they were (lea, not inc), through
 * %ss: (a stub jumped to by iret's site may find a user %ds).  Not one
 * instruction: where interrupts may be on, count otherwise.
 */
#ifndef ASM_SLOT_STUBS_H
#define ASM_SLOT_STUBS_H

#include <generated/asm-offsets.h>

.macro SLOT_COUNT counters, n
	pushl %eax
	movl %ss:\counters + 4 * \n, %eax
	leal 1(%eax), %eax
	movl %eax, %ss:\counters + 4 * \n
	popl %eax
.endm

.macro SLOT_STUBS table, body
	.pushsection .rodata
	.balign 4
	.globl \table
\table:
	.popsection
	slot = 0
	.rept PARAVIRT_SLOTS
	.pushsection .rodata
	.long 1f
	.popsection
1:	\body slot
	slot = slot + 1
	.endr
.endm

#endif
