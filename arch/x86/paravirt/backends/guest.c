/*
 * guest.c - the guest backend: paravirt_ops for a pv386 kernel running
 * at ring 1 under a pv386 host (arch/x86/host/; docs/guest.md).
 *
 * It is the table's reason to exist: the same kernel binary, whose every
 * privileged operation goes through paravirt_ops, runs as a guest once
 * the table holds these functions instead of the native instructions.
 * paravirt_init() installs it by itself when the kernel finds itself at
 * ring 1 (current_ring()), before the first privileged operation.
 *
 * Each op is one of four kinds:
 *   - a load or store of the page shared with the host (asm/hypercall.h):
 *     the interrupt flag, the pending interrupts, cr2;
 *   - a value kept here: cr0, cr3, cr4, the GDT and IDT registers, TR -
 *     what the CPU's registers would hold, which the host owns;
 *   - a hypercall, now (write_cr3, halt, load_gdt, ...) or queued for the
 *     next one (what a context switch changes: the ring-1 stack and the
 *     TLS entries; and page-table entries changed, which the host's
 *     shadows must forget before the next TLB flush);
 *   - an instruction that is harmless at ring 1 (cpuid, rdtsc, pushf,
 *     popf, iret), borrowed from the native table: only native_*
 *     functions execute such instructions (tools/audit-privileged).
 */
#include <kernel.h>
#include <cmdline.h>
#include <string.h>
#include <asm/hypercall.h>
#include <asm/paravirt.h>
#include <asm/patch.h>
#include <asm/processor.h>
#include <asm/processor-flags.h>
#include <asm/cpu.h>
#include <asm/paging.h>
#include <asm/segment.h>
#include <asm/spinlock.h>

void guest_iret(void);
void guest_irq_enable_sysexit(void);
void guest_start_context_switch(void);	/* guest_entry.S: callee-save */
void guest_end_context_switch(void);

/* Shared with the host, which reads and writes it between any two of
 * our instructions: every access is a volatile one.  Page-aligned: its
 * first page, the flag page, is one the host may map read-only. */
volatile struct guest_shared guest_shared __attribute__((aligned(PAGE_SIZE)));

/* The registers the host owns, as this kernel last set them.  Paging
 * is on from the first instruction (the host's doing). */
static unsigned long cr0 = X86_CR0_PE | X86_CR0_ET | X86_CR0_PG;
static unsigned long cr3, cr4;
static struct desc_ptr gdtr, idtr;
static unsigned long debugreg[8];

/*
 * Two of the cures that bring a guest near native speed (docs/guest.md,
 * "What it costs"), each of which a boot option turns off, so that make
 * bench can measure what it saves.  Both are read only where the table
 * is made and its sites patched, never by an op: by guest_prepare, and
 * by the patcher through paravirt_inline_unless.
 *   nolazycpu      no lazy CPU mode: each op of a context switch calls
 *                  the host itself, as before the mode (guest_prepare);
 *   noinlineflags  the three flag ops' sites are direct calls to the
 *                  functions below, not their templates inline.
 */
static bool no_lazy_cpu, no_inline_flags;

static int set_nolazycpu(const char *v)     { (void)v; no_lazy_cpu = true; return 0; }
static int set_noinlineflags(const char *v) { (void)v; no_inline_flags = true; return 0; }
early_boot_option("nolazycpu", set_nolazycpu,
		  "a guest: every op of a context switch calls its host (no lazy CPU mode)");
early_boot_option("noinlineflags", set_noinlineflags,
		  "a guest: save_fl, restore_fl, save_fl_irq_disable called, not inline");

/*
 * ---- the interrupt flag: a word in the shared flag page ----
 *
 * Turning IF on while an interrupt waits must deliver it at once: the
 * check lguest once shipped without.  Here it costs no instruction: as
 * long as an interrupt waits that IF holds back, the host keeps the
 * flag page read-only (arch/x86/host/irq_window.c), so the very store
 * that turns IF on traps, and the host delivers right after it.  Each
 * op is therefore a plain store, as the sites of irq_disable and
 * irq_enable have them inline.  A store of 0 over 0 would trap for
 * nothing in that time: the functions below skip it.
 */
