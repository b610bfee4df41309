/*
 * asm/hypercall.h - how a pv386 guest talks to the pv386 host it runs
 * under (docs/guest.md): the hypercalls, their vector, and the page the
 * two share.
 *
 * A hypercall is `int $HYPERCALL_VECTOR` from the guest kernel at ring 1:
 * its number in EAX, its arguments in EBX, ECX and EDX, the answer back
 * in EAX.  The Switcher's gate for the vector leads to the host
 * (world_switch.S), which runs the call (arch/x86/host/hypercall.c) and
 * returns to the instruction after the int.
 *
 * Calls that come in bursts and need no answer (descriptor writes, the
 * ring-1 stack, page-table changes) are queued in the shared page instead; the host runs
 * the queue before any hypercall, so a context switch costs the guest
 * one exit, not five (Xen's multicalls, lguest's async ring).
 *
 * Addresses in arguments are guest-physical.  The guest kernel is mapped
 * 1:1 (asm/paging.h), so its own addresses are.
 */
#ifndef ASM_HYPERCALL_H
#define ASM_HYPERCALL_H

/*
 * The vector of `int` that makes a hypercall: part of the ABI between
 * the two, so it is here, where the guest reads it, and not in the
 * host's Switcher (asm/switcher.h), which a guest never includes.  The
 * host gives it a ring-1 gate in the guest's IDT and keeps it as its
 * own: a guest cannot route it elsewhere.  0x1f, as lguest: the last
 * vector Intel reserves (SDM Vol. 3A, 6.2), never an IRQ or a fault.
 */
#define HYPERCALL_VECTOR	0x1f

/* One list, for the numbers, the names `guest stats` prints, and the
 * host's dispatch table: a call is named the same everywhere. */
#define HYPERCALLS(X)							\
	X(flush)		/* only the queue, and what is pending */ \
	X(init)			/* a1: where struct guest_shared is */	\
	X(console_write)	/* a1: text, a2: its length; bytes taken */ \
	X(halt)			/* until an interrupt comes */		\
	X(exit)			/* a1: GUEST_EXIT_*, a2: emulator exit value */ \
	X(write_cr3)		/* a1: the page directory */		\
	X(set_ts)		/* a1: CR0.TS, 0 or 1 */		\
	X(set_timer)		/* a1: 1 ticking at the host's rate, 0 off */ \
	X(load_gdt)		/* a1: the table, a2: its limit */	\
	X(write_gdt_entry)	/* a1: index, a2: low word, a3: high word */ \
	X(load_idt)		/* a1: the table, a2: its limit */	\
	X(write_idt_entry)	/* a1: vector, a2: low word, a3: high word */ \
	X(load_ldt)		/* a1: the table, a2: its entries (0: none) */ \
	X(write_ldt_entry)	/* a1: index, a2: low word, a3: high word */ \
	X(set_stack)		/* a1: ss, a2: esp: the ring-1 stack */	\
	X(set_pte)		/* a1: a table entry it changed, a2: its va */ \
	X(set_pde)		/* a1: a directory entry it changed */	\
	X(release_pgd)		/* a1: a directory it is about to free */ \
	X(set_debugreg)		/* a1: 0-3 or 7, a2: its value */ \
	X(read_msr)		/* a1: the MSR; 0 or -EFAULT, the value in msr_value */ \
	X(write_msr)		/* a1: the MSR, a2: low word, a3: high word; 0 or -EFAULT */ \
	X(set_iopl)		/* a1: 0 or 3, its running program's I/O privilege */ \
	X(context_switch)	/* a1: page directory, a2: ring-1 esp (each 0: kept), \
				   a3: calls queued (the Switcher's fast path: 0) */

#define HCALL_ENUM(name)	HCALL_##name,
#ifndef __ASSEMBLER__
enum hypercall { HYPERCALLS(HCALL_ENUM) HCALL_NR };
#endif

