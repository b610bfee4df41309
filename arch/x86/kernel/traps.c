/*
 * traps.c - the IDT and what happens on each CPU exception.
 *
 * entry.S saves the registers and calls trap_dispatch().  Vectors 32-47
 * are the PIC's IRQs and go to irq_dispatch(); a vector above those can
 * be given a handler with set_system_gate() (a software interrupt that
 * user mode may raise; the system call's is set_syscall_gate()); any
 * other is only reported.
 *
 * A page fault at a user address may be a heap or stack page not given
 * yet (kernel/user_fault.c): mapped, and the instruction runs again, in
 * user mode or in a system call alike.  Otherwise, from user mode:
 *   - #NM hands over the FPU (fpu.c); #DB may be a watchpoint the task
 *     set (hw_breakpoint.c), reported, and the task goes on;
 *   - anything else kills the task alone, with one line naming the
 *     exception, the instruction and why (kill_user_task);
 *   - so does anything at all from virtual-8086 mode, which a task can
 *     reach only through a CPU's fault (asm/traps.h: user_mode_frame).
 * In the kernel:
 *   - an instruction with an exception-table entry continues at its fixup
 *     (this is how rdmsr_safe survives a missing MSR, and how a system
 *     call survives a bad user pointer);
 *   - a breakpoint, overflow or debug trap is reported and execution
 *     goes on;
 *   - anything else is a kernel bug: name it, dump the registers, panic.
 * The way back to user mode preempts the task if its slice is over.
 */
#include <kernel.h>
#include <task.h>
#include <asm/debug_regs.h>
#include <asm/desc.h>
#include <asm/extable.h>
#include <asm/irq.h>
#include <asm/paging.h>
#include <asm/privileged.h>
#include <asm/fpu.h>
#include <asm/process.h>
#include <asm/processor-flags.h>
#include <asm/traps.h>
#include <asm/uaccess.h>

u64 idt_table[NR_VECTORS] __attribute__((aligned(8)));

static unsigned long trap_counts[FIRST_EXTERNAL_VECTOR];
static unsigned int last_fixed_vector;	/* of the last fault fixed up */

static trap_handler_t system_gate_handlers[NR_VECTORS];

static const char *const exception_names[FIRST_EXTERNAL_VECTOR] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow",
	"bound range exceeded", "invalid opcode", "device not available",
	"double fault", "coprocessor segment overrun", "invalid TSS",
	"segment not present", "stack-segment fault", "general protection",
	"page fault", "reserved (15)", "x87 floating-point error",
	"alignment check", "machine check", "SIMD floating-point",
	"virtualization", "control protection", "reserved (22)",
	"reserved (23)", "reserved (24)", "reserved (25)", "reserved (26)",
	"reserved (27)", "hypervisor injection", "VMM communication",
	"security", "reserved (31)",
};

const char *trap_name(unsigned int vector)
{
	if (vector < FIRST_EXTERNAL_VECTOR)
		return exception_names[vector];
	return vector < FIRST_EXTERNAL_VECTOR + NR_IRQS ? "IRQ" : "unused vector";
}

unsigned long trap_count(unsigned int vector)
{
	return vector < FIRST_EXTERNAL_VECTOR ? trap_counts[vector] : 0;
}

/* ", address ... (...)": what a page fault's error code and address say. */
static void describe_page_fault(char *buf, size_t size, u32 error, u32 addr)
{
	snprintf(buf, size, ", address %08x (%s, %s%s)%s", addr,
	       error & PF_PROT ? "protection" : "not present",
	       error & PF_WRITE ? "write" : "read", error & PF_USER ? ", user" : "",
	       !(error & PF_USER) && error & PF_WRITE && kernel_text_contains(addr) ?
	       ": kernel text is read-only" : "");
}

static void __noreturn die(struct pt_regs *regs)
{
	unsigned int v = regs->vector;
	char fault[96] = "";

	if (v == X86_TRAP_PF)
		describe_page_fault(fault, sizeof(fault), regs->error_code, read_cr2());
	printk("\ntrap: %s (#%u) at %08x%s\n", trap_name(v), v, regs->eip, fault);
	show_regs(regs);
	show_backtrace(regs->ebp);
	panic("unhandled %s in %s mode", trap_name(v),
	      user_mode(regs) ? "user" : "kernel");
}

static bool fixup_exception(struct pt_regs *regs)
{
	const struct exception_table_entry *e = search_exception_tables(regs->eip);

	if (!e)
		return false;
	regs->eip = e->fixup;
	return true;
}

/*
 * Only a fault reports the EIP of the instruction that caused it.  A trap
 * (#DB for data, #BP, #OF) or an NMI reports the next instruction, which
 * may be one with an exception-table entry that never ran: it must not
 * be skipped.
 */
