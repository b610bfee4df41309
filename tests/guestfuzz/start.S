/*
 * start.S - the guest fuzzer's entry, its trap stubs and the way into
 * and out of a probe (tests/guestfuzz/guestfuzz.h has the whole design).
 *
 * Every vector of the fuzzer's IDT leads to a stub that pushes its
 * number and jumps to trap_common, which saves the registers and asks
 * trap_c() what to do: resume (the host's injected interrupts) or leave
 * the probe, by a jump back into probe_enter()'s caller - a longjmp
 * that needs nothing of the stack the probe left, for the frame a trap
 * leaves is exactly what the fuzzer does not trust.  The stubs push no
 * error code: whether the host pushed one is a thing trap_c() finds
 * out, and checks.
 */
#include <asm/segment.h>
#include <multiboot_header.h>

#define KERNEL_DS_RING1	(__KERNEL_DS | 1)
#define MAIN_STACK_SIZE	(4 * 4096)	/* machine.c's main_stack */

	MULTIBOOT_HEADER (MULTIBOOT_PAGE_ALIGN | MULTIBOOT_MEMORY_INFO)

	.text
/* The host enters at ring 1 as a Multiboot loader would: EBX is the
 * Multiboot block. */
	.globl _start
_start:
	movl $main_stack + MAIN_STACK_SIZE, %esp
	movl %ebx, %eax
	call fuzz_main
1:	jmp 1b

/*
 * probe_enter(launch): run a probe from the frame at launch (struct
 * launch: the registers for popal, the data segments, then an iret
 * frame); it comes back only by leave_probe, when a trap ends it.
 */
	.globl probe_enter
probe_enter:
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	movl %esp, probe_saved_esp
	movl %eax, %esp
	popal
	popl %gs
	popl %fs
	popl %es
	popl %ds
	iret

/* The stack and segment the probe left are not trusted: the fuzzer's
 * own, then the callee-saved registers probe_enter kept. */
leave_probe:
	movl $KERNEL_DS_RING1, %eax
	movl %eax, %ss
	movl probe_saved_esp, %esp
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret

/* The registers as struct trap_frame has them, then trap_c(). */
trap_common:
	pushl %ds
	pushl %es
	pushl %fs
	pushl %gs
	pushal
	movl $KERNEL_DS_RING1, %eax
	movl %eax, %ds
	movl %eax, %es
	cld
	movl %esp, %eax
	call trap_c
	testl %eax, %eax
	jnz leave_probe
	popal
	popl %gs
	popl %fs
	popl %es
	popl %ds
	addl $4, %esp			/* the vector */
	iret

/* One stub per vector, 16 bytes apart (a gate's address is
 * fuzz_trap_stubs + 16 * vector). */
	.balign 16
	.globl fuzz_trap_stubs
fuzz_trap_stubs:
vector = 0
	.rept 256
	.balign 16
	pushl $vector
	jmp trap_common
vector = vector + 1
	.endr
