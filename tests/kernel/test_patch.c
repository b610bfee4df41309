/*
 * test_patch.c - the boot-time patcher, checked on the running kernel.
 *
 * Whatever the boot options, every recorded site must hold exactly what
 * its mode promises: the template and one padding instruction (patched),
 * the template, poison and padding (pvdebug), or the untouched indirect
 * call (nopatch).  The engine is also run on call sites built in a buffer and
 * then executed, which shows that a direct call's rel32 really reaches
 * its target.
 */
#ifdef CONFIG_PARAVIRT
#include <kernel.h>
#include <ktest.h>
#include <string.h>
#include <asm/cpu.h>
#include <asm/desc.h>
#include <asm/paravirt.h>
#include <asm/patch.h>
#include <asm/privileged.h>
#include <asm/processor.h>
#include <asm/spinlock.h>

static const u8 *site_bytes(const struct paravirt_patch_site *s)
{
	return (const u8 *)s->instr;
}

static unsigned int poisoned_sites;

/*
 * pvdebug: the site must hold `mov $PATCH_POISON, %reg` (5 bytes) for
 * each register it may clobber but the template does not write, as many
 * as fit.  Returns their length, or -1 if one is missing.
 */
static int poison_length(const u8 *p, unsigned int room, u8 regs)
{
	u32 poison = PATCH_POISON;
	unsigned int r, n = 0;

	for (r = 0; r < 3; r++) {
		if (!(regs & (1 << r)) || n + 5 > room)
			continue;
		if (p[n] != 0xb8 + r || memcmp(p + n + 1, &poison, 4))
			return -1;
		n += 5;
	}
	poisoned_sites += n > 0;
	return n;
}

/* The padding must be one instruction: the NOP of its length from the
 * table the patcher chose or, longer than its longest, a jmp over int3
 * filler. */
static bool is_one_padding(const u8 *p, unsigned int len)
{
	const struct patch_env *env = paravirt_patch_env();
	unsigned int i;

	if (len <= env->max_nop)
		return !len || !memcmp(p, env->nops[len], len);
	if (p[0] != 0xeb || p[1] != len - 2)	/* jmp rel8 to the site's end */
		return false;
	for (i = 2; i < len; i++)
		if (p[i] != PATCH_FILLER)
			return false;
	return true;
}

static bool site_is_template_and_nops(const struct paravirt_patch_site *s)
{
	struct op_template op = paravirt_op_template(s->slot);
	const u8 *p = site_bytes(s);
	unsigned int n = op.tpl_len;

	if (!op.tpl || memcmp(p, op.tpl, op.tpl_len))
		return false;
	if (paravirt_poisoning() && !op.jump) {
		int poison = poison_length(p + n, s->len - n, s->clobbers & ~op.writes);

		if (poison < 0)
			return false;
		n += poison;
	}
	return is_one_padding(p + n, s->len - n);
}

/* Only the native backend's functions have templates to inline; another
 * backend's sites are direct calls (test_rom.c checks the rom's). */
static bool backend_is_native(void)
{
	return !strcmp(paravirt_ops.name, "native");
}

/* A site of the lock's draw on a machine that may lack xadd (no CPUID,
 * no APIC): there the slot holds the one-CPU form, and the site is a direct call to it
 * (spin_choose_draw_ops), the one kind of native site not inlined. */
static bool is_one_cpu_draw(const struct paravirt_patch_site *s)
{
	return !cpu_has_xadd() && s->slot == PARAVIRT_SLOT(spin_draw);
}

KTEST(patch_native_boot_inlines_every_site)
{
	const struct paravirt_patch_stats *st = paravirt_patch_stats();
	const struct paravirt_patch_site *s;
	unsigned int one_cpu_draws = 0;

	if (paravirt_patching_disabled())
		KT_SKIP("booted with nopatch");
	if (!backend_is_native())
		KT_SKIP("the backend is not native");
	for_each_patch_site(s)
		one_cpu_draws += !paravirt_site_fenced(s) && is_one_cpu_draw(s);
	KT_EXPECT(st->total > 0);
	KT_EXPECT_EQ(st->inlined, st->total - one_cpu_draws);
	KT_EXPECT_EQ(st->direct, one_cpu_draws);
	KT_EXPECT_EQ(st->refused, 0);
}

