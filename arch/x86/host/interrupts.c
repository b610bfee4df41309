/*
 * interrupts.c - delivering a trap or an interrupt into a guest, as the
 * CPU would have delivered it had the guest's IDT been the real one.
 *
 * Every trap out of a guest comes to the host (the Switcher's gates);
 * what the guest's own IDT says about it is done here: a frame pushed
 * on the guest kernel's stack (its ring-1 stack, ss1:esp1, if the trap
 * came from ring 3), EIP and CS from the guest's gate, and its
 * interrupt flag - the word in the shared page - off if the gate is an
 * interrupt gate.  The frame goes where the CPU's pushes would put it:
 * through the guest's own page tables (page_tables.c's
 * shadow_guest_write), which set the accessed and dirty bits a push sets,
 * and refuse a stack they do not map writable - the guest's double
 * fault.  Every page they name goes through guest_memory_ptr(): a guest
 * can only ever have its own memory written.
 *
 * Hardware interrupts are the host's; the guest gets virtual ones (its
 * timer, its console), injected when its flag and mask allow.
 */
#include <kernel.h>
#include <asm/atomic.h>
#include <asm/host_check.h>
#include <asm/hypercall.h>
#include <asm/irq.h>
#include <asm/processor-flags.h>
#include <asm/switcher.h>
#include <asm/traps.h>
#include <uapi/syscalls.h>
#include "host.h"

/* Vectors for which the CPU pushes an error code. */
static bool has_error_code(unsigned int v)
{
	return v == X86_TRAP_DF || (v >= X86_TRAP_TS && v <= X86_TRAP_PF) ||
	       v == X86_TRAP_AC;
}

/*
 * Vectors whose exit the host reads as the CPU's own exception, not
 * only passes on: those with an error code (a software int pushes none,
 * and the frame would be a word short), #DB (the host's interrupt-window
 * step, DR6), #NM (its lazy FPU: an `int $7` would load the host
 * thread's FPU and resume past the int, the guest's gate never run), and
 * the NMI and the machine check, which come from the machine, whoever
 * runs: the host's (switcher.c, run.c), never the guest's to fake.
 */
static bool host_reads_as_exception(unsigned int v)
{
	return has_error_code(v) || v == X86_TRAP_DB || v == X86_TRAP_NM ||
	       v == X86_TRAP_NMI || v == X86_TRAP_MC;
}

/* The flags the guest sees: the real ones, with its own IF. */
static u32 guest_eflags(const struct guest *g, const struct pt_regs *r)
{
	return (r->eflags & ~X86_EFLAGS_IF) | (g->shared->irq_enabled & X86_EFLAGS_IF);
}

#define FRAME_WORDS_MAX	10	/* from virtual-8086 mode, with an error code */

/*
 * The frame a CPU pushes for the trap, lowest address first (its last
 * push first): the error code if the vector has one, EIP, CS, EFLAGS;
 * from an outer ring ESP and SS; from virtual-8086 mode ES, DS, FS and
 * GS above those (SDM vol. 3A 6.12.1, and "Handling an Interrupt or
 * Exception Through a Protected-Mode Trap or Interrupt Gate" in its
 * chapter on 8086 emulation).  Its length in words.
 */
static unsigned int trap_frame(const struct guest *g, const struct pt_regs *r,
			       unsigned int vector, u32 error_code, u32 frame[FRAME_WORDS_MAX])
{
	unsigned int n = 0;

	if (has_error_code(vector))
		frame[n++] = error_code;
	frame[n++] = r->eip;
	frame[n++] = r->cs;
	frame[n++] = guest_eflags(g, r);
	if (user_mode(r)) {
		frame[n++] = r->esp;
		frame[n++] = r->ss;
	}
	if (r->eflags & X86_EFLAGS_VM) {
		frame[n++] = g->cpu->guest_vm86_es;
		frame[n++] = g->cpu->guest_vm86_ds;
		frame[n++] = g->cpu->guest_vm86_fs;
		frame[n++] = g->cpu->guest_vm86_gs;
	}
	return n;
}

/*
 * The frame onto the guest kernel's stack below sp, as the CPU's pushes
 * would put it there: through the guest's own page tables (the accessed
 * and dirty bits set, page_tables.c), all of it or none.  A stack its
 * tables do not let it write is its double fault: the push faults, and
 * so would the page fault's delivery onto the same stack.  A CPU would
 * not write the frame anyway, nor take a nested fault per word until
 * the stack pointer left its memory: the guest is stopped at once.  The
 * reasons read "trap N: its ...", the form of a trap its own state broke
 * (test_guest_fuzz.c judges stops by it).
 */
static bool push_frame(struct guest *g, unsigned int vector, u32 sp, const u32 *frame,
		       unsigned int words)
{
	u32 at;

	switch (shadow_guest_write(g->shadows.active, sp, frame, 4 * words, &at)) {
	case GUEST_WRITTEN:
		return true;
	case GUEST_WRITE_NOT_MAPPED:
		guest_stop(g, "trap %u: its page tables do not map its stack, at %08x "
			   "(a CPU would double-fault)", vector, at);
		return false;
	case GUEST_WRITE_READ_ONLY:
		guest_stop(g, "trap %u: its page tables map its stack read-only, at %08x "
			   "(a CPU would double-fault)", vector, at);
		return false;
	case GUEST_WRITE_LARGE_PAGE:
		guest_stop(g, "trap %u: its page directory maps its stack at %08x with a "
			   "4 MiB page (PS=1), which its cpuid does not offer", vector, at);
		return false;
	case GUEST_WRITE_OUTSIDE:
		break;
	}
	guest_stop(g, "trap %u: its stack at %08x is outside its memory", vector, at);
	return false;
}

