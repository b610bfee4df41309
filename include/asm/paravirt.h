/*
 * asm/paravirt.h - struct paravirt_ops: one table of function pointers
 * through which pv386 performs every privileged machine operation.
 *
 * A backend (arch/x86/paravirt/backends/: native for bare hardware, trace
 * to count every call, rom from a loaded ops ROM) fills the table; the
 * rest of the kernel calls only the wrappers in asm/privileged.h and the
 * entry-code macros, which go through it.  The member list starts from
 * the 2006 paravirt_ops patch.  Only the
 * PARAVIRT=y kernel has this table: with PARAVIRT=n the same wrappers
 * compile to inline instructions and no paravirt_ops symbol exists.
 *
 * The kernel is built with -mregparm=3, so every op takes its first three
 * 32-bit arguments in %eax, %edx, %ecx and returns in %eax (and %edx for
 * 64 bits): the convention the 2006 patch called "fastcall".
 *
 * Calls to the hot ops (those with a template in PATCH_TEMPLATES: the
 * interrupt flag, control registers, rdtsc, iret, sysexit, and the
 * context switch's load_tls and load_esp0) are emitted as *patch sites*
 * (asm/patch.h): the boot-time patcher turns them into the native
 * instructions when the native backend runs.  The pv_* functions and
 * entry macros below emit them.
 */
#ifndef ASM_PARAVIRT_H
#define ASM_PARAVIRT_H

#ifndef CONFIG_PARAVIRT
#error "asm/paravirt.h exists only in the PARAVIRT=y kernel"
#endif

#include <asm/patch.h>

#ifndef __ASSEMBLER__

#include <types.h>
#include <asm/cpumask.h>
#include <asm/desc_defs.h>

struct arch_spinlock;	/* asm/spinlock.h */

/*
 * PARAVIRT_OPS(X) lists every op of the table, in table order, as
 * X(op, return type, (parameters)).  The struct's members and the names
 * paravirt_op_name() gives are both generated from it, so a name cannot
 * drift from its slot.
 */