/*
 * The take's draw is chosen at boot, not at each take: natively, where
 * the CPU has xadd, each spin_draw site is `lock xadd` stretched to the
 * site (f0 3e 0f c1 42 00, spelled here); on a machine that may lack it
 * (no CPUID, no APIC: cpu=386, cpu=486) a direct call to the one-CPU
 * form, padded.
 */
static bool draw_site_is_the_machines(const struct paravirt_patch_site *s)
{
	static const u8 xadd[] = { 0xf0, 0x3e, 0x0f, 0xc1, 0x42, 0x00 };
	const u8 *p = site_bytes(s);

	if (s->len != 6 || s->clobbers != (CLBR_EAX | CLBR_CALLEE_SAVE))
		return false;
	if (!cpu_has_xadd())
		return p[0] == 0xe8 &&
		       *(const u32 *)(p + 1) == (u32)spin_draw_one_cpu - (s->instr + 5) &&
		       is_one_padding(p + 5, 1);
	return !memcmp(p, xadd, sizeof(xadd));
}

KTEST(patch_draw_sites_are_the_machines)
{
	const struct paravirt_patch_site *s;
	unsigned int draws = 0, wrong = 0;

	if (paravirt_patching_disabled())
		KT_SKIP("booted with nopatch");
	if (!backend_is_native())
		KT_SKIP("the backend is not native");
	for_each_patch_site(s)
		if (!paravirt_site_fenced(s) && s->slot == PARAVIRT_SLOT(spin_draw)) {
			draws++;
			wrong += !draw_site_is_the_machines(s);
		}
	KT_EXPECT(draws > 0);
	KT_EXPECT_EQ(wrong, 0);
}

/*
 * The uncontended unlock "patches to one store" (docs/smp.md): natively each
 * spin_unlock site is the ticket lock's release, `ds addw $1, 0x0(%eax)`
 * (its bytes spelled here, not taken from the template: the add stretched
 * to the site's 6 bytes, so no padding is left); with nopatch, the bare
 * callee-save call, with no register saved around it.  The rom's glue
 * and the guest hold the same native unlock.
 */
KTEST(patch_unlock_site_is_the_one_release)
{
	static const u8 release[] = { 0x3e, 0x66, 0x83, 0x40, 0x00, 0x01 };
	const struct paravirt_patch_site *s;
	unsigned int sites = 0, wrong = 0;

	if (strcmp(paravirt_ops.name, "native") && strcmp(paravirt_ops.name, "rom") &&
	    strcmp(paravirt_ops.name, "guest"))
		KT_SKIP("the unlock is not the native one");
	for_each_patch_site(s) {
		const u8 *p = site_bytes(s);

		if (s->slot != PARAVIRT_SLOT(spin_unlock) || paravirt_site_fenced(s))
			continue;
		sites++;
		if (s->len != 6 || s->clobbers != CLBR_CALLEE_SAVE)
			wrong++;
		else if (paravirt_patching_disabled())
			wrong += p[0] != 0xff || p[1] != 0x15 ||
				 *(const u32 *)(p + 2) != (u32)&paravirt_ops.spin_unlock;
		else
			wrong += memcmp(p, release, sizeof(release)) ||
				 !is_one_padding(p + sizeof(release), s->len - sizeof(release));
	}
	KT_EXPECT(sites > 0);
	KT_EXPECT_EQ(wrong, 0);
}

/* In a guest, every irq_disable site is the guest backend's one store
 * (paravirt_inline in backends/guest.c), padded: cli's counterpart. */