static bool is_fault(unsigned int vector)
{
	return vector != X86_TRAP_DB && vector != X86_TRAP_NMI &&
	       vector != X86_TRAP_BP && vector != X86_TRAP_OF;
}

/*
 * A user page fault that killed its task leaves the address in CR2:
 * clear it once reported, so that a later register dump shows 0 rather
 * than an old user address that looks like the cause of whatever goes
 * wrong next.  (A fixed-up fault keeps it: the code that expected the
 * fault may read it.)
 */
static void consume_cr2(void)
{
	write_cr2(0);
}

/* ", code 0f 0b": up to 4 bytes of user code at eip, to name the
 * instruction; buf holds 20 bytes at least. */
static void describe_user_code(char *buf, size_t size, u32 eip)
{
	u8 code[4];
	unsigned int i, n = 0;
	int len;

	while (n < sizeof(code) && !copy_from_user(&code[n], eip + n, 1))
		n++;
	len = snprintf(buf, size, ", code");
	for (i = 0; i < n; i++)
		len += snprintf(buf + len, size - len, " %02x", code[i]);
}

/* A user task's exception that is not a request: kill it, alone, with
 * one line naming the exception, the instruction and why. */
static void __noreturn kill_user_task(struct pt_regs *regs, const char *why)
{
	unsigned int v = regs->vector;
	char fault[96] = "", code[24];

	if (v == X86_TRAP_PF) {
		describe_page_fault(fault, sizeof(fault), regs->error_code, read_cr2());
		consume_cr2();
	} else if (regs->error_code) {
		snprintf(fault, sizeof(fault), ", error %04x", regs->error_code);
	}
	describe_user_code(code, sizeof(code), regs->eip);
	kill_current(EXIT_KILLED(v), "%s (#%u) at eip %08x%s%s%s%s", trap_name(v), v,
		     regs->eip, fault, code, why ? ": " : "", why ? why : "");
}

static const char *const user_fault_reasons[] = {
	[USER_FAULT_BAD_ADDRESS] = NULL,
	[USER_FAULT_STACK_OVERFLOW] = "stack overflow",
	[USER_FAULT_NO_MEMORY] = "out of memory",
};

/*
 * A not-present fault at a user address may be a heap or stack page not
 * yet given (user_fault.c): map it and run the instruction again.  This
 * holds in kernel mode too, where a system call touches the caller's
 * memory.  Returns true when resolved; else *why says what it was.
 */
static bool page_fault_resolved(const struct pt_regs *regs, const char **why)
{
	u32 addr = read_cr2();
	enum user_fault r;

	*why = NULL;
	if (addr < USER_BASE || addr >= USER_END) {
		if (user_mode(regs))
			*why = addr < PAGE_SIZE ? "null pointer" :
			       addr < USER_BASE ? "kernel memory" : "outside user space";
		return false;
	}
	if (regs->error_code & PF_PROT)
		return false;
	r = user_fault_resolve(addr);
	*why = user_fault_reasons[r];
	return r == USER_FAULT_RESOLVED;
}

static void handle_user_exception(struct pt_regs *regs, const char *why)
{
	unsigned int v = regs->vector;
	char reason[96];

	if (regs->eflags & X86_EFLAGS_VM)	/* whatever the exception */
		kill_user_task(regs, vm86_reason(regs, reason, sizeof(reason)));
	if (v == X86_TRAP_NM && fpu_handle_nm(regs))
		return;
	if (v == X86_TRAP_NM)
		why = "floating point, and there is no FPU (CR0.EM)";
	if (v == X86_TRAP_DB && arch_report_watchpoint(regs))
		return;
	kill_user_task(regs, why);
}

/*
 * A user task that sets TF and enters with sysenter brings TF into the
 * kernel, which then traps after each instruction until
 * sysenter_dispatch clears its flags.  The kernel never single-steps
 * itself: end it quietly.  DR6.BS says the #DB was a single step.
 */
static bool single_step_from_user(struct pt_regs *regs)
{
	if (!(regs->eflags & X86_EFLAGS_TF) || !(get_debugreg(6) & DR6_BS))
		return false;
	set_debugreg(6, 0);
	regs->eflags &= ~X86_EFLAGS_TF;
	return true;
}