static void set_irq_flag(unsigned long flags)
{
	if (guest_shared.irq_enabled != (flags & X86_EFLAGS_IF))
		guest_shared.irq_enabled = flags & X86_EFLAGS_IF;
}

static void guest_irq_disable(void)
{
	set_irq_flag(0);
}
/* Its sites hold the store itself, not a call (guest_entry.S). */
paravirt_inline(guest_irq_disable, tpl_guest_irq_disable, 0);

static void guest_irq_enable(void)
{
	set_irq_flag(X86_EFLAGS_IF);
}
paravirt_inline(guest_irq_enable, tpl_guest_irq_enable, 0);

/*
 * The real flags for every bit but IF (cpu_detect toggles AC and ID,
 * tests read DF): pushf at ring 1 shows the real IF, always set.  The
 * three flag ops' sites hold templates of the same (guest_entry.S):
 * pushf and the shared word's byte, inline, as Xen's *_direct ops are
 * (direct calls to these functions instead under noinlineflags).
 * Those store the flag unchanged too: a store of 0 over 0 then traps
 * for nothing while an interrupt waits (two exits), which is rare
 * beside the call each op would cost otherwise.
 */
static unsigned long guest_save_fl(void)
{
	return (native_paravirt_ops.save_fl() & ~X86_EFLAGS_IF) | guest_shared.irq_enabled;
}
paravirt_inline_unless(guest_save_fl, tpl_guest_save_fl, CLBR_EAX, &no_inline_flags);

/* popf at ring 1 leaves IF (and IOPL) alone, and does not fault. */
static void guest_restore_fl(unsigned long flags)
{
	native_paravirt_ops.restore_fl(flags);
	set_irq_flag(flags);
}
paravirt_inline_unless(guest_restore_fl, tpl_guest_restore_fl, 0, &no_inline_flags);

static unsigned long guest_save_fl_irq_disable(void)
{
	unsigned long flags = guest_save_fl();

	guest_irq_disable();
	return flags;
}
paravirt_inline_unless(guest_save_fl_irq_disable, tpl_guest_save_fl_irq_disable, CLBR_EAX,
		       &no_inline_flags);

/* Interrupts on and asleep in one step: the host turns the flag on, so
 * no interrupt can come between the two and leave us asleep with work. */
static void guest_safe_halt(void)
{
	hypercall(HCALL_halt, 1, 0, 0);
}

/* With interrupts off, the host stops us for good (machine_halt). */
static void guest_halt(void)
{
	hypercall(HCALL_halt, 0, 0, 0);
}

/* ---- the queue of calls the host runs at the next hypercall ---- */

/* Interrupts off, as save_fl_irq_disable does: the flag before. */
static u32 irqs_off(void)
{
	u32 flags = guest_shared.irq_enabled;

	guest_irq_disable();
	return flags;
}

static void queue_call(enum hypercall nr, u32 a1, u32 a2, u32 a3)
{
	u32 flags = irqs_off();		/* an interrupt handler may queue too */
	u32 n;

	if (guest_shared.queued >= GUEST_QUEUE_LEN)
		hypercall(HCALL_flush, 0, 0, 0);
	n = guest_shared.queued;
	guest_shared.queue[n].nr = nr;
	guest_shared.queue[n].a1 = a1;
	guest_shared.queue[n].a2 = a2;
	guest_shared.queue[n].a3 = a3;
	guest_shared.queued = n + 1;
	set_irq_flag(flags);
}

