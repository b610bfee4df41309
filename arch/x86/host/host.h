/*
 * host.h - the host's own header, private to arch/x86/host/ (the rest of
 * the kernel sees asm/host.h): a guest's memory (one contiguous run of
 * host frames that the guest sees as its physical memory from address
 * 0), the loader that puts a guest kernel (the same pv386 build, a
 * Multiboot module) into it with a Multiboot block, so the guest boots
 * through the code every pv386 boots through, the shadow page tables the
 * CPU runs the guest on, and struct guest with what each file of the
 * host does with it.  The world switch is asm/switcher.h; the checks of
 * what a guest hands the host are asm/host_check.h.
 *
 * Guest-physical addresses (gpa) are offsets into guest memory; the host
 * reaches them only through guest_memory_ptr(), which refuses any range
 * that is not wholly inside.
 */
#ifndef ARCH_X86_HOST_HOST_H
#define ARCH_X86_HOST_HOST_H

#include <types.h>
#include <bootinfo.h>
#include <asm/host.h>
#include <spinlock.h>

/* Where the loader puts the guest's Multiboot block: below 1 MiB, where
 * the guest's page allocator never hands out frames. */
#define GUEST_BOOT_INFO		0x8000u
#define GUEST_KERNEL_MIN	0x100000u	/* segments start at 1 MiB or above */

/*
 * The host memory one guest holds: its RAM, and the frames its shadow
 * page tables take (page_tables.c counts them), which may not pass a
 * quota set from the RAM's size (memory.c says how much), so that a
 * guest mapping one 4 MiB slot after another is stopped by name rather
 * than take the host's last frames.
 */
#define SHADOW_SPARES	8	/* shadow frames kept zeroed for the next (memory.c) */

struct guest_memory {
	u32 base;		/* host-physical = host pointer (RAM is 1:1) */
	u32 size;		/* bytes; guest-physical [0, size) */
	unsigned long shadow_frames;	/* host frames its shadows hold now, spares too */
	u32 spare[SHADOW_SPARES];	/* shadow frames given back, zeroed */
	unsigned int spares;
	bool no_spares;			/* keep none (noshadowspares: shadow_cures.c) */
	unsigned long shadow_quota;	/* the most they may hold */
	unsigned long shadow_peak;	/* the most they have held */
	bool quota_refused;		/* the last frame refused: by the quota, not the host */
};

int guest_memory_alloc(struct guest_memory *m, unsigned int mib);
void guest_memory_free(struct guest_memory *m);
void *guest_memory_ptr(const struct guest_memory *m, u32 gpa, u32 len);

/* load.c: the guest kernel among the boot modules, or NULL */
const struct boot_module *guest_kernel_module(void);

/* The guest kernel image[0..size) into m; its entry point in *entry. */
int guest_load_kernel(struct guest_memory *m, const void *image, u32 size, u32 *entry);
/* The Multiboot block for the guest at GUEST_BOOT_INFO: its RAM and cmdline. */
int guest_write_boot_info(struct guest_memory *m, const char *cmdline);

/* A frame for a shadow, zeroed and counted in m against its quota, or
 * 0 (memory.c); one given back (kept as a spare if there is room), or
 * straight to the host; the spares back to the host. */
u32 shadow_frame_alloc(struct guest_memory *m);
void shadow_frame_free(struct guest_memory *m, u32 frame);
void shadow_frame_to_host(struct guest_memory *m, u32 frame);
void shadow_spares_free(struct guest_memory *m);

/*
 * The kernel half's shadow tables, shared among the kept shadows
 * (shadow_share.c): one per guest page table below KERNEL_SPACE_END, by
 * the table's gpa, the directory slot it is at and its directory
 * entry's rights, linked into every kept shadow whose directory points
 * there.  The shadow_cache owns them; their frames are counted in its
 * guest's memory once, however many shadows link them, and go back when
 * the last link goes (at the latest when the guest stops).
 */
#define SHARED_TABLES	32
#define SHARED_SLOTS	(KERNEL_SPACE_END / PGDIR_SPAN)	/* the kernel half's: shareable */
#define SHARED_KEY_MASK	(PAGE_MASK | PTE_WRITE | PTE_USER)	/* of a guest entry: its key */

struct shared_table {
	u32 *table;		/* the shadow table (a host frame); NULL: none */
	u32 key;		/* the guest's table (gpa) | its entry's W and U */
	u16 index;		/* the directory slot: the 4 MiB of va it maps */
	u16 links;		/* kept shadows' directory entries that point at it */
};