#define PARAVIRT_OPS(X)							\
	X(cpuid, void, (u32 *eax, u32 *ebx, u32 *ecx, u32 *edx))	\
									\
	X(get_debugreg, unsigned long, (int regno))			\
	X(set_debugreg, void, (int regno, unsigned long value))	\
									\
	X(sync_core, void, (void))	/* serialize: flush prefetched code */ \
	X(clts, void, (void))						\
									\
	X(read_cr0, unsigned long, (void))				\
	X(write_cr0, void, (unsigned long))				\
	X(read_cr2, unsigned long, (void))				\
	X(write_cr2, void, (unsigned long))				\
	X(read_cr3, unsigned long, (void))				\
	X(write_cr3, void, (unsigned long))				\
	X(read_cr4_safe, unsigned long, (void))	/* 0 where there is no CR4 */ \
	X(read_cr4, unsigned long, (void))				\
	X(write_cr4, void, (unsigned long))				\
									\
	X(save_fl, unsigned long, (void))				\
	X(restore_fl, void, (unsigned long))				\
	X(save_fl_irq_disable, unsigned long, (void))			\
	X(irq_disable, void, (void))					\
	X(irq_enable, void, (void))					\
	X(safe_halt, void, (void))	/* enable interrupts and wait for one */ \
	X(halt, void, (void))						\
	X(wbinvd, void, (void))						\
									\
	/* 0 or -EFAULT, through *err or the return value */		\
	X(read_msr, u64, (u32 msr, int *err))				\
	X(write_msr, int, (u32 msr, u64 val))				\
									\
	X(read_tsc, u64, (void))					\
	X(read_pmc, u64, (u32 counter, int *err))			\
									\
	X(load_tr_desc, void, (void))					\
	X(load_ldt_desc, void, (void))					\
	X(load_gdt, void, (const struct desc_ptr *))			\
	X(load_idt, void, (const struct desc_ptr *))			\
	X(store_gdt, void, (struct desc_ptr *))				\
	X(store_idt, void, (struct desc_ptr *))				\
	X(store_tr, unsigned long, (void))				\
	X(load_tls, void, (const struct thread_struct *t, unsigned int cpu)) \
	/* the ring-0 stack for entries from user mode, in the TSS */	\
	X(load_esp0, void, (struct tss *tss, const struct thread_struct *t)) \
	X(write_ldt_entry, void, (void *dt, int entry, u64 desc))	\
	X(write_gdt_entry, void, (void *dt, int entry, u64 desc))	\
	X(write_idt_entry, void, (void *dt, int entry, u64 desc))	\
									\
	X(set_iopl_mask, void, (unsigned long mask))			\
									\
	/* Jumped to, never called: the stack holds an interrupt frame. */ \
	X(irq_enable_sysexit, void, (void))				\
	X(iret, void, (void))						\
									\
	/* Page tables the CPU may walk (not in the 2006 patch: added for \
	 * the guest, as Linux's set_pte family was for Xen and lguest). \
	 * Natively two stores and nothing; a host that keeps shadows of \
	 * the tables hears of every change (asm/paging.h has the rule). */ \
	X(set_pte_at, void, (u32 *ptep, u32 pte, u32 va))		\
	X(set_pde, void, (u32 *pdep, u32 pde))				\
	X(release_pgd, void, (u32 *pgd))	/* before it is freed */	\
									\
	/* The local APIC's registers (asm/apic.h), by offset in its page: \
	 * Linux's 2006-2008 apic_read and apic_write.  Natively a load or \
	 * store at APIC_VIRT_BASE + reg; a hypervisor would emulate them. */ \
	X(apic_read, u32, (u32 reg))					\
	X(apic_write, void, (u32 reg, u32 value))			\
									\
	/* TLB shootdown (asm/tlbflush.h): each CPU in cpumask (never the \
	 * caller's) flushes va, or all of user space for TLB_FLUSH_ALL, \
	 * before it returns; interrupts on.  Linux 2.6.2x's		\
	 * flush_tlb_others(cpumask, mm, va).  Natively IPIs and a wait. */ \
	X(flush_tlb_others, void, (cpumask_t cpumask, u32 va))		\
									\
	/* The ticket lock's ops (asm/spinlock.h), Linux's pv_lock_ops: \
	 * the wait of a lock found held, the release (a callee-save \
	 * site: natively one add), a long waiter giving its CPU back, \
	 * a waiter's CPU woken, and whether a CPU's host runs it. */	\
	X(spin_lock_slowpath, void, (struct arch_spinlock *lock, u32 ticket)) \
	X(spin_unlock, void, (struct arch_spinlock *lock))		\
	X(spin_wait, void, (struct arch_spinlock *lock, u32 ticket))	\
	X(spin_kick, void, (unsigned int cpu))				\
	X(vcpu_is_preempted, bool, (unsigned int cpu))			\
	/* The take's atomic step (a callee-save site): natively `lock \
	 * xadd`; on a machine of one CPU, interrupts off and a plain	\
	 * add (asm/spinlock.h).  After the others, so that no op	\
	 * before it changes its slot. */				\
	X(spin_draw, u32, (u32 add, struct arch_spinlock *lock))	\
									\
	/* The lazy modes (Linux's, 2007, for VMI and Xen): between	\
	 * start and end of a context switch, and between enter and	\
	 * leave of lazy MMU mode, a backend may hold back what the ops \
	 * in between do and send it all at the end.  Natively nothing: \
	 * their sites are patched to NOPs.  Callee-save sites (below). */ \
	X(start_context_switch, void, (void))				\
	X(end_context_switch, void, (void))				\
	X(enter_lazy_mmu, void, (void))					\
	X(leave_lazy_mmu, void, (void))

#define PARAVIRT_OP_MEMBER(op, ret, params)	ret (*op) params;

