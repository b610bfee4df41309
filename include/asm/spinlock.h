/*
 * asm/spinlock.h - the machine half of a spinlock: a ticket lock, its
 * atomic take, its one-store release, and the barriers around them.
 *
 * include/spinlock.h builds the kernel's spinlock_t (a name, a rank, the
 * debugger's hooks) on arch_spinlock_t; nothing outside these two files
 * touches the ticket halves.
 *
 * A ticket lock is two counters in one word: `next`, the ticket the next
 * taker draws, and `owner`, the ticket now served.  Taking draws a ticket
 * (fetch-and-add on next) and waits until owner shows it; releasing
 * serves the next ticket (owner + 1).  CPUs get the lock in the order
 * they asked for it: fair, unlike a test-and-set lock, where the CPU that
 * happens to own the cache line wins again and again.
 *
 * CPU generations (asm/cpu.h, smp_possible): the fetch-and-add is `lock
 * xadd`, and spin_trylock's compare-and-swap `lock cmpxchg`, both 486
 * instructions (#UD on a 386, which pv386 supports: cpu=386, DOSBox).
 * They are needed only where another CPU can exist, and multiprocessor
 * x86 starts with the local APIC.  On a machine without one - a 386, a
 * 486, DOSBox, v86 - the ticket is drawn with a plain read and increment
 * under interrupts off: the one CPU cannot be interrupted between them,
 * so no other taker can draw the same ticket, and the layout, the release
 * and the debugger stay the same on every machine
 * (arch/x86/kernel/spinlock_one_cpu.c, out of line).  The test is the
 * APIC, not the CPU's family: DOSBox's 386 core passes the 486 test
 * (EFLAGS.AC) and has no xadd.  (A `lock xchg` test-and-set would also
 * work on a 386, but would need a second layout and a second release for
 * no gain: with one CPU there is nobody to be fair to.)  Interrupts are
 * switched with the paravirt irq ops like everywhere else, never cli/sti
 * here.
 *
 * That choice is made once, at boot, never at a take: the draw is an op
 * whose sites the patcher makes the instruction itself (inline) or a
 * direct call to the one-CPU form, by what the backend put in the slot
 * (spin_choose_draw_ops, from cpu_has_xadd: every CPU with CPUID or an
 * APIC has xadd, so only a machine that may be a 386 calls).  The PARAVIRT=n kernel
 * inlines the instruction, with an exception-table entry that sends a
 * 386's #UD to the one-CPU form, as it does for cpuid and wbinvd.
 * spin_trylock, which is rare (a busted console's printk, lockdep's
 * checked try, the SMP lock figure), is that in both kernels: `lock
 * cmpxchg` inline, a 386's #UD sent to the one-CPU form.
 *
 * The lock ops (Linux's pv_lock_ops; docs/smp.md, "Locks"): what a
 * hypervisor would change, or the machine decides, is in paravirt_ops,
 * the rest is inline here.
 *   spin_draw(add, lock)  the take's atomic step: add to the word, the
 *       old word back (Linux 2.6.25's pv_lock_ops.spin_lock was the whole
 *       take; here its wait is the slow path below).  A callee-save site
 *       taking add in EAX and the lock in EDX.  Native: `lock xadd`,
 *       patched inline, filling the site; one CPU: spin_draw_one_cpu.
 *   spin_lock_slowpath(lock, ticket)  the wait of a take whose xadd found
 *       the lock held (Linux: queued_spin_lock_slowpath; the 2013 ticket
 *       locks' lock_spinning).  Native: spin with pause until served
 *       (arch/x86/kernel/spinlock_native.c), asking wait and
 *       vcpu_is_preempted below on the way.
 *   spin_unlock(lock)  the release, a callee-save patch site (Linux:
 *       queued_spin_unlock, patched to `movb $0`).  Native: `addw $1`,
 *       patched inline: that one instruction, filling the site.  Its called form
 *       (nopatch, trace) also kicks a waiter of the ticket it served,
 *       natively a no-op, so the template is the native op exactly.
 *   spin_wait(lock, ticket)  a waiter that spun long gives its CPU back
 *       until owner may show ticket (Linux: wait(ptr, val)).  Native: a
 *       pause; a hypervisor would halt the vCPU until kicked.
 *   spin_kick(cpu)  wake the CPU waiting for a ticket just served
 *       (Linux: kick; unlock_kick in 2013).  Native: nothing.
 *   vcpu_is_preempted(cpu)  whether cpu's host has put it aside (Linux's
 *       too).  Native: false; the slow path asks it of the CPU ahead.
 * No "slow path" flag in the word, as Linux's 2013 ticket locks had: their
 * unlock was inline for everyone and needed a flag to know it must kick;
 * here the unlock is itself an op, so a hypervisor's unlock kicks from
 * its own record of sleepers (the waiters' slots, spinlock_native.c), and
 * the native uncontended path stays the xadd and the add.
 */
#ifndef ASM_SPINLOCK_H
#define ASM_SPINLOCK_H