struct shadow_shares {
	struct guest_memory *mem;	/* where the frames are counted */
	unsigned int used;		/* slots ever used: the rest never were */
	struct shared_table table[SHARED_TABLES];
	struct shared_table *last;	/* the slot a fault last asked about */
	/* The cures a host's boot option turned off (shadow_cures.c): none
	 * shared (noshadowshare), changed entries only forgotten (noprefill). */
	bool no_sharing, no_prefill;
};

/* A shadow directory entry's own bit (one the CPU ignores): the table
 * is a shared one, to unlink rather than free. */
#define SHADOW_PDE_SHARED	0x200

void shadow_shares_init(struct shadow_shares *s, struct guest_memory *m);
/* 0 with *shadow_pde the directory entry that links guest_pde's table
 * at index, shared (made if need be: one link more), or 0 there if it is
 * not one to share (the shadow makes its own); -ENOMEM if a shared one
 * got no frame. */
int shared_table_link(struct shadow_shares *s, u32 guest_pde, unsigned int index,
		      u32 *shadow_pde);
void shared_table_unlink(struct shadow_shares *s, u32 shadow_pde);
/* The slot of the shared table shadow_pde links (it must be one); the
 * slot asked about last is the shares' last. */
struct shared_table *shared_table_of(struct shadow_shares *s, u32 shadow_pde);
unsigned int shared_tables_held(const struct shadow_shares *s);	/* in use now */
/* The shared table after `after` (NULL: the first), NULL after the last;
 * and the directory entry that links st for a guest entry of its key
 * (one link more), else 0. */
struct shared_table *shared_table_next(struct shadow_shares *s, struct shared_table *after);
u32 shared_table_link_if(struct shared_table *st, u32 guest_pde);

/* Shadow page tables (arch/x86/host/page_tables.c). */
struct shadow {
	u32 *pgd;			/* what the CPU uses: the host's frames; NULL: none */
	struct guest_memory *mem;	/* whose frames they are, counted there */
	struct shadow_shares *shares;	/* its kernel half's tables; NULL: none shared */
	u32 table_groups;		/* bit g: a table may be at slots 32g..32g+31 */
	u32 guest_cr3;			/* the guest's page directory (gpa) */
	unsigned long fills;		/* entries filled on demand */
	unsigned long last_used;	/* shadow_cache.c: which to rebuild */
};

enum shadow_result {
	SHADOW_FILLED,			/* run the guest again */
	SHADOW_GUEST_FAULT,		/* the guest's tables refuse: its fault */
	SHADOW_BAD_TABLE,		/* they point outside guest memory */
	SHADOW_NO_MEMORY,		/* no frame: the host has none, or the quota is met */
	SHADOW_LARGE_PAGE,		/* they map a 4 MiB page (PS=1): not shadowed */
};

/* guest_cr3 before the guest loads one: its memory 1:1, supervisor only
 * (never a page directory's address: not page-aligned). */
#define SHADOW_IDENTITY		0xffffffffu

/* 0, or -ENOMEM with nothing held (sh->pgd NULL); shadow_free frees
 * whatever a shadow holds, nothing for one that was never made (and
 * unlinks the shared tables it links).  shares may be NULL. */
int shadow_init(struct shadow *sh, struct guest_memory *m, struct shadow_shares *shares,
		u32 guest_cr3);
void shadow_drop(struct shadow *sh);
/* Directory slot d's entry made pde, a table (present). */
void shadow_set_pde(struct shadow *sh, unsigned int d, u32 pde);
/* The shared tables its directory points at, linked (a new shadow). */
void shadow_link_shared(struct shadow *sh);
void shadow_free(struct shadow *sh);
enum shadow_result shadow_fault(struct shadow *sh, u32 va, u32 *error_code);
/* The guest's entry at gpa changed (for a page-table entry: the va it
 * maps): what the shadow's own tables made from the old one goes - or,
 * for a page-table entry, is made from the new one at once. */
void shadow_pte_changed(struct shadow *sh, u32 pte_gpa, u32 va);
/* The guest's page-table entry at pte_gpa, mapping va, changed: each
 * shared table of its table at va's slot makes its entry again. */