struct paravirt_ops {
	const char *name;		/* backend name, printed at boot */
	unsigned int kernel_rpl;	/* privilege level the kernel runs at */
	/* The FPU handed over at every switch (eagerly) rather than at a
	 * task's first use after one (lazily, on #NM): the backend's choice
	 * of the cheaper, which fpu= overrides and fpu_init reads once
	 * (arch/x86/kernel/fpu.c).  A slot of its own, padded. */
	bool eager_fpu;
	PARAVIRT_OPS(PARAVIRT_OP_MEMBER)	/* then one pointer per op */
};

extern struct paravirt_ops paravirt_ops;

/* An op with nothing to do (ops_entry.S): the patcher makes its sites
 * NOPs. */
void paravirt_nop(void);
/* The native backend's table (native.c): the patcher's reference for
 * what is native, and what another backend borrows where the CPU's own
 * instruction serves it too. */
extern const struct paravirt_ops native_paravirt_ops;

void paravirt_init(void);	/* fill the table; the first C call of all */
const char *paravirt_op_name(unsigned int slot);	/* "?" if no op */
/* The slot of the first NULL op in ops, or 0 (never an op) if none is. */
unsigned int paravirt_first_empty_op(const struct paravirt_ops *ops);

/*
 * Backends.  Each backend file (native.c, and the trace and rom backends)
 * declares itself with paravirt_backend(); the table of them is the
 * .pv_backends section.  Backends never call each other, only through
 * paravirt_ops.  prepare() builds the backend's table and returns it,
 * ready to be copied into paravirt_ops, or returns NULL if the backend
 * cannot run here; it runs before the console exists (from the pv= boot
 * option's choice, before the patcher), so it must not print: it leaves
 * its reason in *why, which paravirt_backend_report() prints.  A backend
 * whose boot options change what prepare() builds says so in report(),
 * which paravirt_backend_report() calls for the backend booted on
 * (paravirt_backend_reporting(); NULL: nothing to say).
 */
struct paravirt_backend {
	const char *name;		/* as pv= and `pv use` name it */
	const char *about;		/* one line for `pv` and help */
	const struct paravirt_ops *(*prepare)(const char **why);
	void (*report)(void);		/* or NULL */
};

#define paravirt_backend(bname, prepare_fn, about_text)			\
	paravirt_backend_reporting(bname, prepare_fn, about_text, NULL)

#define paravirt_backend_reporting(bname, prepare_fn, about_text, report_fn) \
	static const struct paravirt_backend __pv_backend_##prepare_fn	\
	__section(".pv_backends") __used __attribute__((aligned(4))) =	\
	{ bname, about_text, prepare_fn, report_fn }

extern const struct paravirt_backend __start_pv_backends[], __stop_pv_backends[];
/* backends.c */
const struct paravirt_backend *paravirt_find_backend(const char *name);	/* or NULL */
/* The backend of the real instructions at this kernel's ring: native at
 * ring 0, guest at ring 1.  The one it boots on, and the one trace wraps. */
const char *paravirt_ring_backend(void);
/* name's table, ready to install; or NULL, *err -ENOENT (no such
 * backend) or -EINVAL (it refused), and *why says why. */
const struct paravirt_ops *paravirt_prepare_backend(const char *name, const char **why,
						    int *err);
void paravirt_choose_backend(void);	/* pv=: at boot, before the patcher */
void paravirt_backend_report(void);	/* which backend runs, and why not pv='s */

/* install.c: a table into paravirt_ops (behind the counting stubs if
 * counting), and which function each slot of it holds, seen through
 * those stubs.  The patcher decides by what the installed table holds. */
void paravirt_install_ops(const struct paravirt_ops *ops);
void *paravirt_installed_op(unsigned int slot);
/*
 * Live switching (paravirt/switch.c): the named backend's table put in
 * at run time, every site rewritten for it.  0, or -ENOENT (no such
 * backend) or -EINVAL (it refused: *why says why); the kernel then stays
 * as it was.
 */