/*
 * ---- the lazy CPU mode: a context switch told to the host at its end ----
 *
 * Between start_context_switch and end_context_switch (arch_switch_to,
 * interrupts off) the ops that change what the host keeps for us do
 * not call it: the page directory and the ring-1 stack are noted here,
 * the rest (TLS entries, I/O privilege, TS, watchpoints) queued.  The
 * end makes one switch hypercall of it all.  With nothing queued, the
 * host's Switcher does the switch itself, without leaving our page
 * tables (arch/x86/host/world_switch.S): the last of its words says so.
 * VMI and Xen batched a switch the same way (Linux's lazy CPU mode).
 */
bool guest_in_context_switch;	/* guest_start_context_switch sets it */
static u32 switch_cr3, switch_stack;	/* 0: unchanged */

/* Called by guest_entry.S's thunk, which keeps every register. */
void guest_end_context_switch_body(void);
void guest_end_context_switch_body(void)
{
	guest_in_context_switch = false;
	if (!switch_cr3 && !switch_stack && !guest_shared.queued)
		return;
	hypercall(HCALL_context_switch, switch_cr3, switch_stack, guest_shared.queued);
	switch_cr3 = switch_stack = 0;
}

/* A call now, or at the switch's end when inside one. */
static void call_or_queue(enum hypercall nr, u32 a1, u32 a2, u32 a3)
{
	if (guest_in_context_switch)
		queue_call(nr, a1, a2, a3);
	else
		hypercall(nr, a1, a2, a3);
}

/* ---- control registers ---- */

static unsigned long guest_read_cr0(void)
{
	return cr0;
}

/* Only TS is ours to change (lazy FPU switching); the host keeps PG, WP,
 * CD and the rest as it needs them. */
static void guest_write_cr0(unsigned long value)
{
	if ((value ^ cr0) & X86_CR0_TS)
		call_or_queue(HCALL_set_ts, !!(value & X86_CR0_TS), 0, 0);
	cr0 = value;
}

static void guest_clts(void)
{
	guest_write_cr0(cr0 & ~X86_CR0_TS);
}

/* The host puts a reflected page fault's address here. */
static unsigned long guest_read_cr2(void)
{
	return guest_shared.cr2;
}

static void guest_write_cr2(unsigned long value)
{
	guest_shared.cr2 = value;
}

static unsigned long guest_read_cr3(void)
{
	return cr3;
}

/* A new address space, or the same one again: pv386's only TLB flush.
 * In a context switch, the switch's end loads it. */
static void guest_write_cr3(unsigned long value)
{
	cr3 = value;
	if (guest_in_context_switch)
		switch_cr3 = value;
	else
		hypercall(HCALL_write_cr3, value, 0, 0);
}

static unsigned long guest_read_cr4(void)
{
	return cr4;
}

/* TSD, PCE and OSFXSR are the host's; a guest's choice is only noted. */
static void guest_write_cr4(unsigned long value)
{
	cr4 = value;
}

/* DR6 is what the host found at our last debug trap; the others are
 * what we set. */
static unsigned long guest_get_debugreg(int regno)
{
	if (regno == 6)
		return guest_shared.dr6;
	return regno >= 0 && regno < 8 ? debugreg[regno] : 0;
}

/*
 * The host arms our watchpoints while we run (and checks them: none on
 * its Switcher).  A context switch writes DR7, then DR0-3, then DR7: the
 * addresses are queued, and DR7, always last, takes them with it.
 */
static void guest_set_debugreg(int regno, unsigned long value)
{
	if (regno < 0 || regno >= 8)
		return;
	debugreg[regno] = value;
	if (regno == 6)
		guest_shared.dr6 = value;
	else if (regno < 4)
		queue_call(HCALL_set_debugreg, regno, value, 0);
	else if (regno == 7)
		call_or_queue(HCALL_set_debugreg, regno, value, 0);
}

/* ---- the CPU's identity, MSRs, counters ---- */

#define FEATURE(f)	(1u << X86_FEATURE_##f)
#define HIDDEN_EDX	(FEATURE(VME) | FEATURE(DE) | FEATURE(PSE) | \
			 FEATURE(APIC) | FEATURE(SEP) | FEATURE(PGE))