#include <types.h>
#include <asm/atomic.h>
#include <asm/extable.h>
#include <asm/privileged.h>

/* Low half owner, high half next: one 32-bit word, so a single `lock
 * xadd` of 1 << 16 draws a ticket and reads the owner in the same step.
 * owner first: the release adds to the word's first 16 bits, wherever
 * the lock is (the unlock template's `addw $1, (%eax)`). */
typedef struct arch_spinlock {
	union {
		volatile u32 word;
		struct {
			volatile u16 owner;	/* the ticket now served */
			volatile u16 next;	/* the ticket the next taker draws */
		};
	};
} arch_spinlock_t;

_Static_assert(offsetof(arch_spinlock_t, owner) == 0, "owner is the first half");

#define ARCH_SPIN_LOCK_UNLOCKED	{ { 0 } }
#define TICKET_NEXT_ONE		(1u << 16)

/* Whether owner and next differ: someone holds it (or waits for it). */
static inline bool arch_spin_is_locked(arch_spinlock_t *lock)
{
	u32 w = lock->word;

	return (u16)w != (u16)(w >> 16);
}

/* ---- the native lock ops (the top of this file says what each does) ---- */

/*
 * The draws on a machine of one CPU (spinlock_one_cpu.c), in the
 * registers of the instructions they stand for, all but EAX kept: the
 * table's spin_draw there (PARAVIRT=y), and the fixups of the inline
 * instructions where those do not exist.
 */
u32 spin_draw_one_cpu(u32 add, arch_spinlock_t *lock);
u32 spin_try_draw_one_cpu(u32 old, arch_spinlock_t *lock, u32 new);

/*
 * The exception-table entries of a locked instruction a 386 lacks: a
 * CPU reports the #UD at the instruction's first byte, the lock prefix
 * (prefix), but DOSBox's 386 core reports it at the opcode after it
 * (insn), so each gets an entry, both sent to fixup.
 */
#define LOCKED_UD_EXTABLE(prefix, insn, fixup) \
	_ASM_EXTABLE(prefix, fixup) _ASM_EXTABLE(insn, fixup)

/*
 * spin_trylock's compare-and-swap: the word becomes new if it is old;
 * the word it was.  Rare, so not an op: `lock cmpxchg` inline in both
 * kernels, and on a 386, where it raises #UD, the exception table sends
 * it to the one-CPU form, which returns past it (a trap per try there).
 */
static inline u32 ticket_cmpxchg(arch_spinlock_t *lock, u32 old, u32 new)
{
	asm volatile("1: lock\n"
		     "4: cmpxchgl %2, (%1)\n"
		     "2:\n\t"
		     ".pushsection .text.unlikely, \"ax\"\n"
		     "3: call spin_try_draw_one_cpu\n\t"
		     "jmp 2b\n\t"
		     ".popsection\n\t"
		     LOCKED_UD_EXTABLE(1b, 4b, 3b)
		     : "+a" (old) : "d" (lock), "c" (new) : "memory", "cc");
	return old;
}

#ifdef CONFIG_PARAVIRT
/* The draw, `lock xadd` (spinlock_unlock.S): the native function of
 * machines that may have more than one CPU. */
u32 native_spin_draw(u32 add, arch_spinlock_t *lock);
/* The draw a table holds for this machine (spinlock_native.c). */
struct paravirt_ops;
void spin_choose_draw_ops(struct paravirt_ops *ops);
/* The slow path (arch/x86/kernel/spinlock_native.c). */
void native_spin_lock_slowpath(arch_spinlock_t *lock, u32 ticket);
/* Out of line for the tables of native, rom and guest, which all hold
 * them (none is privileged): spinlock_unlock.S and spinlock_native.c. */
void native_spin_unlock(arch_spinlock_t *lock);	/* keeps every register */
void native_spin_wait(arch_spinlock_t *lock, u32 ticket);
void native_spin_kick(unsigned int cpu);
bool native_vcpu_is_preempted(unsigned int cpu);
/*
 * Those lock ops as the designated initializers of a backend's table,
 * for the tables of native and guest to hold the same ones (a backend
 * never calls another's: these are the kernel's own).  The draw is the
 * locked one, whose template the patcher inlines; each backend's
 * prepare puts the one-CPU form where the machine needs it
 * (spin_choose_draw_ops).
 */
#define NATIVE_SPIN_OPS							\
	.spin_lock_slowpath	= native_spin_lock_slowpath,		\
	.spin_unlock		= native_spin_unlock,			\
	.spin_wait		= native_spin_wait,			\
	.spin_kick		= native_spin_kick,			\
	.vcpu_is_preempted	= native_vcpu_is_preempted,		\
	.spin_draw		= native_spin_draw
/* The unlock's called form, after its release: kick the CPU that waits
 * for the ticket now served, if one does (spinlock_native.c). */