KTEST(patch_guest_irq_disable_is_one_store)
{
	extern const u8 tpl_guest_irq_disable[], tpl_guest_irq_disable_end[];
	unsigned int len = tpl_guest_irq_disable_end - tpl_guest_irq_disable, sites = 0;
	const struct paravirt_patch_site *s;
	u8 orig[PATCH_MAX_SITE_LEN];

	if (paravirt_patching_disabled())
		KT_SKIP("booted with nopatch");
	if (strcmp(paravirt_ops.name, "guest"))
		KT_SKIP("the backend is not guest");
	for_each_patch_site(s) {
		if (s->slot != PARAVIRT_SLOT(irq_disable) || paravirt_site_fenced(s))
			continue;
		sites++;
		KT_EXPECT(!memcmp(site_bytes(s), tpl_guest_irq_disable, len));
		KT_EXPECT(!strcmp(paravirt_site_state(s, orig), "inline"));
	}
	KT_EXPECT(sites > 0);
}

static bool site_is_original(const struct paravirt_patch_site *s)
{
	u8 orig[PATCH_MAX_SITE_LEN];
	struct op_template op = paravirt_op_template(s->slot);
	int n = patch_original(paravirt_patch_env(), s, &op, orig);

	return n == s->len && !memcmp(orig, site_bytes(s), n);
}

/* The code writer's own sites (kernel_text_poke) stay indirect calls in
 * every mode: it must never run code it is rewriting. */
KTEST(patch_fenced_sites_stay_indirect)
{
	const struct paravirt_patch_site *s;
	unsigned int fenced = 0, bad = 0;

	for_each_patch_site(s) {
		if (!paravirt_site_fenced(s))
			continue;
		fenced++;
		bad += !site_is_original(s);
	}
	KT_EXPECT(fenced > 0);
	KT_EXPECT_EQ(fenced, paravirt_patch_stats()->fenced);
	KT_EXPECT_EQ(bad, 0);
}

KTEST(patch_sites_hold_template_and_padding)
{
	const struct paravirt_patch_site *s;
	unsigned int bad = 0;

	if (paravirt_patching_disabled())
		KT_SKIP("booted with nopatch");
	if (!backend_is_native())
		KT_SKIP("the backend is not native");
	poisoned_sites = 0;
	for_each_patch_site(s)
		if (!paravirt_site_fenced(s) && !is_one_cpu_draw(s) &&
		    !site_is_template_and_nops(s)) {
			printk("ktest:   site %08x (%s) is not template + padding\n",
			       s->instr, paravirt_op_name(s->slot));
			bad++;
		}
	KT_EXPECT_EQ(bad, 0);
	/* The void C sites may clobber EAX and write nothing: pvdebug
	 * must have poisoned them. */
	KT_EXPECT(paravirt_poisoning() ? poisoned_sites > 0 : poisoned_sites == 0);
}

KTEST(patch_nopatch_leaves_indirect_calls)
{
	const struct paravirt_patch_site *s;
	unsigned int bad = 0;

	if (!paravirt_patching_disabled())
		KT_SKIP("sites are patched");
	for_each_patch_site(s)
		bad += !site_is_original(s);
	KT_EXPECT_EQ(bad, 0);
}

/* The patcher is idempotent: planning again finds nothing to write (and
 * after a nopatch boot, everything). */
KTEST(patch_second_run_changes_nothing)
{
	struct paravirt_patch_stats before = *paravirt_patch_stats();

	KT_EXPECT_EQ(paravirt_patch_pending(),
		     paravirt_patching_disabled() ? before.total : 0);
	KT_EXPECT_EQ(paravirt_patch_stats()->inlined, before.inlined);
	KT_EXPECT_EQ(paravirt_patch_stats()->refused, before.refused);
}

/* The sites the entry macros emit are recorded too. */
KTEST(patch_entry_sites_recorded)
{
	const struct paravirt_patch_site *s;
	bool iret = false, sysexit = false;

	for_each_patch_site(s) {
		iret |= s->slot == PARAVIRT_SLOT(iret) && s->clobbers == CLBR_ANY;
		sysexit |= s->slot == PARAVIRT_SLOT(irq_enable_sysexit);
	}
	KT_EXPECT(iret);
	KT_EXPECT(sysexit);
}

/* Every op with a template is called somewhere, and every such call is a
 * site (tools/audit-sites checks the binary for calls outside sites; it
 * can only see an op as hot if at least one site records it). */