/*
 * Why the guest exited, for the counts its host keeps in the shared
 * page (make bench, `guest stats`): every exit counts once, as the
 * hypercall it made (by its number) or as one of these.  An #NM is
 * counted as such whether the host takes it or passes it on.
 */
#define GUEST_EXIT_KINDS(X)						\
	X(nm)			/* #NM: the FPU's hand-over */		\
	X(shadow_fill)		/* a page fault the host's shadow filled */ \
	X(reflected)		/* a fault or trap passed to its own IDT */ \
	X(host_irq)		/* one of the host's interrupts, handled */ \
	X(other)		/* the rest: port I/O done for a program, an \
				   interrupt window's step, a stop */

/* The counts' places: the hypercalls by number, the kinds above, then
 * the interrupts injected, which are not exits. */
#define HOST_COUNT_ENUM(name)	HOST_COUNT_##name,
#ifndef __ASSEMBLER__
enum host_count {
	HOST_COUNT_LAST_HCALL = HCALL_NR - 1,
	GUEST_EXIT_KINDS(HOST_COUNT_ENUM)
	HOST_EXIT_REASONS,			/* an exit is one of those before */
	HOST_COUNT_injected = HOST_EXIT_REASONS,
	HOST_COUNTS
};
#endif

/* What a guest asks for by its exit call. */
#define GUEST_EXIT_EMULATOR	0	/* emulator_exit(a2): a test run's end */
#define GUEST_EXIT_POWER_OFF	1
#define GUEST_EXIT_RESTART	2
#define GUEST_EXIT_HALTED	3	/* machine_halt, panic: it stops for good */

#define GUEST_QUEUE_LEN		16
#define GUEST_CONSOLE_MAX	256	/* bytes a console_write takes at most */
#define GUEST_INPUT_LEN		64
#define GUEST_IRQ_CONSOLE	4	/* console input arrives as IRQ 4, as COM1's */

#ifndef __ASSEMBLER__

#include <types.h>
#include <asm/paging.h>

struct guest_call {
	u32 nr, a1, a2, a3;
};

/*
 * The pages the guest gives the host at init, in the guest's memory.
 * The host reads every field as a value the guest may have made up.
 *
 * The first page is the flag page: its words change seldom, but for
 * irq_enabled.  While an interrupt waits that the guest's IF holds
 * back, the host maps it read-only (arch/x86/host/irq_window.c), so the
 * store that turns IF on - one instruction at the guest's sites, with
 * no test after it - traps, and the host delivers right after it.  What
 * the guest writes often (the queue, the console input) is on the next
 * page, where it never traps.
 */
struct guest_shared {
	u32 irq_enabled;	/* X86_EFLAGS_IF or 0: the guest's IF */
	u32 irq_pending;	/* bit n: IRQ n waits (the host sets, delivery clears) */
	u32 irq_masked;		/* bit n: the guest masked IRQ n */
	u32 cr2;		/* the last page fault's address */
	u32 queued __attribute__((aligned(PAGE_SIZE)));	/* calls in queue[] */
	struct guest_call queue[GUEST_QUEUE_LEN];
	u32 input_head, input_tail;	/* console input: host writes at tail */
	char input[GUEST_INPUT_LEN];
	/* What the host counted, for the guest's own measures (make bench):
	 * its exits by reason and the interrupts injected (enum host_count).
	 * One count per exit: the exits and hypercalls are their sums. */
	u32 counts[HOST_COUNTS];
	u32 dr6;		/* the last debug trap's status (the host writes) */
	u64 msr_value;		/* the last read_msr's answer (the host writes) */
};

/* The guest side: a hypercall now. */
static inline u32 hypercall(enum hypercall nr, u32 a1, u32 a2, u32 a3)
{
	u32 ret = nr;

	asm volatile("int %[vector]"
		     : "+a" (ret)
		     : [vector] "i" (HYPERCALL_VECTOR), "b" (a1), "c" (a2), "d" (a3)
		     : "memory");
	return ret;
}

#endif
#endif
