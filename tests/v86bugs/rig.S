/*
 * rig.S - the common part of the v86 bug programs (docs/v86-bugs.md): a
 * freestanding Multiboot kernel that sets up the least a CPU needs to
 * run ring 3 and take its exceptions, drops to ring 3 at case_ring3 and
 * reports on COM1 what happened to the case's iret.
 *
 * Each program is this file linked with one case file (iret_*.S), which
 * defines three symbols:
 *   case_name    its name, a NUL-terminated string
 *   case_ring3   where ring 3 starts: it builds an iret frame
 *   case_iret    the address of its iret, so a fault there is named
 * The machine: no paging; flat 4 GiB segments for ring 0 and ring 3;
 * a GDT with two more slots a case may name (an empty one and a code
 * segment marked not present); a TSS for ring 0's stack, whose back
 * link is 0; IF clear throughout, so no interrupt comes in between.
 *
 * What it prints, one line, and the value it writes to port 0xf4
 * (QEMU's isa-debug-exit and tools/run-v86 both exit (value << 1) | 1):
 *   v86bugs: NAME: #GP(0008) at the iret       a fault: its vector
 *   v86bugs: NAME: no fault: landed at 0008:00100123   EXIT_NO_FAULT
 * "at the iret" when the fault's frame says ring 3's iret instruction,
 * else the CS:EIP it names.  The landing pad is what a case's frame
 * points at: reaching it means the iret completed.
 */

#include <multiboot_header.h>

#define RING0_CS	0x08
#define RING0_DS	0x10
#define RING3_CS	0x1b
#define RING3_DS	0x23
#define TSS_SEL		0x28
#define EMPTY_SLOT	0x30		/* an all-zero GDT entry */
#define ABSENT_CODE	0x38		/* ring-3 code, present bit clear */
#define GDT_LIMIT	(8 * 8 - 1)

#define COM1		0x3f8
#define COM1_LSR	(COM1 + 5)
#define LSR_THR_EMPTY	0x20
#define EXIT_PORT	0xf4
#define EXIT_NO_FAULT	0x40		/* above every exception vector */

#define EXCEPTIONS	32
#define LANDED_VECTOR	0x30		/* the landing pad's int, open to ring 3 */
#define STUB_SIZE	16
#define STACK_SIZE	4096
#define TSS_SIZE	104

	MULTIBOOT_HEADER 0		/* an ELF: nothing asked of the loader */

	.text
/* The loader leaves protected mode with its own GDT: take ours, then
 * the IDT and the TSS, then iret to ring 3 at the case. */
	.globl _start
_start:
	cli
	lgdt gdt_pointer
	ljmp $RING0_CS, $1f
1:	movl $RING0_DS, %eax
	movl %eax, %ss
	movl $ring0_stack + STACK_SIZE, %esp
	movl %eax, %ds
	movl %eax, %es
	call fill_idt
	lidt idt_pointer
	call fill_tss_descriptor
	movl $TSS_SEL, %eax
	ltr %ax
	movl $RING3_DS, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %fs
	movl %eax, %gs
	pushl $RING3_DS
	pushl $ring3_stack + STACK_SIZE
	pushl $0x2			/* IF clear, IOPL 0 */
	pushl $RING3_CS
	pushl $case_ring3
	iret

/* Where a case's frame points: an iret that completes comes here, at
 * whatever ring, and says so through a gate ring 3 may use. */
	.globl landing_pad
landing_pad:
	int $LANDED_VECTOR
1:	jmp 1b

/* fill_idt: an interrupt gate for each exception (to its stub) and for
 * the landing pad's vector, which alone ring 3 may call. */
fill_idt:
	xorl %ecx, %ecx
1:	movl %ecx, %eax
	shll $4, %eax			/* STUB_SIZE */
	addl $stubs, %eax
	movl $0x8e00, %edx		/* present, DPL 0, 32-bit interrupt gate */
	call set_gate
	incl %ecx
	cmpl $EXCEPTIONS, %ecx
	jb 1b
	movl $LANDED_VECTOR, %ecx
	movl $landed_stub, %eax
	movl $0xee00, %edx		/* present, DPL 3 */
	call set_gate
	ret

/* set_gate: IDT entry ECX to handler EAX with access word EDX. */
set_gate:
	leal idt(,%ecx,8), %edi
	movw %ax, (%edi)
	movw $RING0_CS, 2(%edi)
	shrl $16, %eax
	movw %dx, 4(%edi)
	movw %ax, 6(%edi)
	ret

/* fill_tss_descriptor: the TSS's base goes into its GDT entry (split
 * across the descriptor, so it is written at run time). */
fill_tss_descriptor:
	movl $tss, %eax
	movl $gdt + TSS_SEL, %edi
	movw %ax, 2(%edi)
	shrl $16, %eax
	movb %al, 4(%edi)
	movb %ah, 7(%edi)
	ret

/* One stub a vector, STUB_SIZE bytes apart: those of vectors without an
 * error code push a 0 in its place, so every frame looks the same. */
.macro STUB vector
	.balign STUB_SIZE
	.if (\vector != 8) && ((\vector < 10) || (\vector > 14)) && (\vector != 17)
	pushl $0
	.endif
	pushl $\vector
	jmp report_fault
.endm
	.balign STUB_SIZE
