/*
 * asm/paravirt.h - struct paravirt_ops: one table of function pointers
 * through which pv386 performs every privileged machine operation.
 *
 * A backend (arch/x86/native.c for bare hardware; hypervisor backends in
 * later issues) fills the table; the rest of the kernel calls only the
 * wrappers in asm/privileged.h and the entry-code macros, which go through
 * it.  The member list starts from the 2006 paravirt_ops patch.  Only the
 * PARAVIRT=y kernel has this table: with PARAVIRT=n the same wrappers
 * compile to inline instructions and no paravirt_ops symbol exists.
 *
 * The kernel is built with -mregparm=3, so every op takes its first three
 * 32-bit arguments in %eax, %edx, %ecx and returns in %eax (and %edx for
 * 64 bits): the convention the 2006 patch called "fastcall".
 */
#ifndef ASM_PARAVIRT_H
#define ASM_PARAVIRT_H

#ifndef CONFIG_PARAVIRT
#error "asm/paravirt.h exists only in the PARAVIRT=y kernel"
#endif

#ifndef __ASSEMBLER__

#include <types.h>
#include <asm/desc_defs.h>

struct paravirt_ops {
	const char *name;		/* backend name, printed at boot */
	unsigned int kernel_rpl;	/* privilege level the kernel runs at */

	void (*cpuid)(u32 *eax, u32 *ebx, u32 *ecx, u32 *edx);

	unsigned long (*get_debugreg)(int regno);
	void (*set_debugreg)(int regno, unsigned long value);

	void (*sync_core)(void);	/* serialize: flush prefetched code */
	void (*clts)(void);

	unsigned long (*read_cr0)(void);
	void (*write_cr0)(unsigned long);
	unsigned long (*read_cr2)(void);
	void (*write_cr2)(unsigned long);
	unsigned long (*read_cr3)(void);
	void (*write_cr3)(unsigned long);
	unsigned long (*read_cr4_safe)(void);	/* 0 where there is no CR4 */
	unsigned long (*read_cr4)(void);
	void (*write_cr4)(unsigned long);

	unsigned long (*save_fl)(void);
	void (*restore_fl)(unsigned long);
	unsigned long (*save_fl_irq_disable)(void);
	void (*irq_disable)(void);
	void (*irq_enable)(void);
	void (*safe_halt)(void);	/* enable interrupts and wait for one */
	void (*halt)(void);
	void (*wbinvd)(void);

	/* 0 or -EFAULT, through *err or the return value */
	u64 (*read_msr)(u32 msr, int *err);
	int (*write_msr)(u32 msr, u64 val);

	u64 (*read_tsc)(void);
	u64 (*read_pmc)(u32 counter, int *err);

	void (*load_tr_desc)(void);
	void (*load_ldt_desc)(void);
	void (*load_gdt)(const struct desc_ptr *);
	void (*load_idt)(const struct desc_ptr *);
	void (*store_gdt)(struct desc_ptr *);
	void (*store_idt)(struct desc_ptr *);
	unsigned long (*store_tr)(void);
	void (*load_tls)(const struct thread_struct *t, unsigned int cpu);
	void (*write_ldt_entry)(void *dt, int entry, u64 desc);
	void (*write_gdt_entry)(void *dt, int entry, u64 desc);
	void (*write_idt_entry)(void *dt, int entry, u64 desc);

	void (*set_iopl_mask)(unsigned long mask);

	/* Jumped to, never called: the stack holds an interrupt frame. */
	void (*irq_enable_sysexit)(void);
	void (*iret)(void);
};

extern struct paravirt_ops paravirt_ops;

void paravirt_init(void);	/* fill the table; the first C call of all */
void paravirt_check(void);	/* no empty op; print the backend */

#endif /* !__ASSEMBLER__ */
#endif