int paravirt_switch_backend(const char *name, const char **why);
unsigned long paravirt_switch_count(void);	/* switches done so far */
#define for_each_paravirt_backend(b) \
	for ((b) = __start_pv_backends; (b) < __stop_pv_backends; (b)++)

/* The boot-time patcher, arch/x86/paravirt/patch/patch.c. */
struct paravirt_patch_stats {
	unsigned int total;	/* sites recorded */
	unsigned int inlined;	/* native instructions in place */
	unsigned int direct;	/* direct call/jmp to the backend's function */
	unsigned int nops;	/* no-op function: NOPs only */
	unsigned int empty;	/* empty op: calls the panic stub */
	unsigned int refused;	/* left as they were */
	unsigned int fenced;	/* in the code writer: kept indirect on purpose */
};

void paravirt_patch_init(void);		/* before the rest of the kernel runs */
unsigned int paravirt_patch_pending(void);	/* sites a run would write now */
void paravirt_patch_recount(void);		/* the report's counts, for the table now */
void paravirt_patch_report(void);
const struct paravirt_patch_stats *paravirt_patch_stats(void);
const struct patch_env *paravirt_patch_env(void);
bool paravirt_patching_disabled(void);	/* nopatch */
/* In the code writer's fenced section: never patched (patch.c). */
bool paravirt_site_fenced(const struct paravirt_patch_site *site);
bool paravirt_poisoning(void);		/* pvdebug */
struct op_template paravirt_op_template(unsigned int slot);
/* Padding instructions site runs per pass when patched for op function
 * fn: 0 or 1 (make bench, through the trace backend's counts). */
unsigned int paravirt_site_padding(const struct paravirt_patch_site *site, void *fn);
/* Every unfenced site rewritten for `to`; interrupts off (live switch). */
void paravirt_patch_switch(const struct paravirt_ops *to);
/* "inline", "direct", "indirect", "fenced" ...; orig: the build's bytes. */
const char *paravirt_site_state(const struct paravirt_patch_site *site, u8 *orig);
extern const struct paravirt_patch_site __start_parainstructions[];
extern const struct paravirt_patch_site __stop_parainstructions[];
#define for_each_patch_site(s) \
	for ((s) = __start_parainstructions; (s) < __stop_parainstructions; (s)++)

/* An op's slot: its number in the table, counted in pointers from the
 * start (so name is slot 0).  It is how the patch records, the patcher
 * and every message name an op: one numbering. */
#define PARAVIRT_SLOT(op)	(offsetof(struct paravirt_ops, op) / sizeof(void *))
#define PARAVIRT_NR_SLOTS	(sizeof(struct paravirt_ops) / sizeof(void *))
#define PARAVIRT_COUNT_OP(op, ret, params)	+ 1
#define PARAVIRT_NR_OPS		(0 PARAVIRT_OPS(PARAVIRT_COUNT_OP))
#define PARAVIRT_FIRST_OP_SLOT	(PARAVIRT_NR_SLOTS - PARAVIRT_NR_OPS)

/* The trace backend's counts (paravirt/backends/trace.c): calls per op, and per
 * site for the sites of called ops.  They only grow while trace runs. */
u32 paravirt_trace_calls(unsigned int slot);	/* on every CPU */
/* ... on one CPU (iret and sysexit, whose CPU is unknown, never count here). */
u32 paravirt_trace_cpu_calls(unsigned int cpu, unsigned int slot);
u32 paravirt_trace_site_calls(const struct paravirt_patch_site *site);
void *paravirt_trace_wrapped(unsigned int slot);	/* the native function */

/* Counting the calls that reach each op (install.c). */
extern u32 paravirt_op_calls[PARAVIRT_NR_SLOTS];	/* by slot, while counting */
void paravirt_count_start(void);
bool paravirt_counting(void);
bool paravirt_coverage_report(void);	/* prints; all ops the CPU has reached? */