KTEST(patch_every_patchable_op_has_sites)
{
	const struct paravirt_patch_site *s;
	unsigned int slot, missing = 0;

	for (slot = 0; slot < PARAVIRT_NR_SLOTS; slot++) {
		unsigned int sites = 0;

		if (!paravirt_op_template(slot).tpl)
			continue;
		for_each_patch_site(s)
			sites += s->slot == slot;
		if (!sites) {
			printk("ktest:   no site for %s\n", paravirt_op_name(slot));
			missing++;
		}
	}
	KT_EXPECT_EQ(missing, 0);
}

/* ---- the engine on sites built in memory, then run ---- */

/* A call site of `slot` saving ECX and EDX, followed by a ret: callable. */
static u8 site_buffer[PATCH_MAX_SITE_LEN + 1] __attribute__((aligned(16)));

static struct paravirt_patch_site make_call_site(unsigned int slot)
{
	struct paravirt_patch_site s = {
		.instr = (u32)site_buffer, .slot = slot, .len = 10,
		.clobbers = CLBR_EAX,
	};
	struct op_template op = paravirt_op_template(slot);

	patch_original(paravirt_patch_env(), &s, &op, site_buffer);
	site_buffer[s.len] = 0xc3;		/* ret */
	return s;
}

static enum patch_result patch_buffer(struct paravirt_patch_site *s,
				      enum patch_kind kind, void *target)
{
	struct op_template op = paravirt_op_template(s->slot);
	u8 out[PATCH_MAX_SITE_LEN];
	enum patch_result r = patch_compute_site(paravirt_patch_env(), s, &op, kind,
						 (u32)target, site_buffer, out);

	memcpy(site_buffer, out, s->len);
	sync_core();
	return r;
}

/* The system flags of EFLAGS; the arithmetic ones change all the time.
 * In a test they are bit 1 (always one) and IF, when interrupts are on. */
#define SYSTEM_FLAGS(f)	((f) & ~0x8d5ul)
#define FLAGS_IRQS_OFF	0x00000002ul
#define FLAGS_IRQS_ON	0x00000202ul

/* What run() returns as EFLAGS, with interrupts off and then on. */
static bool runs_as_save_fl(unsigned long (*run)(void))
{
	unsigned long flags = raw_local_irq_save(), off, on;

	off = SYSTEM_FLAGS(run());
	raw_local_irq_enable();
	on = SYSTEM_FLAGS(run());
	raw_local_irq_restore(flags);
	if (off == FLAGS_IRQS_OFF && on == FLAGS_IRQS_ON)
		return true;
	printk("ktest:   site gave %08lx and %08lx\n", off, on);
	return false;
}

static unsigned long fake_save_fl(void)
{
	return 0x5a5a0202;
}

KTEST(patch_direct_call_reaches_target)
{
	struct paravirt_patch_site s = make_call_site(PARAVIRT_SLOT(save_fl));
	unsigned long (*run)(void) = (void *)site_buffer;

	/* Unpatched: the indirect call to native_save_fl. */
	KT_EXPECT(runs_as_save_fl(run));
	KT_EXPECT_EQ(patch_buffer(&s, PATCH_DIRECT, fake_save_fl), PATCH_NEEDS_WRITE);
	KT_EXPECT_EQ(site_buffer[2], 0xe8);		/* after the two pushes */
	KT_EXPECT_EQ(run(), 0x5a5a0202);
}

KTEST(patch_inline_site_runs)
{
	struct paravirt_patch_site s = make_call_site(PARAVIRT_SLOT(save_fl));
	unsigned long (*run)(void) = (void *)site_buffer;

	KT_NOT_IN_GUEST("native's pushf shows the real IF, always on at ring 1");
	KT_EXPECT_EQ(patch_buffer(&s, PATCH_INLINE, NULL), PATCH_NEEDS_WRITE);
	KT_EXPECT_EQ(site_buffer[0], 0x9c);		/* pushf */
	KT_EXPECT(runs_as_save_fl(run));
}