/*
 * Through the guest's gate for vector, with error_code if the vector
 * has one.  A guest whose gate is missing, or whose stack cannot take
 * the frame, is stopped: on hardware that would be a double fault, and
 * then a triple fault.
 */
static void deliver(struct guest *g, unsigned int vector, u32 error_code)
{
	struct pt_regs *r = switcher_guest_regs();
	u64 gate = vector < ARRAY_SIZE(g->gates) ? g->gates[vector] : 0;
	bool from_user = user_mode(r);
	/* Ring 1's stack for traps from ring 3 is the TSS's, as the CPU's
	 * own delivery finds it: the Switcher's fast switch sets it too. */
	u32 ss = from_user ? g->cpu->guest_tss.ss1 : r->ss;
	u32 sp = from_user ? g->cpu->guest_tss.esp1 : r->esp;
	u32 frame[FRAME_WORDS_MAX];
	unsigned int words;

	if (!g->shared || !gate_present(gate)) {
		guest_stop(g, "trap %u at %08x with no gate for it in its IDT", vector, r->eip);
		return;
	}
	if (from_user && !ss) {
		guest_stop(g, "trap %u from ring 3 before it gave a ring-1 stack", vector);
		return;
	}
	words = trap_frame(g, r, vector, error_code, frame);
	sp -= 4 * words;
	if (!push_frame(g, vector, sp, frame, words))
		return;
	r->ss = ss;
	r->esp = sp;
	r->cs = gate_selector(gate);
	switcher_cs_ss_changed(g->cpu, r->eflags & X86_EFLAGS_VM);
	r->eip = gate_offset(gate);
	/* What the CPU clears on the way through a gate; and the real IF
	 * on, I/O privilege off, whatever a frame from virtual-8086 mode
	 * held: the guest kernel always runs so (its IF is the shared word). */
	r->eflags &= ~(X86_EFLAGS_TF | X86_EFLAGS_NT | X86_EFLAGS_RF | X86_EFLAGS_VM |
		       X86_EFLAGS_IOPL);
	r->eflags |= X86_EFLAGS_IF;
	if (!gate_is_trap(gate))
		g->shared->irq_enabled = 0;
}

void guest_reflect_trap(struct guest *g, unsigned int vector, u32 error_code)
{
	g->stats.traps++;
	guest_exit_is(g, HOST_COUNT_reflected);
	deliver(g, vector, error_code);
}

/* The lowest pending IRQ the guest has not masked, if its IF is on. */
void guest_inject_interrupt(struct guest *g)
{
	volatile struct guest_shared *s = g->shared;
	u32 ready;
	unsigned int irq;

	if (!s || !(s->irq_enabled & X86_EFLAGS_IF))
		return;
	ready = s->irq_pending & ~s->irq_masked & ((1u << NR_IRQS) - 1);
	if (!ready)
		return;
	irq = __builtin_ctz(ready);
	atomic_and(&s->irq_pending, ~(1u << irq));	/* `guest console` sets bits */
	g->stats.interrupts++;
	s->counts[HOST_COUNT_injected]++;
	g->halted = false;
	deliver(g, FIRST_EXTERNAL_VECTOR + irq, 0);
}

/*
 * The guest's (checked) gate for vector, and the real one behind it.
 * The real gate leads to the host, admitting the rings the guest's
 * gate admits (so a program's `int $n` reaches the host as the guest
 * allows it, else raises #GP as on hardware) - but never for a vector
 * the host reads as the CPU's own exception (host_reads_as_exception):
 * for one with an error code, the Switcher's stub would read every word
 * of a software int's frame one slot off (world_switch.S refuses such a
 * frame whole); for #DB, #NM, the NMI and the machine check the host
 * would act on an exception that never came.  There the CPU gives what
 * it gives for any gate a ring may not use: #GP, with the vector in its
 * error code, reflected like any other.  The system call's trap gate
 * alone goes straight to the guest kernel (lguest's direct trap): a
 * program's int $0x80 never leaves the guest.  It needs no IF change,
 * which only an interrupt gate would make, and the real TSS's ss1:esp1
 * for its stack.  The hypercall vector and the hardware interrupts' are
 * the host's whatever the guest says.
 */
void guest_set_gate(struct guest *g, unsigned int vector, u64 gate)
{
	u64 *real = &g->cpu->guest_idt_table[vector];
	unsigned int dpl = gate_present(gate) && !host_reads_as_exception(vector) ?
			   gate_dpl(gate) : 0;

	g->gates[vector] = gate;
	if (vector == HYPERCALL_VECTOR ||
	    (vector >= FIRST_EXTERNAL_VECTOR && vector < FIRST_EXTERNAL_VECTOR + NR_IRQS))
		return;
	if (vector == SYSCALL_VECTOR && gate_present(gate) && gate_is_trap(gate) &&
	    dpl == 3 && g->cpu->guest_tss.ss1) {
		*real = gate;
		return;
	}
	*real = pack_gate(SWITCHER_VA(switcher_stubs) + vector * SWITCHER_STUB_SIZE,
			  __SWITCHER_CS, DESC_PRESENT | DESC_DPL(dpl) | DESC_INTR_GATE);
}