/*
 * PARAVIRT_SITE(insns) records insns as a patch site: numbered labels
 * around it, and a struct paravirt_patch_site in .parainstructions.
 * The asm statement must supply the operands of PV_SITE_ARGS.
 */
#define PARAVIRT_SITE(insns)					\
	"771:\n\t" insns "\n772:\n\t" PARAVIRT_SITE_RECORD

#define PARAVIRT_SITE_RECORD					\
	".pushsection .parainstructions, \"a\"\n\t"		\
	".balign 4\n\t"						\
	".long 771b\n\t"					\
	".byte %c[pv_type]\n\t"					\
	".byte 772b - 771b\n\t"					\
	".short %c[pv_clbr]\n\t"					\
	".popsection"

/*
 * PARAVIRT_SIZED_SITE(insns): the same, padded to %c[pv_len] bytes, the
 * length of the op's template (asm/patch.h), so that inlined the
 * template fills the site.  The padding never runs as NOPs: one byte is
 * a nop, more are a jmp over int3 filler (the engine's
 * patch_original() spells the same bytes).  PV_SIZED_SITE_ARGS supplies
 * the operands.
 */
#define PARAVIRT_SIZED_SITE(insns)				\
	"771:\n\t" insns "\n773:\n\t"				\
	".if %c[pv_len] - (773b - 771b) == 1\n\t"		\
	".byte 0x90\n\t"					\
	".elseif %c[pv_len] - (773b - 771b) > 1\n\t"		\
	".byte 0xeb, %c[pv_len] - (773b - 771b) - 2\n\t"	\
	".fill %c[pv_len] - (773b - 771b) - 2, 1, 0xcc\n\t"	\
	".endif\n"						\
	"772:\n\t" PARAVIRT_SITE_RECORD

#define PV_SITE_ARGS(op, clobbers)				\
	[pv_op] "i" (&paravirt_ops.op),				\
	[pv_type] "i" (PARAVIRT_SLOT(op)),			\
	[pv_clbr] "i" (clobbers)

