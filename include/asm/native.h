/*
 * asm/native.h - the real x86 instructions behind every privileged operation.
 *
 * Each native_* function here is the one place where pv386 spells out a
 * privileged instruction in C.  They are used two ways:
 *   - PARAVIRT=y: arch/x86/paravirt/backends/native.c takes their addresses to fill
 *     paravirt_ops, so each becomes an out-of-line function named native_*
 *     (the binary audit allows privileged instructions only there);
 *   - PARAVIRT=n: asm/privileged.h calls them directly and they inline
 *     into their callers: the kernel as it would be without paravirt_ops.
 *
 * Instructions that may not exist on the running CPU (rdmsr on a missing
 * MSR, %cr4 before the Pentium, cpuid and wbinvd on a 386) carry an
 * exception-table entry: the fault handler skips them and the function
 * reports an error or does nothing, instead of killing the kernel.
 */
#ifndef ASM_NATIVE_H
#define ASM_NATIVE_H

#if defined(CONFIG_PARAVIRT) && !defined(PV386_NATIVE_BACKEND)
#error "asm/native.h is the native backend's: use asm/privileged.h"
#endif

#include <types.h>
#include <asm/apic.h>
#include <asm/desc_defs.h>
#include <asm/extable.h>
#include <asm/percpu.h>
#include <asm/processor.h>
#include <asm/processor-flags.h>

/* ---- interrupt flag ---- */

static inline unsigned long native_save_fl(void)
{
	unsigned long flags;
	asm volatile("pushfl; popl %0" : "=rm" (flags) : : "memory");
	return flags;
}

static inline void native_restore_fl(unsigned long flags)
{
	asm volatile("pushl %0; popfl" : : "g" (flags) : "memory", "cc");
}

static inline void native_irq_disable(void)
{
	asm volatile("cli" : : : "memory");
}

static inline void native_irq_enable(void)
{
	asm volatile("sti" : : : "memory");
}

static inline unsigned long native_save_fl_irq_disable(void)
{
	unsigned long flags;
	asm volatile("pushfl; popl %0; cli" : "=rm" (flags) : : "memory");
	return flags;
}

/* sti delays interrupts by one instruction, so no interrupt can slip in
 * between it and hlt and leave us asleep with work pending. */
static inline void native_safe_halt(void)
{
	asm volatile("sti; hlt" : : : "memory");
}

static inline void native_halt(void)
{
	asm volatile("hlt" : : : "memory");
}

/* ---- control registers ---- */

static inline unsigned long native_read_cr0(void)
{
	unsigned long v;
	asm volatile("movl %%cr0, %0" : "=r" (v));
	return v;
}

static inline void native_write_cr0(unsigned long v)
{
	asm volatile("movl %0, %%cr0" : : "r" (v) : "memory");
}

static inline unsigned long native_read_cr2(void)
{
	unsigned long v;
	asm volatile("movl %%cr2, %0" : "=r" (v));
	return v;
}

static inline void native_write_cr2(unsigned long v)
{
	asm volatile("movl %0, %%cr2" : : "r" (v) : "memory");
}

static inline unsigned long native_read_cr3(void)
{
	unsigned long v;
	asm volatile("movl %%cr3, %0" : "=r" (v));
	return v;
}

static inline void native_write_cr3(unsigned long v)
{
	asm volatile("movl %0, %%cr3" : : "r" (v) : "memory");
}

static inline unsigned long native_read_cr4(void)
{
	unsigned long v;
	asm volatile("movl %%cr4, %0" : "=r" (v));
	return v;
}

/* CR4 appeared with the Pentium: on a 386/486 the mov raises #UD, the
 * exception table skips it, and the preset 0 is returned. */