#define HYPERVISOR_LEAF		0x40000000
#define HYPERVISOR_ECX_BIT	(1u << 31)

/*
 * The CPU's answer, less what a guest cannot use: sysenter (it always
 * enters ring 0), the APIC, and paging and vm86 features the host keeps.
 * MSRs stay, if the CPU has them: the host reads the few a guest may
 * have.  The hypervisor bit and leaf name the host, as every hypervisor
 * does.
 */
static void guest_cpuid(u32 *eax, u32 *ebx, u32 *ecx, u32 *edx)
{
	u32 leaf = *eax;

	if (leaf == HYPERVISOR_LEAF) {
		*eax = HYPERVISOR_LEAF;
		memcpy(ebx, "pv38", 4);
		memcpy(ecx, "6hos", 4);
		memcpy(edx, "t   ", 4);
		return;
	}
	native_paravirt_ops.cpuid(eax, ebx, ecx, edx);
	if (leaf == 1) {
		*edx &= ~HIDDEN_EDX;
		*ecx |= HYPERVISOR_ECX_BIT;
	}
}

/*
 * The host does rdmsr and wrmsr for us, of the few MSRs a guest may have
 * (arch/x86/host/check.c); any other answers -EFAULT, as on a CPU
 * without it.  Interrupts stay off from the call to the answer's read:
 * a handler's read_msr in between would overwrite it.
 */
static u64 guest_read_msr(u32 msr, int *err)
{
	u32 flags = irqs_off();
	u64 value = 0;

	*err = (int)hypercall(HCALL_read_msr, msr, 0, 0);
	if (!*err)
		value = guest_shared.msr_value;
	set_irq_flag(flags);
	return value;
}

static int guest_write_msr(u32 msr, u64 val)
{
	return (int)hypercall(HCALL_write_msr, msr, (u32)val, (u32)(val >> 32));
}

/* rdpmc would read the host's counters, or fault: none here. */
static u64 guest_read_pmc(u32 counter, int *err)
{
	(void)counter;
	*err = -EFAULT;
	return 0;
}

/* ---- descriptor tables: kept here, copied and checked by the host ---- */

static void guest_load_gdt(const struct desc_ptr *dt)
{
	gdtr = *dt;
	hypercall(HCALL_load_gdt, dt->address, dt->size, 0);
}

static void guest_load_idt(const struct desc_ptr *dt)
{
	idtr = *dt;
	hypercall(HCALL_load_idt, dt->address, dt->size, 0);
}

static void guest_store_gdt(struct desc_ptr *dt)
{
	*dt = gdtr;
}

static void guest_store_idt(struct desc_ptr *dt)
{
	*dt = idtr;
}

/* The TSS is the host's: TR holds what it would hold on bare hardware,
 * and nothing is loaded. */
static unsigned long guest_store_tr(void)
{
	return __TSS_SEL;
}

/* The host keeps its own null, TSS and LDT entries, and its Switcher's. */
static bool host_owns_gdt_entry(int entry)
{
	return entry == 0 || entry == GDT_ENTRY_TSS || entry == GDT_ENTRY_LDT ||
	       entry >= GDT_ENTRIES;
}

/* A descriptor the CPU may load right after: the host has it now. */
static void guest_write_gdt_entry(void *dt, int entry, u64 desc)
{
	((u64 *)dt)[entry] = desc;
	if ((u32)dt == gdtr.address && !host_owns_gdt_entry(entry))
		hypercall(HCALL_write_gdt_entry, entry, (u32)desc, desc >> 32);
}

static void guest_write_idt_entry(void *dt, int entry, u64 desc)
{
	((u64 *)dt)[entry] = desc;
	if ((u32)dt == idtr.address)
		hypercall(HCALL_write_idt_entry, entry, (u32)desc, desc >> 32);
}

