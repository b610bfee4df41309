/*
 * asm-offsets.c - turns C structure offsets into constants for assembly.
 *
 * Never linked.  The Makefile compiles it to assembly (-S) and picks out
 * the "->NAME VALUE" markers that DEFINE leaves there, writing
 * build/.../generated/asm-offsets.h.  This way entry code can say
 * paravirt_ops+PV_iret and stay correct when the structure changes.
 */
#include <stddef.h>
#include <asm/desc_defs.h>
#include <asm/percpu.h>
#include <asm/processor.h>
#include <asm/switcher.h>
#include <asm/hypercall.h>
#ifdef CONFIG_PARAVIRT
#include <asm/paravirt.h>
#endif

#define DEFINE(sym, val) \
	asm volatile("\n.ascii \"->" #sym " %c0\"" : : "i" (val))
#define OFFSET(sym, str, mem)	DEFINE(sym, offsetof(struct str, mem))

void asm_offsets(void);

void asm_offsets(void)
{
	OFFSET(TSS_esp0, tss, esp0);
	/* sysenter_entry: this CPU's esp0, from the top of its sysenter
	 * stack, which lies right above its TSS (asm/percpu.h) */
	DEFINE(SYSENTER_esp0, (int)(offsetof(struct percpu, tss) + offsetof(struct tss, esp0)) -
			      (int)(offsetof(struct percpu, sysenter_stack) + SYSENTER_STACK_SIZE));
	/* the load_tls template writes this CPU's GDT through %fs */
	OFFSET(PERCPU_gdt, percpu, gdt);
	/* for the load_tls and load_esp0 templates (paravirt/patch/templates.S) */
	OFFSET(THREAD_tls_array, thread_struct, tls_array);
	OFFSET(THREAD_esp0, thread_struct, esp0);
	/* for the Switcher (arch/x86/host/world_switch.S) */
	OFFSET(SWST_host_cr3, switcher_state, host_cr3);
	OFFSET(SWST_host_esp, switcher_state, host_esp);
	OFFSET(SWST_switcher_esp, switcher_state, switcher_esp);
	OFFSET(SWST_nmis_in_switcher, switcher_state, nmis_in_switcher);
	OFFSET(SWST_traps_in_switcher, switcher_state, traps_in_switcher);
	OFFSET(SWST_guest_cr3, switcher_state, guest_cr3);
	OFFSET(SWST_host_gdt, switcher_state, host_gdt);
	OFFSET(SWST_host_idt, switcher_state, host_idt);
	OFFSET(SWST_guest_gdt, switcher_state, guest_gdt);
	OFFSET(SWST_guest_idt, switcher_state, guest_idt);
	OFFSET(SWST_guest_gdt_table, switcher_state, guest_gdt_table);
	OFFSET(SWST_guest_ldt_sel, switcher_state, guest_ldt_sel);
	OFFSET(SWST_guest_vm86_es, switcher_state, guest_vm86_es);
	OFFSET(SWST_guest_dr, switcher_state, guest_dr);
	OFFSET(SWST_guest_dr7, switcher_state, guest_dr7);
	DEFINE(SWST_guest_esp1, offsetof(struct switcher_state, guest_tss) +
				offsetof(struct tss, esp1));
	OFFSET(SWST_fast_shadows, switcher_state, fast_shadows);
	OFFSET(SWST_fast_stack_min, switcher_state, fast_stack_min);
	OFFSET(SWST_fast_stack_max, switcher_state, fast_stack_max);
	OFFSET(SWST_fast_switch_on, switcher_state, fast_switch_on);
	OFFSET(SWST_fast_switches, switcher_state, fast_switches);
	DEFINE(HCALL_CONTEXT_SWITCH, HCALL_context_switch);
	DEFINE(SWITCHER_REGS_SIZE, sizeof(struct pt_regs));
	OFFSET(PT_gs, pt_regs, gs);
	OFFSET(PT_fs, pt_regs, fs);
	OFFSET(PT_es, pt_regs, es);
	OFFSET(PT_ds, pt_regs, ds);
	OFFSET(PT_vector, pt_regs, vector);
	OFFSET(PT_cs, pt_regs, cs);
	OFFSET(PT_ss, pt_regs, ss);
#ifdef CONFIG_PARAVIRT
	DEFINE(PARAVIRT_SLOTS, PARAVIRT_NR_SLOTS);
	OFFSET(PV_irq_disable, paravirt_ops, irq_disable);
	OFFSET(PV_irq_enable, paravirt_ops, irq_enable);
	OFFSET(PV_halt, paravirt_ops, halt);
	OFFSET(PV_restore_fl, paravirt_ops, restore_fl);
	OFFSET(PV_read_cr0, paravirt_ops, read_cr0);
	OFFSET(PV_iret, paravirt_ops, iret);
	OFFSET(PV_irq_enable_sysexit, paravirt_ops, irq_enable_sysexit);
	/* for the guest backend (paravirt/backends/guest_entry.S) */
	OFFSET(SHARED_irq_enabled, guest_shared, irq_enabled);
#endif
}