KTEST(patch_refuses_changed_bytes)
{
	struct paravirt_patch_site s = make_call_site(PARAVIRT_SLOT(irq_disable));

	site_buffer[4] ^= 0x40;			/* the table address, mangled */
	KT_EXPECT_EQ(patch_buffer(&s, PATCH_INLINE, NULL), PATCH_REFUSED_BYTES);
	KT_EXPECT_EQ(site_buffer[0], 0x51);	/* push %ecx, untouched */
}
/* ---- a sized site with a prologue, built in memory, then run ---- */

/* load_tls's site as the build emits it: t in EBX, moved to EAX by the
 * call's prologue, the call padded to the template's 53 bytes. */
static struct paravirt_patch_site make_tls_site(void)
{
	struct paravirt_patch_site s = {
		.instr = (u32)site_buffer, .slot = PARAVIRT_SLOT(load_tls),
		.len = PATCH_SITE_LEN_load_tls, .clobbers = CLBR_ANY,
	};
	struct op_template op = paravirt_op_template(s.slot);

	if (patch_original(paravirt_patch_env(), &s, &op, site_buffer) != s.len)
		s.len = 0;			/* no site to run: the test says so */
	site_buffer[PATCH_SITE_LEN_load_tls] = 0xc3;	/* ret */
	return s;
}

static void run_tls_site(const struct thread_struct *t)
{
	unsigned long cpu = 0;

	asm volatile("call *%[site]" : "+d" (cpu)
		     : [site] "r" (site_buffer), "b" (t) : "eax", "ecx", "memory", "cc");
}

static const struct thread_struct *fake_tls_thread;
static unsigned int fake_tls_cpu = ~0u;

static void fake_load_tls(const struct thread_struct *t, unsigned int cpu)
{
	fake_tls_thread = t;
	fake_tls_cpu = cpu;
}

/* Run the site for a thread of made-up descriptors: the GDT's TLS
 * slots must hold them after; the slots are put back. */
static bool tls_site_fills_gdt(void)
{
	struct thread_struct t = { .esp0 = 0 };
	u64 saved[GDT_ENTRY_TLS_ENTRIES];
	unsigned long flags = raw_local_irq_save();
	bool ok;
	int i;

	for (i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		t.tls_array[i] = 0x00cff2000000ffffull + ((u64)(i + 1) << 16);
	memcpy(saved, &gdt_table[GDT_ENTRY_TLS_MIN], sizeof(saved));
	run_tls_site(&t);
	ok = !memcmp(&gdt_table[GDT_ENTRY_TLS_MIN], t.tls_array, sizeof(saved));
	/* Through the op, as the site wrote them: in a guest the host holds
	 * the GDT the CPU uses, and must get the old entries back too. */
	for (i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		write_gdt_entry(gdt_table, GDT_ENTRY_TLS_MIN + i, saved[i]);
	raw_local_irq_restore(flags);
	return ok;
}

/* As built (the call through the table), inlined (the template reads
 * EBX), and as a direct call (the prologue hands t over in EAX). */
KTEST(patch_sized_site_runs)
{
	struct paravirt_patch_site s = make_tls_site();
	struct thread_struct t = { .esp0 = 0 };

	KT_EXPECT_EQ(s.len, PATCH_SITE_LEN_load_tls);
	if (!s.len)
		return;
	KT_EXPECT_EQ(site_buffer[0], 0x89);		/* mov %ebx,%eax */
	KT_EXPECT(tls_site_fills_gdt());
	KT_EXPECT_EQ(patch_buffer(&s, PATCH_INLINE, NULL), PATCH_NEEDS_WRITE);
	KT_EXPECT_EQ(site_buffer[0], 0x8b);		/* mov (%ebx),%edx */
	KT_EXPECT(tls_site_fills_gdt());
	s = make_tls_site();
	KT_EXPECT_EQ(patch_buffer(&s, PATCH_DIRECT, fake_load_tls), PATCH_NEEDS_WRITE);
	run_tls_site(&t);
	KT_EXPECT(fake_tls_thread == &t);
	KT_EXPECT_EQ(fake_tls_cpu, 0);
}
#endif