/*
 * The TLS entries that differ from the host's copy are queued; in a
 * context switch its end sends them, else they go now, with what else
 * is queued (none if no entry differs: no task of the two uses TLS).
 * Our GDT is the
 * host's copy only because it changes by write_gdt_entry and this op
 * alone (a test that writes it behind the table's back makes them part:
 * test_patch.c puts its entries back through the op).  Interrupts off
 * throughout: a switch from an interrupt between our copy's write and
 * the queueing would compare against an entry the host has not got.
 */
static void guest_load_tls(const struct thread_struct *t, unsigned int cpu)
{
	u64 *gdt = (u64 *)gdtr.address;
	u32 flags = irqs_off();
	int i;

	(void)cpu;
	for (i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++) {
		u64 desc = t->tls_array[i];

		if (gdt[GDT_ENTRY_TLS_MIN + i] == desc)
			continue;
		gdt[GDT_ENTRY_TLS_MIN + i] = desc;
		queue_call(HCALL_write_gdt_entry, GDT_ENTRY_TLS_MIN + i, (u32)desc, desc >> 32);
	}
	if (guest_shared.queued && !guest_in_context_switch)
		hypercall(HCALL_flush, 0, 0, 0);
	set_irq_flag(flags);
}

/* Traps from user mode arrive on ring 1's stack: the host puts it in
 * the real TSS as ss1:esp1.  In a context switch, its end says it;
 * else queued for the next call. */
static void guest_load_esp0(struct tss *tss, const struct thread_struct *t)
{
	tss->esp0 = t->esp0;
	if (guest_in_context_switch)
		switch_stack = t->esp0;
	else
		queue_call(HCALL_set_stack, __KERNEL_DS | GUEST_KERNEL_RPL, t->esp0, 0);
}

/* The LDT the host has a copy of: writes to it must reach the copy. */
static u32 loaded_ldt, loaded_ldt_entries;

/* lldt of the descriptor this kernel wrote in its GDT's LDT slot (the
 * host owns the real one): the host copies the table it points to,
 * checking each entry. */
static void guest_load_ldt_desc(void)
{
	u64 desc = ((const u64 *)gdtr.address)[GDT_ENTRY_LDT];
	u32 entries = 0;

	if (desc & ((u64)DESC_PRESENT << 40))
		entries = min(descriptor_limit(desc) / 8 + 1, (u32)GUEST_LDT_ENTRIES);
	loaded_ldt = entries ? descriptor_base(desc) : 0;
	loaded_ldt_entries = entries;
	hypercall(HCALL_load_ldt, loaded_ldt, entries, 0);
}

static void guest_write_ldt_entry(void *dt, int entry, u64 desc)
{
	((u64 *)dt)[entry] = desc;
	if ((u32)dt == loaded_ldt && (u32)entry < loaded_ldt_entries)
		hypercall(HCALL_write_ldt_entry, entry, (u32)desc, desc >> 32);
}

/* ---- page tables: ours to write; the host hears of what it shadows ---- */

/*
 * The host's shadows hold only what was present in our tables: a new
 * entry needs no word (its first use faults, and the host reads it
 * then); a changed or cleared one does, before the next flush of the
 * TLB, which is a hypercall and takes the queue first - the very moment
 * a real TLB would drop the old entry too.  Interrupts off from the
 * store to the queueing: a context switch in between flushes the TLB,
 * and must find the word in the queue.
 */
static void guest_set_pte_at(u32 *ptep, u32 pte, u32 va)
{
	u32 flags = irqs_off(), old = *ptep;

	*(volatile u32 *)ptep = pte;
	if (old & PTE_PRESENT)
		queue_call(HCALL_set_pte, (u32)ptep, va, 0);
	set_irq_flag(flags);
}