void shadow_shares_pte_changed(struct shadow_shares *s, u32 pte_gpa, u32 va);
void shadow_forget_pde(struct shadow *sh, u32 pde_gpa);
void shadow_forget(struct shadow *sh, u32 va);	/* its entry for va */
void shadow_write_protect(struct shadow *sh, u32 va);
/* The guest's page under user address va, or NULL if its program could
 * not read it. */
const void *guest_user_page(const struct shadow *sh, u32 va);
/* What the host's write of a trap frame through the guest's own tables
 * found: written, or the CPU's push would have faulted (not present, or
 * read-only: the guest's double fault), or its tables break the rules. */
enum guest_write_result {
	GUEST_WRITTEN,
	GUEST_WRITE_NOT_MAPPED,		/* not present at either level */
	GUEST_WRITE_READ_ONLY,		/* present, not writable in both entries */
	GUEST_WRITE_OUTSIDE,		/* a table or the page outside its memory */
	GUEST_WRITE_LARGE_PAGE,		/* a 4 MiB page (PS=1): not shadowed */
};
enum guest_write_result shadow_guest_write(const struct shadow *sh, u32 va, const void *src,
					   u32 len, u32 *where);

/*
 * A few shadows kept, one per guest page directory (shadow_cache.c), so
 * that a context switch back to a recent address space finds its shadow
 * built (lguest kept 4 too).  The guest's page-table changes reach all
 * of them.
 */
#define SHADOWS_KEPT	4

struct shadow_cache {
	struct shadow shadow[SHADOWS_KEPT];	/* pgd NULL: not made yet */
	struct shadow *active;			/* what the CPU runs the guest on */
	struct guest_memory *mem;
	struct shadow_shares shares;		/* their kernel half's tables */
	unsigned long uses;			/* a clock for last_used */
	unsigned long built, reused;		/* by shadow_cache_switch() */
	unsigned long followed;			/* switches the host learnt of after */
	unsigned long changes;			/* a shadow made, rebuilt or freed */
};

/* The identity shadow active: 0, or -ENOMEM with nothing held. */
int shadow_cache_init(struct shadow_cache *c, struct guest_memory *m);
void shadow_cache_free(struct shadow_cache *c);
/* The shadow of guest_cr3 made active, kept or rebuilt; NULL: no frame
 * for a new one (the quota, or the host: guest_stop_no_frame). */
struct shadow *shadow_cache_switch(struct shadow_cache *c, u32 guest_cr3);
/* The kept shadow whose frames are pgd made active, as a switch the
 * Switcher did alone left it; NULL if none is. */
struct shadow *shadow_cache_follow(struct shadow_cache *c, u32 pgd);
void shadow_cache_pte_changed(struct shadow_cache *c, u32 pte_gpa, u32 va);
void shadow_cache_pde_changed(struct shadow_cache *c, u32 pde_gpa);
void shadow_cache_release(struct shadow_cache *c, u32 pgd_gpa);	/* it is freed */
void shadow_cache_forget(struct shadow_cache *c, u32 va);	/* in every one */
/* shadow_cures.c: the shadows' cures as the host's boot options say, at
 * a guest's start. */
void shadow_cures_choose(struct shadow_cache *c);

/* ---- a running guest (lifecycle.c, console.c, run.c, hypercall.c, interrupts.c) ---- */

#include <asm/hypercall.h>
#include <asm/switcher.h>	/* a guest runs through the Switcher */

struct pt_regs;

struct guest_stats {
	unsigned long hypercalls[HCALL_NR];	/* by kind, queued ones too */
	unsigned long exits;			/* exits: traps, interrupts, hypercalls */
	unsigned long traps;			/* reflected into the guest */
	unsigned long interrupts;		/* injected */
	unsigned long shadow_faults;		/* page faults the shadow filled */
	unsigned long irq_windows;		/* IF stores trapped (irq_window.c) */
	unsigned long exits_by[HOST_EXIT_REASONS];	/* enum host_count */
};

/* report.c: how many lines about it the guest may still cause. */
struct guest_reports {
	unsigned int spent;		/* tokens of the bucket used */
	unsigned long refilled;		/* the host tick they were last counted at */
	bool said_this_exit;		/* one line per exit */
	unsigned long suppressed;	/* held back, not yet told */
};

