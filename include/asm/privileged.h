/*
 * asm/privileged.h - the only way the kernel performs a privileged
 * operation: read_cr0(), raw_local_irq_disable(), rdmsr_safe(), load_gdt()...
 *
 * Each wrapper calls PVOP(name) or, for the hot ops, PVHOT(name):
 *   PARAVIRT=y  ->  paravirt_ops.name, an indirect call through the table;
 *                   for a hot op, pv_name: the same call inside a patch
 *                   site, which the boot-time patcher can make native;
 *   PARAVIRT=n  ->  native_name from asm/native.h, inlined in place.
 * So both kernels are built from the same source, and the difference in
 * cost between them is exactly the indirection.  The assembly macros at the
 * end (INTERRUPT_RETURN, DISABLE_INTERRUPTS, ...) do the same for the
 * entry code.
 */
#ifndef ASM_PRIVILEGED_H
#define ASM_PRIVILEGED_H

#ifdef CONFIG_PARAVIRT
#include <asm/paravirt.h>
#define PVOP(op)	paravirt_ops.op
#define PVHOT(op)	pv_##op
#else
#define PVOP(op)	native_##op
#define PVHOT(op)	native_##op
#endif

#ifndef __ASSEMBLER__

#ifndef CONFIG_PARAVIRT
#include <asm/native.h>
#endif

#include <types.h>
#include <asm/cpumask.h>
#include <asm/desc_defs.h>

/* ---- interrupt flag ---- */
static inline void raw_local_irq_disable(void)	{ PVHOT(irq_disable)(); }
static inline void raw_local_irq_enable(void)	{ PVHOT(irq_enable)(); }
static inline unsigned long raw_local_save_flags(void)	{ return PVHOT(save_fl)(); }
static inline void raw_local_irq_restore(unsigned long f) { PVHOT(restore_fl)(f); }
static inline unsigned long raw_local_irq_save(void)	{ return PVHOT(save_fl_irq_disable)(); }
static inline void raw_safe_halt(void)		{ PVHOT(safe_halt)(); }
static inline void halt(void)			{ PVHOT(halt)(); }

/* ---- control and debug registers ---- */
static inline unsigned long read_cr0(void)	{ return PVHOT(read_cr0)(); }
static inline void write_cr0(unsigned long v)	{ PVHOT(write_cr0)(v); }
static inline unsigned long read_cr2(void)	{ return PVHOT(read_cr2)(); }
static inline void write_cr2(unsigned long v)	{ PVOP(write_cr2)(v); }
static inline unsigned long read_cr3(void)	{ return PVHOT(read_cr3)(); }
static inline void write_cr3(unsigned long v)	{ PVHOT(write_cr3)(v); }
static inline unsigned long read_cr4(void)	{ return PVOP(read_cr4)(); }
static inline unsigned long read_cr4_safe(void)	{ return PVOP(read_cr4_safe)(); }
static inline void write_cr4(unsigned long v)	{ PVOP(write_cr4)(v); }
static inline void clts(void)			{ PVHOT(clts)(); }
static inline unsigned long get_debugreg(int r)	{ return PVOP(get_debugreg)(r); }
static inline void set_debugreg(int r, unsigned long v) { PVOP(set_debugreg)(r, v); }

/* ---- processor ---- */
static inline void sync_core(void)		{ PVOP(sync_core)(); }
static inline void wbinvd(void)			{ PVOP(wbinvd)(); }

static inline void cpuid_count(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	*a = leaf;
	*c = sub;
	PVOP(cpuid)(a, b, c, d);
}

static inline void cpuid(u32 leaf, u32 *a, u32 *b, u32 *c, u32 *d)
{
	cpuid_count(leaf, 0, a, b, c, d);
}

/* ---- MSRs and counters: 0 on success, -EFAULT if the CPU refused ---- */
static inline int rdmsr_safe(u32 msr, u64 *val)
{
	int err;
	*val = PVOP(read_msr)(msr, &err);
	return err;
}

static inline int wrmsr_safe(u32 msr, u64 val)	{ return PVOP(write_msr)(msr, val); }
static inline u64 read_tsc(void)		{ return PVHOT(read_tsc)(); }

static inline int rdpmc_safe(u32 counter, u64 *val)
{
	int err;
	*val = PVOP(read_pmc)(counter, &err);
	return err;
}

/* ---- descriptor tables ---- */
static inline void load_gdt(const struct desc_ptr *d)	{ PVOP(load_gdt)(d); }
static inline void load_idt(const struct desc_ptr *d)	{ PVOP(load_idt)(d); }
static inline void store_gdt(struct desc_ptr *d)	{ PVOP(store_gdt)(d); }
static inline void store_idt(struct desc_ptr *d)	{ PVOP(store_idt)(d); }
static inline unsigned long store_tr(void)		{ return PVOP(store_tr)(); }
static inline void load_tr_desc(void)			{ PVOP(load_tr_desc)(); }
static inline void load_ldt_desc(void)			{ PVOP(load_ldt_desc)(); }

static inline void load_TLS(const struct thread_struct *t, unsigned int cpu)
{
	PVHOT(load_tls)(t, cpu);
}

static inline void load_esp0(struct tss *tss, const struct thread_struct *t)
{
	PVHOT(load_esp0)(tss, t);
}

static inline void write_gdt_entry(void *dt, int n, u64 d) { PVOP(write_gdt_entry)(dt, n, d); }
static inline void write_ldt_entry(void *dt, int n, u64 d) { PVOP(write_ldt_entry)(dt, n, d); }
static inline void write_idt_entry(void *dt, int n, u64 d) { PVOP(write_idt_entry)(dt, n, d); }