static void guest_set_pde(u32 *pdep, u32 pde)
{
	u32 flags = irqs_off(), old = *pdep;

	*(volatile u32 *)pdep = pde;
	if (old & PTE_PRESENT)
		queue_call(HCALL_set_pde, (u32)pdep, 0, 0);
	set_irq_flag(flags);
}

/* Before its page goes back to the allocator (and perhaps becomes the
 * next task's directory): the host's shadow of it goes. */
static void guest_release_pgd(u32 *pgd)
{
	queue_call(HCALL_release_pgd, (u32)pgd, 0, 0);
}

/*
 * popf at ring 1 cannot change IOPL, and the real thing would give a
 * program the host's ports (and cli): the host keeps IOPL 0 and does the
 * in and out of a program we gave I/O privilege to
 * (arch/x86/host/port_io.c).  It hears of each change, at iopl() and at
 * a switch between tasks whose privilege differs; interrupts off, so
 * that what it heard last is what was sent last.
 */
static void guest_set_iopl_mask(unsigned long mask)
{
	static unsigned long sent;
	u32 flags = irqs_off();

	mask &= X86_EFLAGS_IOPL;
	if (mask != sent) {
		sent = mask;
		call_or_queue(HCALL_set_iopl, mask >> X86_EFLAGS_IOPL_BIT, 0, 0);
	}
	set_irq_flag(flags);
}

/* ---- the local APIC: a guest has none ---- */

/*
 * A guest is one CPU: its platform has no firmware tables (arch/x86/kernel/smp/discover.c) and
 * its cpuid hides nothing that would make apic_init() map a page, so
 * nothing calls these.  A call is a bug in that chain, and reading or
 * writing the host's APIC page on its behalf would be worse: refused,
 * as sysexit is.
 */
static u32 guest_apic_read(u32 reg)
{
	panic("guest: apic_read of register %03x, but a guest has no local APIC", reg);
}

static void guest_apic_write(u32 reg, u32 value)
{
	panic("guest: apic_write of %08x to register %03x, but a guest has no local APIC",
	      value, reg);
}

/* ---- TLB shootdown: a guest has no other CPU ---- */

/*
 * Every address space of a guest is loaded on its one CPU at most, so
 * tlb_flush_space_others (arch/x86/mm/tlb.c) finds no other CPU in
 * a mask and never calls the op.  A call names CPUs the guest does not
 * have: refused rather than done as nothing, since "nothing" would be a
 * silent success for a flush nobody made.  (A multi-CPU guest would ask
 * its host here, as Xen's MMUEXT_TLB_FLUSH_MULTI does.)
 */
static void guest_flush_tlb_others(cpumask_t cpumask, u32 va)
{
	panic("guest: flush_tlb_others to CPUs %08x (va %08x), but a guest is one CPU",
	      cpumask, va);
}

/* ---- the table ---- */

