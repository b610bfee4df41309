/*
 * spinlock_unlock.S - the native spin_unlock op as a function, and the
 * native spin_draw beside it: the
 * table's form, which runs where its sites are calls (nopatch, trace,
 * and any backend that keeps it: rom, guest).  Patched natively, each
 * site holds only its first instruction (tpl_spin_unlock, templates.S).
 *
 * Callee-save, as Linux's PV_CALLEE_SAVE thunks are: the sites are a
 * bare `call` (asm/paravirt.h, pv_spin_unlock) and their callers keep
 * EAX, ECX and EDX across them, so this keeps every register; only the
 * flags change, as they do under the add itself.
 *
 * After the release it looks whether anyone waits (next differs from
 * the new owner) and, if so, has spin_unlock_kick_waiter() kick the CPU
 * that waits for the ticket just served: natively the kick does nothing,
 * so the release alone is the op exactly; through the table (trace)
 * the kick is seen and counted, and it is what a hypervisor's unlock
 * must do (docs/smp.md, "Locks").
 */
#ifdef CONFIG_PARAVIRT

	.text
	.globl native_spin_unlock
	.type native_spin_unlock, @function
native_spin_unlock:			/* the lock in EAX */
	addw $1, (%eax)			/* the release: owner + 1 */
	pushl %edx
	movw 2(%eax), %dx		/* next */
	cmpw (%eax), %dx		/* == owner: nobody waits */
	popl %edx
	jne 1f
	ret
1:	pushl %eax
	pushl %ecx
	pushl %edx
	call spin_unlock_kick_waiter
	popl %edx
	popl %ecx
	popl %eax
	ret
	.size native_spin_unlock, . - native_spin_unlock

/* The draw's table form (asm/spinlock.h): the locked instruction each
 * site holds patched, callee-save, in the registers of the site. */
	.globl native_spin_draw
	.type native_spin_draw, @function
native_spin_draw:			/* add in EAX, the lock in EDX */
	lock xaddl %eax, (%edx)		/* the old word in EAX */
	ret
	.size native_spin_draw, . - native_spin_draw

#endif