static void handle_exception(struct pt_regs *regs)
{
	unsigned int v = regs->vector;
	const char *why = NULL;

	trap_counts[v]++;
	if (v == X86_TRAP_NMI) {
		/* From outside the CPU (a parity error, a watchdog, a
		 * debugger): not the running task's doing, nor a kernel bug.
		 * Counted (trap_count; a host's `guest stats` shows it), not
		 * printed: printk waits for the console lock, which the code
		 * it interrupted may hold - an NMI masks nothing. */
		return;
	}
	if (v == X86_TRAP_PF && page_fault_resolved(regs, &why))
		return;
	if (user_mode(regs)) {
		handle_user_exception(regs, why);
		return;
	}
	if (is_fault(v) && fixup_exception(regs)) {
		last_fixed_vector = v;
		return;
	}
	if (v == X86_TRAP_DB &&
	    (single_step_from_user(regs) || arch_kernel_hit_user_watchpoint()))
		return;
	if (v == X86_TRAP_BP || v == X86_TRAP_DB || v == X86_TRAP_OF) {
		/* int3 and into leave EIP after themselves; resuming is
		 * harmless.  RF keeps an instruction breakpoint from firing
		 * again on the instruction we return to. */
		printk("trap: %s at %08x, continuing\n", trap_name(v), regs->eip);
		if (v == X86_TRAP_DB)
			regs->eflags |= X86_EFLAGS_RF;
		return;
	}
	die(regs);
}

/*
 * From iret_fault (entry.S): the return through frame (EIP, CS, EFLAGS,
 * ESP, SS) faulted.  A return to user mode: the task's state is beyond
 * repair, kill it.  A return within the kernel: a kernel bug.
 */
void bad_iret(const u32 *frame)
{
	unsigned int v = last_fixed_vector;

	if (!user_mode_frame(frame[1], frame[2]))
		panic("iret to kernel eip %08x faulted: %s (#%u)", frame[0],
		      trap_name(v), v);
	kill_current(EXIT_KILLED(v), "return to user mode faulted: %s (#%u), eip %08x cs %04x ss %04x",
		  trap_name(v), v, frame[0], frame[1] & 0xffff, frame[4] & 0xffff);
}

void trap_dispatch(struct pt_regs *regs)
{
	unsigned int v = regs->vector;

	if (v < FIRST_EXTERNAL_VECTOR)
		handle_exception(regs);
	else if (v < FIRST_EXTERNAL_VECTOR + NR_IRQS)
		irq_dispatch(regs, v - FIRST_EXTERNAL_VECTOR);
	else if (system_gate_handlers[v])
		system_gate_handlers[v](regs);
	else
		printk("trap: unexpected interrupt on vector %u\n", v);
	if (user_mode(regs))
		exit_to_user_mode(regs);
}

static void set_gate(unsigned int vector, unsigned int dpl, u8 type)
{
	write_idt_entry(idt_table, vector,
			pack_gate(trap_stubs[vector], __KERNEL_CS,
				  DESC_PRESENT | DESC_DPL(dpl) | type));
}

static void set_user_gate(unsigned int vector, trap_handler_t handler, u8 type)
{
	if (vector < SYSTEM_GATE_FIRST || vector >= NR_VECTORS)
		panic("set_system_gate: vector %u is not free", vector);
	system_gate_handlers[vector] = handler;
	set_gate(vector, handler ? 3 : 0, handler ? type : DESC_INTR_GATE);
}

/* A device's vector (the local APIC's timer, its spurious vector, an
 * IPI): an interrupt gate only the hardware and the kernel may raise
 * (DPL 0: `int` from user mode is a #GP), sent to handler.  NULL takes
 * the handler away. */
void set_intr_handler(unsigned int vector, trap_handler_t handler)
{
	if (vector < SYSTEM_GATE_FIRST || vector >= NR_VECTORS)
		panic("set_intr_handler: vector %u is not free", vector);
	system_gate_handlers[vector] = handler;
	set_gate(vector, 0, DESC_INTR_GATE);
}

/* Let user mode raise `int $vector` (DPL 3) and send it to handler;
 * NULL puts the gate back to kernel-only.  Vectors below
 * SYSTEM_GATE_FIRST belong to the CPU and the PIC. */
void set_system_gate(unsigned int vector, trap_handler_t handler)
{
	set_user_gate(vector, handler, DESC_INTR_GATE);
}

/* The same through a trap gate, which leaves interrupts on: a system
 * call runs with them on anyway, and needs no op to turn them on. */
void set_syscall_gate(unsigned int vector, trap_handler_t handler)
{
	set_user_gate(vector, handler, DESC_TRAP_GATE);
}

void trap_init(void)
{
	struct desc_ptr idtr = {
		.size = sizeof(idt_table) - 1,
		.address = (u32)idt_table,
	};
	unsigned int v;

	for (v = 0; v < NR_VECTORS; v++)
		set_gate(v, 0, DESC_INTR_GATE);
	/* int3 and into are how user code asks for a breakpoint or an
	 * overflow check: their gates must admit ring 3, or both would
	 * raise #GP instead of the exception they are for. */
	set_gate(X86_TRAP_BP, 3, DESC_INTR_GATE);
	set_gate(X86_TRAP_OF, 3, DESC_INTR_GATE);
	load_idt(&idtr);
}
