/*
 * spinlock_one_cpu_entry.S - the one-CPU draws (spinlock_one_cpu.c) in
 * the registers of the instructions they stand for (asm/spinlock.h):
 * add or old in EAX, the lock in EDX, new in ECX, the old word back in
 * EAX, every other register kept.  The draw's sites are callee-save
 * (asm/paravirt.h), and a fixup calls them from an instruction the
 * compiler knew nothing of: either way nobody saves ECX and EDX around
 * them, so they do.
 */
	.text

	.globl spin_draw_one_cpu
	.type spin_draw_one_cpu, @function
spin_draw_one_cpu:			/* add in EAX, the lock in EDX */
	pushl %ecx
	pushl %edx
	call ticket_add_one_cpu
	popl %edx
	popl %ecx
	ret
	.size spin_draw_one_cpu, . - spin_draw_one_cpu

	.globl spin_try_draw_one_cpu
	.type spin_try_draw_one_cpu, @function
spin_try_draw_one_cpu:			/* old in EAX, the lock in EDX, new in ECX */
	pushl %ecx
	pushl %edx
	call ticket_cmpxchg_one_cpu
	popl %edx
	popl %ecx
	ret
	.size spin_try_draw_one_cpu, . - spin_try_draw_one_cpu
