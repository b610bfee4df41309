/*
 * native.c - the native backend: paravirt_ops filled with the real
 * instructions, for pv386 running on bare hardware (or a full emulator).
 *
 * The instructions themselves are the native_* inline functions of
 * asm/native.h; taking their addresses here makes the compiler emit each
 * one out of line, under its own native_* name.  iret and sysexit need an
 * interrupt frame, so they are in native_entry.S.
 *
 * This is a template: paravirt_init() (paravirt.c) copies the chosen
 * backend's table into paravirt_ops, which is what the kernel calls.
 * Its lock draws are the locked instructions, whose templates the
 * patcher inlines; prepare_native() gives the one-CPU forms instead
 * where no other CPU can exist (spin_choose_draw_ops).
 */
#define PV386_NATIVE_BACKEND
#include <asm/native.h>
#include <asm/paravirt.h>
#include <asm/spinlock.h>

void native_iret(void);
void native_irq_enable_sysexit(void);

const struct paravirt_ops native_paravirt_ops = {
	.name			= "native",
	.kernel_rpl		= 0,
	/* Lazily: on hardware a #NM is one trap, cheaper than copying the
	 * FPU's hundreds of bytes at every switch, most of which no task
	 * that runs next would touch. */
	.eager_fpu		= false,

	.cpuid			= native_cpuid,
	.get_debugreg		= native_get_debugreg,
	.set_debugreg		= native_set_debugreg,
	.sync_core		= native_sync_core,
	.clts			= native_clts,

	.read_cr0		= native_read_cr0,
	.write_cr0		= native_write_cr0,
	.read_cr2		= native_read_cr2,
	.write_cr2		= native_write_cr2,
	.read_cr3		= native_read_cr3,
	.write_cr3		= native_write_cr3,
	.read_cr4_safe		= native_read_cr4_safe,
	.read_cr4		= native_read_cr4,
	.write_cr4		= native_write_cr4,

	.save_fl		= native_save_fl,
	.restore_fl		= native_restore_fl,
	.save_fl_irq_disable	= native_save_fl_irq_disable,
	.irq_disable		= native_irq_disable,
	.irq_enable		= native_irq_enable,
	.safe_halt		= native_safe_halt,
	.halt			= native_halt,
	.wbinvd			= native_wbinvd,

	.read_msr		= native_read_msr,
	.write_msr		= native_write_msr,
	.read_tsc		= native_read_tsc,
	.read_pmc		= native_read_pmc,

	.load_tr_desc		= native_load_tr_desc,
	.load_ldt_desc		= native_load_ldt_desc,
	.load_gdt		= native_load_gdt,
	.load_idt		= native_load_idt,
	.store_gdt		= native_store_gdt,
	.store_idt		= native_store_idt,
	.store_tr		= native_store_tr,
	.load_tls		= native_load_tls,
	.load_esp0		= native_load_esp0,
	.write_ldt_entry	= native_write_ldt_entry,
	.write_gdt_entry	= native_write_gdt_entry,
	.write_idt_entry	= native_write_idt_entry,

	.set_iopl_mask		= native_set_iopl_mask,

	.irq_enable_sysexit	= native_irq_enable_sysexit,
	.iret			= native_iret,

	.set_pte_at		= native_set_pte_at,
	.set_pde		= native_set_pde,
	.release_pgd		= native_release_pgd,

	.apic_read		= native_apic_read,
	.apic_write		= native_apic_write,

	.flush_tlb_others	= native_flush_tlb_others,
	/* Not privileged: the kernel's own (asm/spinlock.h), which the
	 * other backends' tables hold too. */
	NATIVE_SPIN_OPS,

	/* Nothing held back: empty templates, so each site is a NOP. */
	.start_context_switch	= native_start_context_switch,
	.end_context_switch	= native_end_context_switch,
	.enter_lazy_mmu		= native_enter_lazy_mmu,
	.leave_lazy_mmu		= native_leave_lazy_mmu,
};

/* The table prepared: native's, with the lock's draws this machine
 * needs (the locked instructions, or the one-CPU forms). */
static struct paravirt_ops native_ops;

/* Not native_*: that prefix is for the instructions (tools/audit-natives). */
static const struct paravirt_ops *prepare_native(const char **why)
{
	if (current_ring() != 0) {	/* any x86, but only at ring 0 */
		*why = "its instructions need ring 0, and this kernel is a guest";
		return NULL;
	}
	native_ops = native_paravirt_ops;
	spin_choose_draw_ops(&native_ops);
	return &native_ops;
}
paravirt_backend("native", prepare_native, "the CPU's own instructions, inline where patched");