struct guest {
	enum guest_state state;
	struct guest_memory mem;
	struct shadow_cache shadows;
	unsigned long fast_listed;	/* shadows.changes when the Switcher's list was made */
	struct switcher_state *cpu;	/* its GDT, IDT and TSS as the CPU uses them */
	volatile struct guest_shared *shared;	/* in its memory; NULL before init */
	u32 flag_page;			/* the shared flag page: its gpa, and va */
	bool window_armed;		/* the flag page read-only (irq_window.c) */
	bool window_step;		/* one store let through: TF set */
	bool window_keeps_tf;		/* the guest had TF set itself */
	u64 gates[256];			/* its IDT, checked (check.c) */
	bool ts;			/* its CR0.TS */
	unsigned int user_iopl;		/* its running program's I/O privilege: 0 or 3 */
	u8 cmos_index;			/* port_io.c: its program's last pick */
	bool timer_on;
	bool halted;			/* waiting for an interrupt */
	unsigned long last_tick;	/* the host's tick its timer last saw */
	unsigned long irqs_off_since;	/* host tick its IF went off, with one pending */
	struct guest_stats stats;
	unsigned int exit_reason;	/* the exit being handled: enum host_count */
	struct guest_reports reports;	/* report.c */
	char stop_reason[128];
	int exit_value;			/* emulator_exit's, or -1 */
	char line[200];			/* console output not yet printed */
	unsigned int line_len;
};

/*
 * guest_lock (lifecycle.c, rank LOCK_RANK_GUEST): what the guest's
 * thread and the host's shell (`guest stop`, `guest console`, a start),
 * perhaps on two CPUs, both change: the state's moves, the stop reason,
 * the console line being collected, the release of its memory, and a
 * start's claim.  Taken with interrupts off; inside it only the page
 * allocator's and the console's locks, both above it.  What the guest's
 * thread alone touches while it runs (registers, shadows, counts) needs
 * none; `guest stats` reads counts that may be a moment old (and copies
 * the state and stop reason under the lock).  Bits of
 * the shared page that both sides change (irq_pending) are changed
 * atomically instead: the guest changes them too, and knows no lock.
 */
extern spinlock_t guest_lock;

/* lifecycle.c, console.c */
void guest_stop_no_frame(struct guest *g);	/* a shadow got none: which limit */
void guest_console_output(struct guest *g, const char *s, u32 n);
void guest_console_output_locked(struct guest *g, const char *s, u32 n);

/* hypercall.c: the call in regs (the queue first); false if it stopped the guest. */
void guest_hypercall(struct guest *g, struct pt_regs *regs);
/* The same for write_cr3 and flush only (run.c's fast exit): false,
 * with nothing done, for any other call. */
bool guest_fast_hypercall(struct guest *g, struct pt_regs *regs);

/* The calls guest_fast_hypercall() takes: the ones a context switch
 * makes.  Inline: run.c asks it at every hypercall's exit. */
static inline bool hypercall_is_fast(u32 nr)
{
	return nr == HCALL_write_cr3 || nr == HCALL_flush;
}
const char *hypercall_name(unsigned int nr);

/* report.c: a line about what the guest did ("host: " and fmt), bounded
 * per exit and rate-limited; the count of those held back told before
 * the next entry (resume) and when it stops (end). */
void guest_report(struct guest *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void guest_report_resume(struct guest *g);
void guest_report_end(struct guest *g);

/* insn.c: the privileged instruction at code (3 bytes), and its op. */
#define GUEST_INSN_MAX	15	/* the longest x86 instruction */
const char *guest_privileged_insn(const u8 *code, unsigned int len, const char **op);

/* irq_window.c: the pending check of a guest's IF stores, by the MMU. */
void irq_window_arm(struct guest *g);		/* before each entry */
void irq_window_fault(struct guest *g, struct pt_regs *r, u32 cr2);	/* a filled one */
bool irq_window_stepped(struct guest *g, struct pt_regs *r);	/* a #DB: ours? */

/* port_io.c: an in or out of a program with I/O privilege, which
 * faulted (IOPL stays 0); false if it is not one to do for it. */
bool guest_port_io(struct guest *g, struct pt_regs *r);

/* What the exit being handled is (enum host_count): "other" unless a
 * handler says more, the last to say (an #NM passed on says it is one
 * after the trap reflected does).  run.c counts it once handled. */
static inline void guest_exit_is(struct guest *g, enum host_count reason)
{
	g->exit_reason = reason;
}

/* interrupts.c */
void guest_reflect_trap(struct guest *g, unsigned int vector, u32 error_code);
void guest_inject_interrupt(struct guest *g);	/* if one is pending and allowed */
void guest_set_gate(struct guest *g, unsigned int vector, u64 checked_gate);

#endif