void spin_unlock_kick_waiter(arch_spinlock_t *lock);
#else
/* PARAVIRT=n: the same slow path out of line, under a name of its own
 * (native_* functions are the paravirt backend's: tools/audit-natives),
 * and the rest inline, as asm/privileged.h's natives are. */
void spin_lock_slowpath(arch_spinlock_t *lock, u32 ticket);

static inline void native_spin_lock_slowpath(arch_spinlock_t *lock, u32 ticket)
{
	spin_lock_slowpath(lock, ticket);
}

/*
 * The draw inline, as the PARAVIRT=n kernel has every instruction that a
 * CPU may lack (cpuid, wbinvd): an exception-table entry sends the #UD of
 * a 386 to the one-CPU form, out of line, which returns past the
 * instruction.  So no take tests a feature; a 386 pays a trap per take.
 */
static inline u32 native_spin_draw(u32 add, arch_spinlock_t *lock)
{
	asm volatile("1: lock\n"
		     "4: xaddl %0, (%1)\n"
		     "2:\n\t"
		     ".pushsection .text.unlikely, \"ax\"\n"
		     "3: call spin_draw_one_cpu\n\t"
		     "jmp 2b\n\t"
		     ".popsection\n\t"
		     LOCKED_UD_EXTABLE(1b, 4b, 3b)
		     : "+a" (add) : "d" (lock) : "memory", "cc");
	return add;
}

static inline void native_spin_unlock(arch_spinlock_t *lock)
{
	asm volatile("addw $1, %0" : "+m" (lock->owner) : : "memory", "cc");
}

static inline void native_spin_wait(arch_spinlock_t *lock, u32 ticket)
{
	(void)lock;
	(void)ticket;
	cpu_relax();
}

static inline void native_spin_kick(unsigned int cpu)
{
	(void)cpu;
}

static inline bool native_vcpu_is_preempted(unsigned int cpu)
{
	(void)cpu;
	return false;
}
#endif

/* The wrappers the lock calls: through the table (PARAVIRT=y; the draw
 * and the unlock in patch sites), or the natives above inline
 * (PARAVIRT=n). */
static inline u32 ticket_draw(arch_spinlock_t *lock)
{
	return PVHOT(spin_draw)(TICKET_NEXT_ONE, lock);
}

/* A ticket only if old (owner == next) is still the word: whether. */
static inline bool ticket_try_draw(arch_spinlock_t *lock, u32 old)
{
	return ticket_cmpxchg(lock, old, old + TICKET_NEXT_ONE) == old;
}

static inline void ticket_lock_slowpath(arch_spinlock_t *lock, u32 ticket)
{
	PVOP(spin_lock_slowpath)(lock, ticket);
}

static inline void ticket_unlock(arch_spinlock_t *lock)	{ PVHOT(spin_unlock)(lock); }

static inline void ticket_wait(arch_spinlock_t *lock, u32 ticket)
{
	PVOP(spin_wait)(lock, ticket);
}

static inline void ticket_kick(unsigned int cpu)	{ PVOP(spin_kick)(cpu); }
static inline bool vcpu_is_preempted(unsigned int cpu)	{ return PVOP(vcpu_is_preempted)(cpu); }

/* How often the slow path met a held lock on cpu, and how often it then
 * waited long enough to call spin_wait (for tests and figures). */
u32 spin_contended_count(unsigned int cpu);
u32 spin_long_wait_count(unsigned int cpu);

/* ---- the lock ---- */

/* Draw a ticket; if it is not served at once, the slow path waits for
 * it.  The uncontended take is the xadd and one compare, inline. */
static inline void arch_spin_lock(arch_spinlock_t *lock)
{
	u32 old = ticket_draw(lock);
	u16 ticket = old >> 16;

	if (__builtin_expect((u16)old != ticket, 0))
		ticket_lock_slowpath(lock, ticket);
	barrier();	/* the critical section starts after the take */
}

/*
 * Take the lock only if it is free now: a ticket is drawn only when
 * owner == next, by a compare-and-swap of the whole word, so a failed
 * try leaves no ticket behind that nobody would redeem.
 */
static inline bool arch_spin_trylock(arch_spinlock_t *lock)
{
	u32 old = lock->word;

	if ((u16)old != (u16)(old >> 16))
		return false;
	return ticket_try_draw(lock, old);
}

/*
 * Serve the next ticket: the spin_unlock op, natively one instruction,
 * `addw $1, owner` (66 83 00 01 with the lock's address in EAX), on
 * every CPU generation.  Only the
 * holder writes owner, so the add needs no lock prefix; a taker's `lock
 * xadd` rewrites owner with the value it read, atomically, so it cannot
 * fall between the add's read and write.  x86 keeps stores in program
 * order, so every store of the critical section is visible before the
 * new owner is: the memory clobber only stops the compiler from moving
 * them below it.  (Linux's queued lock releases with `movb $0`; a ticket
 * lock's release is this increment, as Linux's ticket locks had it.)
 */
static inline void arch_spin_unlock(arch_spinlock_t *lock)
{
	ticket_unlock(lock);
}

#endif
