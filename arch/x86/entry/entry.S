/*
 * entry.S - the way into the kernel for every interrupt and exception.
 *
 * Each of the 256 IDT vectors gets a small stub that makes the stack look
 * the same for all of them (a 0 where the CPU pushes no error code, then
 * the vector number) and jumps to common_trap.  common_trap saves the
 * registers as a struct pt_regs, calls trap_dispatch() in C and returns
 * with INTERRUPT_RETURN, which goes through paravirt_ops like every other
 * privileged operation.
 */
#include <asm/extable.h>
#include <asm/segment.h>
#include <asm/privileged.h>
#include <asm/syscall.h>
#include <generated/asm-offsets.h>

/*
 * Pop a user's data segment register on the way out.  The selector may
 * have gone bad while the task was in the kernel (it freed the LDT slot
 * it points at): the pop then faults, and the fixup loads the null
 * selector instead, as if the task had.  Its next use of the register
 * faults in user mode, where that kills only the task.
 */
.macro POP_USER_SEGMENT seg
98:	popl %\seg
	.pushsection .text.fixup, "ax"
99:	movl $0, (%esp)
	jmp 98b
	.popsection
	_ASM_EXTABLE 98b, 99b
.endm

/* The rest of struct pt_regs, below the vector: what every entry saves
 * (asm/traps.h has the layout), then the kernel's own segments. */
.macro SAVE_ALL
	pushl %ds
	pushl %es
	pushl %fs
	pushl %gs
	pushal
	call load_kernel_segments
.endm

/* And back, down to the vector. */
.macro RESTORE_ALL
	popal
	POP_USER_SEGMENT gs
	POP_USER_SEGMENT fs
	POP_USER_SEGMENT es
	POP_USER_SEGMENT ds
.endm

/* Exceptions for which the CPU pushes an error code itself. */
#define HAS_ERROR_CODE(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || \
			   (v) == 17 || (v) == 21 || (v) == 29 || (v) == 30)

	.text
	.globl trap_entry_stubs
	.type trap_entry_stubs, @function
trap_entry_stubs:
	.pushsection .rodata
	.balign 4
	.globl trap_stubs
trap_stubs:				/* const u32 trap_stubs[256], filled below */
	.popsection
	vector = 0
	.rept 256
	.pushsection .rodata
	.long 1f			/* this stub's address: trap_stubs[vector] */
	.popsection
1:	.if !HAS_ERROR_CODE(vector)
	pushl $0
	.endif
	pushl $vector
	jmp common_trap
	vector = vector + 1
	.endr
	.size trap_entry_stubs, . - trap_entry_stubs

	.type common_trap, @function
common_trap:
	cld				/* C code expects DF clear */
	SAVE_ALL
	movl %esp, %eax			/* struct pt_regs *, first regparm argument */
	call trap_dispatch
/* A new user task starts here too, with its first pt_regs on the stack
 * (arch/x86/kernel/process.c builds it). */
	.globl ret_from_trap
ret_from_trap:
	RESTORE_ALL
	addl $8, %esp			/* drop vector and error code */
	INTERRUPT_RETURN
	.size common_trap, . - common_trap

/*
 * sysenter lands here (the SYSENTER_EIP MSR), in ring 0 with interrupts
 * off, on the stack the SYSENTER_ESP MSR names: this CPU's sysenter
 * stack, which only a debug trap taken right here ever uses (a user that
 * set TF brings it along).  The first instruction moves to the task's
 * kernel stack, whose top this CPU's TSS holds: the sysenter stack lies
 * right above the TSS (asm/percpu.h), so esp0 is at a fixed offset below
 * %esp (SYSENTER_esp0, negative).  %fs is still the user's here: the
 * per-CPU area is reached through the stack pointer instead, as Linux's
 * sysenter entry did.  The encoding is as long as the old %ss:absolute.  The user side
 * (user/lib/syscall.S) pushed its return address and set EBP to that
 * stack pointer: the CPU keeps neither.  Build the same struct pt_regs
 * as an int $0x80 would, so the rest of the kernel sees no difference;
 * go back with sysexit (EIP from EDX, ESP from ECX).  The kernel runs on
 * the user's EFLAGS until sysenter_dispatch replaces them.
 */
	.globl sysenter_entry
	.type sysenter_entry, @function