static const struct paravirt_ops guest_paravirt_ops = {
	.name			= "guest",
	.kernel_rpl		= GUEST_KERNEL_RPL,
	/* Eagerly: a lazy hand-over costs four exits (set_ts at the switch,
	 * the #NM reflected to us, clts's set_ts, then the host's own #NM,
	 * its real TS still set), each far dearer than the copy; eager, the
	 * copy runs here at ring 1 and exits not at all. */
	.eager_fpu		= true,

	.cpuid			= guest_cpuid,
	.get_debugreg		= guest_get_debugreg,
	.set_debugreg		= guest_set_debugreg,
	.clts			= guest_clts,

	.read_cr0		= guest_read_cr0,
	.write_cr0		= guest_write_cr0,
	.read_cr2		= guest_read_cr2,
	.write_cr2		= guest_write_cr2,
	.read_cr3		= guest_read_cr3,
	.write_cr3		= guest_write_cr3,
	.read_cr4_safe		= guest_read_cr4,
	.read_cr4		= guest_read_cr4,
	.write_cr4		= guest_write_cr4,

	.save_fl		= guest_save_fl,
	.restore_fl		= guest_restore_fl,
	.save_fl_irq_disable	= guest_save_fl_irq_disable,
	.irq_disable		= guest_irq_disable,
	.irq_enable		= guest_irq_enable,
	.safe_halt		= guest_safe_halt,
	.halt			= guest_halt,
	.wbinvd			= paravirt_nop,	/* the host's caches are the host's */

	.read_msr		= guest_read_msr,
	.write_msr		= guest_write_msr,
	.read_pmc		= guest_read_pmc,

	.load_tr_desc		= paravirt_nop,
	.load_ldt_desc		= guest_load_ldt_desc,
	.load_gdt		= guest_load_gdt,
	.load_idt		= guest_load_idt,
	.store_gdt		= guest_store_gdt,
	.store_idt		= guest_store_idt,
	.store_tr		= guest_store_tr,
	.load_tls		= guest_load_tls,
	.load_esp0		= guest_load_esp0,
	.write_gdt_entry	= guest_write_gdt_entry,
	.write_idt_entry	= guest_write_idt_entry,
	.write_ldt_entry	= guest_write_ldt_entry,

	.set_iopl_mask		= guest_set_iopl_mask,

	.irq_enable_sysexit	= guest_irq_enable_sysexit,
	.iret			= guest_iret,

	.set_pte_at		= guest_set_pte_at,
	.set_pde		= guest_set_pde,
	.release_pgd		= guest_release_pgd,

	.apic_read		= guest_apic_read,
	.apic_write		= guest_apic_write,
	.flush_tlb_others	= guest_flush_tlb_others,

	/* One CPU, and nothing privileged in them: the native lock ops
	 * (asm/spinlock.h), the unlock sites patched inline as natively. */
	NATIVE_SPIN_OPS,

	.start_context_switch	= guest_start_context_switch,
	.end_context_switch	= guest_end_context_switch,
	/* The page-table ops queue already: nothing more to hold back. */
	.enter_lazy_mmu		= paravirt_nop,
	.leave_lazy_mmu		= paravirt_nop,
};

/* sysexit needs ring 0, and sysenter is hidden from cpuid: nothing can
 * call for it.  Reached only if something did. */
void guest_no_sysexit(void) __noreturn;
void guest_no_sysexit(void)
{
	panic("guest: sysexit called, but a guest has no sysenter");
}

/*
 * The table, with the native instructions that are harmless at ring 1
 * filled in: the TSC (the patcher inlines rdtsc where the slot holds
 * native's function) and serializing.
 */
static struct paravirt_ops guest_ops;
static bool shared_page_given;

static const struct paravirt_ops *guest_prepare(const char **why)
{
	if (current_ring() != GUEST_KERNEL_RPL) {
		*why = "this kernel is not a guest (it runs at ring 0)";
		return NULL;
	}
	guest_ops = guest_paravirt_ops;
	guest_ops.read_tsc = native_paravirt_ops.read_tsc;
	guest_ops.sync_core = native_paravirt_ops.sync_core;
	spin_choose_draw_ops(&guest_ops);
	if (no_lazy_cpu) {	/* their sites become NOPs */
		guest_ops.start_context_switch = paravirt_nop;
		guest_ops.end_context_switch = paravirt_nop;
	}
	if (!shared_page_given) {
		hypercall(HCALL_init, (u32)&guest_shared, 0, 0);
		shared_page_given = true;
	}
	return &guest_ops;
}

/* The cures turned off, in the boot log after the backend's line. */
static void guest_report(void)
{
	if (no_lazy_cpu)
		printk("paravirt: guest without its lazy CPU mode (nolazycpu): "
		       "each op of a context switch calls the host\n");
	if (no_inline_flags)
		printk("paravirt: guest flag ops called, not inline (noinlineflags)\n");
}
paravirt_backend_reporting("guest", guest_prepare,
			   "ring 1 under a pv386 host: shared-page IF, hypercalls (chosen by itself)",
			   guest_report);