#define PV_SIZED_SITE_ARGS(op, clobbers)			\
	PV_SITE_ARGS(op, clobbers), [pv_len] "i" (PATCH_SITE_LEN_##op)

/* The ops are C functions that may change EAX, ECX and EDX.  A site saves
 * the ones its caller does not expect to lose, so that once patched into
 * one instruction, the saves vanish with the call. */
#define PV_CALL_SAVE_ECX_EDX					\
	"pushl %%ecx\n\tpushl %%edx\n\tcall *%c[pv_op]\n\tpopl %%edx\n\tpopl %%ecx"
#define PV_CALL_SAVE_ECX					\
	"pushl %%ecx\n\tcall *%c[pv_op]\n\tpopl %%ecx"
#define PV_CALL_SAVE_ALL					\
	"pushl %%eax\n\tpushl %%ecx\n\tpushl %%edx\n\tcall *%c[pv_op]\n\t"	\
	"popl %%edx\n\tpopl %%ecx\n\tpopl %%eax"

/* The same, in a site with room for a longer template (asm/patch.h). */
#define PV_SIZED_SITE_READ(op, result)					\
	asm volatile(PARAVIRT_SIZED_SITE(PV_CALL_SAVE_ECX_EDX)		\
		     : "=a" (result) : PV_SIZED_SITE_ARGS(op, CLBR_EAX) : "memory", "cc")
#define PV_SIZED_SITE_WRITE(op, arg)					\
	asm volatile(PARAVIRT_SIZED_SITE(PV_CALL_SAVE_ALL)		\
		     : : "a" (arg), PV_SIZED_SITE_ARGS(op, CLBR_NONE) : "memory", "cc")

/* void op(void): loses EAX only. */
#define PV_SITE_VOID(op)						\
	asm volatile(PARAVIRT_SITE(PV_CALL_SAVE_ECX_EDX)		\
		     : : PV_SITE_ARGS(op, CLBR_EAX) : "eax", "memory", "cc")

/* unsigned long op(void): the result arrives in EAX. */
#define PV_SITE_READ(op, result)					\
	asm volatile(PARAVIRT_SITE(PV_CALL_SAVE_ECX_EDX)		\
		     : "=a" (result) : PV_SITE_ARGS(op, CLBR_EAX) : "memory", "cc")

/* void op(unsigned long): the argument goes in EAX.  The site keeps EAX
 * too: callers pass the same value again and again (irq_restore in a
 * loop), and a site that lost it would cost a reload each time. */
#define PV_SITE_WRITE(op, arg)						\
	asm volatile(PARAVIRT_SITE(PV_CALL_SAVE_ALL)			\
		     : : "a" (arg), PV_SITE_ARGS(op, CLBR_NONE) : "memory", "cc")

static inline void pv_irq_disable(void)	{ PV_SITE_VOID(irq_disable); }
static inline void pv_irq_enable(void)	{ PV_SITE_VOID(irq_enable); }
static inline void pv_safe_halt(void)	{ PV_SITE_VOID(safe_halt); }
static inline void pv_halt(void)	{ PV_SITE_VOID(halt); }
static inline void pv_clts(void)	{ PV_SITE_VOID(clts); }

/* The flag ops' sites have room for the guest's templates. */
static inline unsigned long pv_save_fl(void)
{
	unsigned long flags;
	PV_SIZED_SITE_READ(save_fl, flags);
	return flags;
}

static inline unsigned long pv_save_fl_irq_disable(void)
{
	unsigned long flags;
	PV_SIZED_SITE_READ(save_fl_irq_disable, flags);
	return flags;
}

static inline unsigned long pv_read_cr0(void)
{
	unsigned long v;
	PV_SITE_READ(read_cr0, v);
	return v;
}

static inline unsigned long pv_read_cr2(void)
{
	unsigned long v;
	PV_SITE_READ(read_cr2, v);
	return v;
}

static inline unsigned long pv_read_cr3(void)
{
	unsigned long v;
	PV_SITE_READ(read_cr3, v);
	return v;
}

static inline void pv_restore_fl(unsigned long flags)	{ PV_SIZED_SITE_WRITE(restore_fl, flags); }
static inline void pv_write_cr3(unsigned long v)	{ PV_SITE_WRITE(write_cr3, v); }
static inline void pv_write_cr0(unsigned long v)	{ PV_SITE_WRITE(write_cr0, v); }

/* u64 op(void): the result arrives in EDX:EAX. */
static inline u64 pv_read_tsc(void)
{
	u64 v;
	asm volatile(PARAVIRT_SITE(PV_CALL_SAVE_ECX)
		     : "=A" (v) : PV_SITE_ARGS(read_tsc, CLBR_EAX | CLBR_EDX)
		     : "memory", "cc");
	return v;
}

/*
 * The context switch's two ops, whose native code is a few movs: their
 * sites are as long as their templates (PATCH_SITE_LEN_<op>), so that
 * inlined they cost what the PARAVIRT=n kernel's own movs cost, and are
 * called as any C function is (they may lose EAX, ECX and EDX: no saves).
 * load_esp0 takes its arguments as its function does, in EAX and EDX.
 */
static inline void pv_load_esp0(struct tss *tss, const struct thread_struct *t)
{
	unsigned long eax = (unsigned long)tss, edx = (unsigned long)t, ecx;

	asm volatile(PARAVIRT_SIZED_SITE("call *%c[pv_op]")
		     : "+a" (eax), "+d" (edx), "=c" (ecx)
		     : PV_SIZED_SITE_ARGS(load_esp0, CLBR_ANY) : "memory", "cc");
}

/* load_tls's site takes t in EBX, which the switch keeps the next task
 * in anyway: its template reads t there, and only the call form moves it
 * to EAX first (its prologue, asm/patch.h). */
static inline void pv_load_tls(const struct thread_struct *t, unsigned int cpu)
{
	unsigned long eax, ecx, edx = cpu;

	asm volatile(PARAVIRT_SIZED_SITE("movl %%ebx, %%eax\n\tcall *%c[pv_op]")
		     : "=a" (eax), "=c" (ecx), "+d" (edx)
		     : "b" (t), PV_SIZED_SITE_ARGS(load_tls, CLBR_ANY)
		     : "memory", "cc");
}

/*
 * spin_unlock's site is callee-save, as Linux's PV_CALLEE_SAVE ops are:
 * every function in its slot keeps EAX, ECX and EDX (natively an asm
 * add, asm/spinlock.h), so the site is the bare 6-byte call
 * (CLBR_CALLEE_SAVE tells the engine its call form saves nothing), and
 * patched natively it is the release alone, one instruction stretched
 * to those 6 bytes (templates.S): no padding runs.
 */
static inline void pv_spin_unlock(struct arch_spinlock *lock)
{
	asm volatile(PARAVIRT_SIZED_SITE("call *%c[pv_op]")
		     : : "a" (lock), PV_SIZED_SITE_ARGS(spin_unlock, CLBR_CALLEE_SAVE)
		     : "memory", "cc");
}

/*
 * The lock's draw is a callee-save site too, sized to its template's six
 * bytes (templates.S: `lock xadd` stretched as the release is): add in
 * EAX, where the old word comes back, and the lock in EDX, the registers
 * the instruction uses.  Patched natively the site is that one
 * instruction; on a machine of one CPU, a direct call to the one-CPU
 * form (asm/spinlock.h).
 */
static inline u32 pv_spin_draw(u32 add, struct arch_spinlock *lock)
{
	asm volatile(PARAVIRT_SIZED_SITE("call *%c[pv_op]")
		     : "+a" (add)
		     : "d" (lock), PV_SIZED_SITE_ARGS(spin_draw, CLBR_EAX | CLBR_CALLEE_SAVE)
		     : "memory", "cc");
	return add;
}

/*
 * The lazy modes' sites: callee-save, as spin_unlock's, so each is the
 * bare 6-byte call and the compiler keeps its registers live across it.
 * Natively the op is paravirt_nop and the site becomes one 6-byte NOP;
 * a backend with work to do there keeps every register (guest_entry.S).
 */
#define PV_SITE_CALLEE_SAVE(op)						\
	asm volatile(PARAVIRT_SITE("call *%c[pv_op]")			\
		     : : PV_SITE_ARGS(op, CLBR_CALLEE_SAVE) : "memory", "cc")

static inline void pv_start_context_switch(void) { PV_SITE_CALLEE_SAVE(start_context_switch); }
static inline void pv_end_context_switch(void)	{ PV_SITE_CALLEE_SAVE(end_context_switch); }
static inline void pv_enter_lazy_mmu(void)	{ PV_SITE_CALLEE_SAVE(enter_lazy_mmu); }
static inline void pv_leave_lazy_mmu(void)	{ PV_SITE_CALLEE_SAVE(leave_lazy_mmu); }

#else /* __ASSEMBLER__ */

#include <generated/asm-offsets.h>

/* The same site record, for assembly; offset is PV_<op> from asm-offsets. */
#define PARAVIRT_ASM_SITE(offset, clobbers, insns...)		\
	771: insns; 772:;					\
	.pushsection .parainstructions, "a";			\
	.balign 4;						\
	.long 771b;						\
	.byte (offset) / 4;					\
	.byte 772b - 771b;					\
	.short clobbers;					\
	.popsection

/* An asm call site reads the table through %ds: use it where %ds is
 * still the kernel's (the jump sites, used after user segments are
 * loaded, carry a %cs: override instead). */
#define PV_ASM_CALL_SAVE_ALL(offset)				\
	PARAVIRT_ASM_SITE(offset, CLBR_NONE,			\
		pushl %eax; pushl %ecx; pushl %edx;		\
		call *paravirt_ops+(offset);			\
		popl %edx; popl %ecx; popl %eax)

#endif /* __ASSEMBLER__ */
#endif