static inline void set_iopl_mask(unsigned long mask)	{ PVOP(set_iopl_mask)(mask); }

/* ---- page tables in use (the rule: asm/paging.h) ---- */
static inline void set_pte_at(u32 *ptep, u32 pte, u32 va) { PVOP(set_pte_at)(ptep, pte, va); }
static inline void set_pde(u32 *pdep, u32 pde)		{ PVOP(set_pde)(pdep, pde); }
static inline void release_pgd(u32 *pgd)		{ PVOP(release_pgd)(pgd); }

/*
 * ---- the lazy modes: what the ops between start and end do may wait
 * for the end (a guest then tells its host all of it at once) ----
 * The context switch brackets its ops (arch_switch_to); the loops that
 * change many page-table entries at once (a new address space, exec,
 * brk, exit) bracket theirs.  Interrupts off in between for the
 * context switch; the MMU section may be interrupted, and an interrupt
 * handler's own page-table change is then held back with the rest.
 */
static inline void arch_start_context_switch(void)	{ PVHOT(start_context_switch)(); }
static inline void arch_end_context_switch(void)	{ PVHOT(end_context_switch)(); }
static inline void arch_enter_lazy_mmu_mode(void)	{ PVHOT(enter_lazy_mmu)(); }
static inline void arch_leave_lazy_mmu_mode(void)	{ PVHOT(leave_lazy_mmu)(); }

/* ---- the local APIC's registers (asm/apic.h: only apic.c calls these) ---- */
static inline u32 apic_read(u32 reg)			{ return PVOP(apic_read)(reg); }
static inline void apic_write(u32 reg, u32 value)	{ PVOP(apic_write)(reg, value); }

/* ---- TLB shootdown (asm/tlbflush.h: only tlb.c calls this) ---- */
static inline void flush_tlb_others(cpumask_t cpumask, u32 va)
{
	PVOP(flush_tlb_others)(cpumask, va);
}

/* ---- which backend is running ---- */
#ifdef CONFIG_PARAVIRT
static inline const char *paravirt_backend_name(void)	{ return paravirt_ops.name; }
static inline unsigned int get_kernel_rpl(void)	{ return paravirt_ops.kernel_rpl; }
static inline bool paravirt_eager_fpu(void)	{ return paravirt_ops.eager_fpu; }
#else
static inline const char *paravirt_backend_name(void)	{ return "inline (PARAVIRT=n)"; }
static inline unsigned int get_kernel_rpl(void)	{ return 0; }
static inline bool paravirt_eager_fpu(void)	{ return false; }	/* native: lazy */
static inline void paravirt_choose_backend(void)	{ }	/* the CPU, inline */
static inline void paravirt_patch_init(void)	{ }	/* nothing to patch */
static inline void paravirt_count_start(void)	{ }	/* no table to count */
static inline bool paravirt_counting(void)	{ return false; }
static inline void paravirt_backend_report(void)	{ }
static inline void paravirt_patch_report(void)	{ }
#endif

#else /* __ASSEMBLER__ */

/*
 * Entry-code macros.  The paravirt versions preserve every register but
 * the result, because entry code calls them with live registers.
 * INTERRUPT_RETURN uses a %cs: override: by then %ds may hold a user
 * selector.  iret and sysexit are jumped to, with the frame on the stack.
 */
#include <asm/extable.h>

/*
 * An iret to user mode can fault (a user segment made invalid behind the
 * task's back): the exception table sends that to iret_fault (entry.S),
 * which kills the task alone.  The entry sits at the site's first byte,
 * where the patcher puts the iret when it inlines it; native_iret has
 * its own.
 */
#ifdef CONFIG_PARAVIRT
#define INTERRUPT_RETURN					\
	PARAVIRT_ASM_SITE(PV_iret, CLBR_ANY, jmp *%cs:paravirt_ops+PV_iret); \
	_ASM_EXTABLE 771b, iret_fault
#define ENABLE_INTERRUPTS_SYSEXIT				\
	PARAVIRT_ASM_SITE(PV_irq_enable_sysexit, CLBR_ANY,	\
			  jmp *%cs:paravirt_ops+PV_irq_enable_sysexit)
#define DISABLE_INTERRUPTS	PV_ASM_CALL_SAVE_ALL(PV_irq_disable)
#define RESTORE_FLAGS_FROM_EAX	PV_ASM_CALL_SAVE_ALL(PV_restore_fl)
#define ENABLE_INTERRUPTS	PV_ASM_CALL_SAVE_ALL(PV_irq_enable)
#define HALT			PV_ASM_CALL_SAVE_ALL(PV_halt)
#define GET_CR0_INTO_EAX					\
	PARAVIRT_ASM_SITE(PV_read_cr0, CLBR_EAX,		\
		pushl %ecx; pushl %edx;				\
		call *paravirt_ops+PV_read_cr0;			\
		popl %edx; popl %ecx)
#else
#define INTERRUPT_RETURN	771: iret; _ASM_EXTABLE 771b, iret_fault
#define ENABLE_INTERRUPTS_SYSEXIT sti; sysexit
#define DISABLE_INTERRUPTS	cli
#define RESTORE_FLAGS_FROM_EAX	pushl %eax; popfl
#define ENABLE_INTERRUPTS	sti
#define GET_CR0_INTO_EAX	movl %cr0, %eax
#define HALT			hlt
#endif

#endif /* __ASSEMBLER__ */
#endif