static inline unsigned long native_read_cr4_safe(void)
{
	unsigned long v = 0;
	asm volatile("1: movl %%cr4, %0\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : "+r" (v));
	return v;
}

static inline void native_write_cr4(unsigned long v)
{
	asm volatile("movl %0, %%cr4" : : "r" (v) : "memory");
}

static inline void native_clts(void)
{
	asm volatile("clts" : : : "memory");
}

/* ---- debug registers (DR4/DR5 alias DR6/DR7 and are not offered) ---- */

static inline unsigned long native_get_debugreg(int regno)
{
	unsigned long v = 0;

	switch (regno) {
	case 0: asm volatile("movl %%db0, %0" : "=r" (v)); break;
	case 1: asm volatile("movl %%db1, %0" : "=r" (v)); break;
	case 2: asm volatile("movl %%db2, %0" : "=r" (v)); break;
	case 3: asm volatile("movl %%db3, %0" : "=r" (v)); break;
	case 6: asm volatile("movl %%db6, %0" : "=r" (v)); break;
	case 7: asm volatile("movl %%db7, %0" : "=r" (v)); break;
	}
	return v;
}

static inline void native_set_debugreg(int regno, unsigned long v)
{
	switch (regno) {
	case 0: asm volatile("movl %0, %%db0" : : "r" (v) : "memory"); break;
	case 1: asm volatile("movl %0, %%db1" : : "r" (v) : "memory"); break;
	case 2: asm volatile("movl %0, %%db2" : : "r" (v) : "memory"); break;
	case 3: asm volatile("movl %0, %%db3" : : "r" (v) : "memory"); break;
	case 6: asm volatile("movl %0, %%db6" : : "r" (v) : "memory"); break;
	case 7: asm volatile("movl %0, %%db7" : : "r" (v) : "memory"); break;
	}
}

/* ---- CPU identification and caches ---- */

/* A 386 and early 486s have no cpuid: it raises #UD, the exception table
 * skips it, and the caller sees all four registers zero. */
static inline void native_cpuid(u32 *eax, u32 *ebx, u32 *ecx, u32 *edx)
{
	u32 a = *eax, b, c = *ecx, d;
	int faulted;

	asm volatile("movl $1, %[f]\n"
		     "1: cpuid\n\t"
		     "xorl %[f], %[f]\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : [f] "=&S" (faulted), "+a" (a), "=b" (b), "+c" (c), "=d" (d)
		     : : "memory");
	if (faulted)
		a = b = c = d = 0;
	*eax = a; *ebx = b; *ecx = c; *edx = d;
}

/* iret is serializing on every x86 from the 386 on (cpuid is not there
 * before late 486s): return to the next instruction through it. */
static inline void native_sync_core(void)
{
	asm volatile("pushfl\n\t"
		     "pushl %%cs\n\t"
		     "pushl $1f\n\t"
		     "iret\n"
		     "1:"
		     : : : "memory");
}

/* wbinvd came with the 486; a 386 has no cache to write back, so the
 * #UD it raises there is skipped. */
static inline void native_wbinvd(void)
{
	asm volatile("1: wbinvd\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : : : "memory");
}

/* ---- model-specific registers and counters ---- */

/* rdmsr raises #GP for an MSR the CPU lacks (and #UD before the
 * Pentium); either way *err says -EFAULT and the value is 0. */
static inline u64 native_read_msr(u32 msr, int *err)
{
	u32 lo = 0, hi = 0;
	int e;

	asm volatile("movl %[fault], %[e]\n"
		     "1: rdmsr\n\t"
		     "xorl %[e], %[e]\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : [e] "=&r" (e), "+a" (lo), "+d" (hi)
		     : "c" (msr), [fault] "i" (-EFAULT));
	*err = e;
	return ((u64)hi << 32) | lo;
}

static inline int native_write_msr(u32 msr, u64 val)
{
	int e;

	asm volatile("movl %[fault], %[e]\n"
		     "1: wrmsr\n\t"
		     "xorl %[e], %[e]\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : [e] "=&r" (e)
		     : "c" (msr), "a" ((u32)val), "d" ((u32)(val >> 32)),
		       [fault] "i" (-EFAULT)
		     : "memory");
	return e;
}

/* "=A" is EDX:EAX as one 64-bit value, exactly what rdtsc produces. */
static inline u64 native_read_tsc(void)
{
	u64 v;
	asm volatile("rdtsc" : "=A" (v));
	return v;
}

/* rdpmc faults on a counter that does not exist, and on CPUs (and
 * emulators) without performance counters: report that as -EFAULT. */
static inline u64 native_read_pmc(u32 counter, int *err)
{
	u32 lo = 0, hi = 0;
	int e;

	asm volatile("movl %[fault], %[e]\n"
		     "1: rdpmc\n\t"
		     "xorl %[e], %[e]\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : [e] "=&r" (e), "+a" (lo), "+d" (hi)
		     : "c" (counter), [fault] "i" (-EFAULT));
	*err = e;
	return ((u64)hi << 32) | lo;
}

/* ---- descriptor tables ---- */

static inline void native_load_gdt(const struct desc_ptr *dtr)
{
	asm volatile("lgdt %0" : : "m" (*dtr));
}

static inline void native_load_idt(const struct desc_ptr *dtr)
{
	asm volatile("lidt %0" : : "m" (*dtr));
}

static inline void native_store_gdt(struct desc_ptr *dtr)
{
	asm volatile("sgdt %0" : "=m" (*dtr));
}

static inline void native_store_idt(struct desc_ptr *dtr)
{
	asm volatile("sidt %0" : "=m" (*dtr));
}

/* ltr marks the TSS descriptor busy; that is why gdt.c reloads the TR
 * only from a descriptor it has just (re)written as available. */
static inline void native_load_tr_desc(void)
{
	asm volatile("ltr %w0" : : "r" (__TSS_SEL));
}

static inline void native_load_ldt_desc(void)
{
	asm volatile("lldt %w0" : : "r" (__LDT_SEL));
}

/* Before the Pentium Pro the upper half of a 32-bit str is undefined. */
static inline unsigned long native_store_tr(void)
{
	unsigned long tr;
	asm volatile("str %w0" : "=r" (tr));
	return tr & 0xffff;
}

static inline void native_write_dt_entry(void *dt, int entry, u64 desc)
{
	volatile u32 *p = (u32 *)dt + 2 * entry;

	p[0] = (u32)desc;
	p[1] = (u32)(desc >> 32);
}

static inline void native_write_gdt_entry(void *dt, int entry, u64 desc)
{
	native_write_dt_entry(dt, entry, desc);
}

static inline void native_write_ldt_entry(void *dt, int entry, u64 desc)
{
	native_write_dt_entry(dt, entry, desc);
}

static inline void native_write_idt_entry(void *dt, int entry, u64 desc)
{
	native_write_dt_entry(dt, entry, desc);
}

/* Into CPU cpu's GDT, in its per-CPU area (asm/percpu.h).  The patched
 * template writes the running CPU's through %fs instead: the one the
 * context switch names. */
static inline void native_load_tls(const struct thread_struct *t, unsigned int cpu)
{
	int i;

	for (i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		native_write_gdt_entry(per_cpu(cpu)->gdt, GDT_ENTRY_TLS_MIN + i,
				       t->tls_array[i]);
}

static inline void native_load_esp0(struct tss *tss, const struct thread_struct *t)
{
	tss->esp0 = t->esp0;
}

/* ---- page tables: on bare hardware the CPU reads them from memory ---- */

static inline void native_set_pte_at(u32 *ptep, u32 pte, u32 va)
{
	(void)va;
	*(volatile u32 *)ptep = pte;
}

static inline void native_set_pde(u32 *pdep, u32 pde)
{
	*(volatile u32 *)pdep = pde;
}

/* Nothing holds a page directory for the CPU once %cr3 has left it. */
static inline void native_release_pgd(u32 *pgd)
{
	(void)pgd;
}

/* ---- the lazy modes: a CPU does each op at once, nothing waits ---- */
static inline void native_start_context_switch(void) { }
static inline void native_end_context_switch(void) { }
static inline void native_enter_lazy_mmu(void) { }
static inline void native_leave_lazy_mmu(void) { }

/* ---- the local APIC: a page of registers at a fixed address ---- */

/*
 * Uncached memory (the page is mapped PCD|PWT, arch/x86/kernel/smp/apic.c):
 * every load and store reaches the APIC, whole 32 bits, in program
 * order.  volatile keeps the compiler from merging or dropping one.
 */
static inline u32 native_apic_read(u32 reg)
{
	return *(volatile u32 *)(APIC_VIRT_BASE + reg);
}

static inline void native_apic_write(u32 reg, u32 value)
{
	*(volatile u32 *)(APIC_VIRT_BASE + reg) = value;
}

/* ---- TLB shootdown ---- */

/*
 * No instruction makes another CPU flush: natively the op is C, IPIs and
 * a wait for each answer (arch/x86/mm/tlb.c), built on the APIC ops.
 * A name, not a function here: tools/audit-natives checks that every
 * native_* function holds its instruction, and this one has none.
 */
void smp_flush_tlb_others(cpumask_t cpumask, u32 va);
#define native_flush_tlb_others	smp_flush_tlb_others

/* ---- I/O privilege ---- */

static inline void native_set_iopl_mask(unsigned long mask)
{
	unsigned long flags = native_save_fl();

	native_restore_fl((flags & ~X86_EFLAGS_IOPL) | (mask & X86_EFLAGS_IOPL));
}

#endif