sysenter_entry:
	movl SYSENTER_esp0(%esp), %esp	/* %ss-relative: %ds is still the user's */
	cld				/* C code expects DF clear */
	pushl $__USER_DS		/* ss */
	pushl %ebp			/* esp: the user's, as the stub left it */
	pushl $0			/* eflags: sysenter_dispatch sets them */
	pushl $__USER_CS
	pushl $0			/* eip: sysenter_dispatch reads it */
	pushl $0			/* error code */
	pushl $SYSCALL_VECTOR
	SAVE_ALL
	movl %esp, %eax
	call sysenter_dispatch
	.globl sysenter_dispatch_return	/* for backtraces: the way out to user mode */
sysenter_dispatch_return:
	RESTORE_ALL
	movl 8(%esp), %edx		/* user EIP */
	movl 20(%esp), %ecx		/* user ESP */
	ENABLE_INTERRUPTS_SYSEXIT
	.size sysenter_entry, . - sysenter_entry

/*
 * The kernel's own segment registers, on every entry: %ds and %es flat,
 * %fs this CPU's per-CPU area (asm/percpu.h: the selector is the same on
 * every CPU, each CPU's GDT gives it that CPU's base), %gs null.  The
 * user's values are saved in the frame; leaving them loaded would let a
 * selector that went bad in the meantime (see POP_USER_SEGMENT) be saved
 * again by every nested entry and fault again at every exit.  The %fs
 * load replaces the null one the uniprocessor kernel did: the same one
 * segment load per entry, a descriptor read from the GDT instead of
 * none.  Clobbers EAX only.
 */
	.type load_kernel_segments, @function
load_kernel_segments:
	movl $__KERNEL_DS, %eax
	movl %eax, %ds
	movl %eax, %es
	movl $__PERCPU_SEL, %eax
	movl %eax, %fs
	xorl %eax, %eax
	movl %eax, %gs
	ret
	.size load_kernel_segments, . - load_kernel_segments

/*
 * The exception table sends a faulting INTERRUPT_RETURN here, with the
 * frame it could not return through on top of the stack.  Only a return
 * to user mode may fail for reasons other than a kernel bug (bad_iret
 * tells them apart).  %ds, %es and %fs may already hold the user's
 * selectors: bad_iret reads `current` through %fs.
 */
	.globl iret_fault
	.type iret_fault, @function
iret_fault:
	movl $__KERNEL_DS, %eax
	movl %eax, %ds
	movl %eax, %es
	movl $__PERCPU_SEL, %eax
	movl %eax, %fs
	movl %esp, %eax			/* the frame: EIP, CS, EFLAGS[, ESP, SS] */
	call bad_iret			/* does not return */
	.size iret_fault, . - iret_fault

/*
 * void switch_stacks(u32 *save_esp, u32 next_esp): the context switch.
 * Save the callee-saved registers on this stack and its pointer in
 * *save_esp, take next_esp, and pop the registers the next task saved
 * when it was switched out; ret returns into its switch_stacks call
 * (or, the first time, to where process.c pointed it).
 */
	.globl switch_stacks
	.type switch_stacks, @function
switch_stacks:
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	movl %esp, (%eax)
	movl %edx, %esp
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret
	.size switch_stacks, . - switch_stacks

/* A new kernel thread starts here, function in EBX: interrupts on (the
 * switch ran with them off), and call it.  It never returns: the kernel
 * gives every thread a function that ends the task itself. */
	.globl kernel_thread_start
	.type kernel_thread_start, @function
kernel_thread_start:
	ENABLE_INTERRUPTS
	call *%ebx
	ud2
	.size kernel_thread_start, . - kernel_thread_start