stubs:
	.irp v, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	STUB \v
	.endr

/* report_fault: "#GP(0008) at the iret" for the frame [vector, error
 * code, EIP, CS ...], then exit with the vector. */
report_fault:
	movl $RING0_DS, %eax
	movl %eax, %ds
	call print_case
	movl $hash, %esi
	call print
	movl (%esp), %eax
	leal names(,%eax,4), %esi
	call print
	movl $open, %esi
	call print
	movl 4(%esp), %eax
	movl $4, %ecx
	call print_hex
	movl $close_at, %esi
	call print
	cmpl $case_iret, 8(%esp)
	jne 1f
	cmpl $RING3_CS, 12(%esp)
	jne 1f
	movl $at_the_iret, %esi
	call print
	jmp 2f
1:	call print_frame_address
2:	movl $newline, %esi
	call print
	movl (%esp), %eax
	jmp exit

/* landed_stub: the case's iret completed; say where it went. */
landed_stub:
	movl $RING0_DS, %eax
	movl %eax, %ds
	call print_case
	movl $no_fault, %esi
	call print
	subl $8, %esp			/* as a fault's frame: EIP at 8(%esp) */
	call print_frame_address
	movl $newline, %esi
	call print
	movl $EXIT_NO_FAULT, %eax
	jmp exit

/* print_frame_address: "CCCC:EEEEEEEE" from the caller's frame, where
 * EIP is at 8 and CS at 12 (above this call's return address). */
print_frame_address:
	movl 16(%esp), %eax
	movl $4, %ecx
	call print_hex
	movl $colon, %esi
	call print
	movl 12(%esp), %eax
	movl $8, %ecx
	call print_hex
	ret

/* print_case: "v86bugs: NAME: ". */
print_case:
	movl $prefix, %esi
	call print
	movl $case_name, %esi
	call print
	movl $separator, %esi
	jmp print

/* exit: AL to the exit port, then stop for good. */
exit:
	outb %al, $EXIT_PORT
1:	cli
	hlt
	jmp 1b

/* print: the string at ESI to COM1. */
print:
	lodsb
	testb %al, %al
	jz 1f
	call putc
	jmp print
1:	ret

/* print_hex: the low ECX hex digits of EAX, most significant first. */
print_hex:
	movl %eax, %ebx
	leal (,%ecx,4), %ecx
1:	subl $4, %ecx
	movl %ebx, %eax
	shrl %cl, %eax
	andl $0xf, %eax
	movb hex_digits(%eax), %al
	call putc
	testl %ecx, %ecx
	jnz 1b
	ret

/* putc: AL to COM1, once its transmitter has room. */
putc:
	pushl %eax
	movw $COM1_LSR, %dx
1:	inb %dx, %al
	testb $LSR_THR_EMPTY, %al
	jz 1b
	popl %eax
	movw $COM1, %dx
	outb %al, %dx
	ret

	.section .rodata
prefix:		.asciz "v86bugs: "
separator:	.asciz ": "
hash:		.asciz "#"
open:		.asciz "("
close_at:	.asciz ") at "
at_the_iret:	.asciz "the iret"
no_fault:	.asciz "no fault: landed at "
colon:		.asciz ":"
newline:	.asciz "\n"
hex_digits:	.ascii "0123456789abcdef"
/* The exceptions' short names (SDM vol. 3, table 6-1), four bytes each. */
	.balign 4
names:
	.irp name, DE,DB,NMI,BP,OF,BR,UD,NM,DF,CSO,TS,NP,SS,GP,PF,15,MF,AC,MC,XM,VE,CP,22,23,24,25,26,27,28,29,30,31
	.asciz "\name"
	.balign 4
	.endr

	.data
/* The GDT: flat ring-0 and ring-3 segments, the TSS, then the two
 * slots a case may return to that a CPU refuses. */
	.balign 8
gdt:
	.quad 0				/* 0x00 null */
	.quad 0x00cf9a000000ffff	/* 0x08 ring-0 code */
	.quad 0x00cf92000000ffff	/* 0x10 ring-0 data */
	.quad 0x00cffa000000ffff	/* 0x18 ring-3 code */
	.quad 0x00cff2000000ffff	/* 0x20 ring-3 data */
	.quad 0x0000890000000000 + (TSS_SIZE - 1)	/* 0x28 TSS, base filled */
	.quad 0				/* 0x30 empty */
	.quad 0x00cf7a000000ffff	/* 0x38 ring-3 code, not present */
gdt_pointer:
	.word GDT_LIMIT
	.long gdt

	.balign 8
idt:
	.fill LANDED_VECTOR + 1, 8, 0
idt_pointer:
	.word (LANDED_VECTOR + 1) * 8 - 1
	.long idt

/* The TSS: ring 0's stack for a fault from ring 3; its back link (the
 * first word) 0, as no task called this one; no I/O bitmap. */
	.balign 4
tss:
	.long 0				/* back link */
	.long ring0_stack + STACK_SIZE	/* ESP0 */
	.long RING0_DS			/* SS0 */
	.fill 22, 4, 0
	.word 0, TSS_SIZE		/* T flag, I/O map base beyond the limit */

	.bss
	.balign 16
ring0_stack:	.skip STACK_SIZE
ring3_stack:	.skip STACK_SIZE
