/*
 * patch.c - the boot-time patcher: rewrites each recorded paravirt_ops
 * call site (asm/patch.h) into what the running backend makes best.
 *
 * For each site, by what its op in paravirt_ops points at:
 *   the native function, with a template  -> the native instructions inline
 *   another backend's, with a template    -> its instructions inline
 *     (paravirt_inline(): the guest's irq_disable)
 *   paravirt_nop                          -> NOPs only
 *   another function                      -> call (or jmp) rel32 straight to it
 *   NULL                                  -> a call to a stub that panics
 * A site whose bytes are not what the build recorded is left alone and
 * counted as refused.  The bytes come from the engine (paravirt/patch/engine.c);
 * this file decides, writes, and reports.
 *
 * It runs once, early in kmain, with interrupts off: after the backend is
 * chosen and before the rest of the kernel runs any site.  (A site that
 * runs earlier - _start's EFLAGS reset, the return from the #UD of the
 * long-NOP probe - runs as the indirect call the build emitted, which is
 * correct too.  What must never happen is a site running, or being
 * entered by an interrupt, while it is rewritten.)  A live switch of
 * backend (`pv use`) rewrites the sites again, from the same recorded
 * bytes, under the same rule (paravirt_patch_switch).  Boot options:
 * nopatch (leave every site an indirect call), patchlog (print each site)
 * and pvdebug (spoil the registers a site says it clobbers).
 */
#include <kernel.h>
#include <cmdline.h>
#include <ksyms.h>
#include <string.h>
#include <asm/cpu.h>
#include <asm/paravirt.h>
#include <asm/paging.h>
#include <asm/patch.h>
#include <asm/privileged.h>

extern const char __patch_text_start[], __patch_text_end[];

void paravirt_empty_op_entry(void);

/* ---- what each patchable op becomes natively ---- */

/* Where templates.S put an op's template: its bytes' length is only
 * known at link time, so the table holds both ends. */
struct template_extent {
	const u8 *start, *end;	/* from paravirt/patch/templates.S */
	u8 writes;		/* registers holding the op's result */
	bool jump;		/* iret and sysexit are jumped to */
};

/* Indexed by slot; ops without a template stay empty (start == NULL). */
#define TEMPLATE(op, writes, jump) \
	[PARAVIRT_SLOT(op)] = { tpl_##op, tpl_##op##_end, writes, jump },

static const struct template_extent templates[PARAVIRT_NR_SLOTS] = {
	PATCH_TEMPLATES(TEMPLATE)
};

/* The call forms' prologues, by slot (paravirt/patch/templates.S). */
struct op_prologue {
	const u8 *start, *end;
};

#define PROLOGUE(op)	[PARAVIRT_SLOT(op)] = { pro_##op, pro_##op##_end },

static const struct op_prologue prologues[PARAVIRT_NR_SLOTS] = {
	PATCH_PROLOGUES(PROLOGUE)
};

/* Op `slot`'s template as the engine takes it (tpl NULL if it has none). */
struct op_template paravirt_op_template(unsigned int slot)
{
	const struct template_extent *t = &templates[slot];
	const struct op_prologue *p = &prologues[slot];
	struct op_template op = { paravirt_op_name(slot), t->start, t->end - t->start,
				  t->writes, t->jump, p->start, p->end - p->start };

	return op;
}

static void *slot_function(const struct paravirt_ops *ops, unsigned int slot)
{
	return ((void *const *)ops)[slot];
}

/* ---- options and state ---- */

static bool nopatch, patchlog, pvdebug;
static struct patch_env env;
static struct paravirt_patch_stats stats;

static int set_nopatch(const char *v)  { (void)v; nopatch = true; return 0; }
static int set_patchlog(const char *v) { (void)v; patchlog = true; return 0; }
static int set_pvdebug(const char *v)  { (void)v; pvdebug = true; return 0; }
early_boot_option("nopatch", set_nopatch, "leave paravirt call sites unpatched");
early_boot_option("patchlog", set_patchlog, "print every paravirt call site");
early_boot_option("pvdebug", set_pvdebug, "poison registers sites may clobber");

/* ---- writing ---- */

/*
 * Code is written by kernel_text_poke() (arch/x86/mm/paging.c), the only
 * routine that writes kernel code.  It lives in a section of its own,
 * the fence: the sites it runs are never rewritten (patch_pass() leaves
 * them indirect and counts them as fenced), so it can never be rewriting
 * code it is running.  It serializes with sync_core after each write,
 * which makes even a 486 drop instructions it had already fetched (QEMU
 * and Bochs notice code changes by themselves: no emulator test can show
 * a missing serialization, so it stays there on the manual's word).
 */
bool paravirt_site_fenced(const struct paravirt_patch_site *site)
{
	return site->instr + site->len > (u32)__patch_text_start &&
	       site->instr < (u32)__patch_text_end;
}

/* The template another backend gave fn (paravirt_inline()), or NULL;
 * NULL too if a boot option withdrew it (the guest's noinlineflags). */
static const struct paravirt_inline *backend_inline(const void *fn)
{
	const struct paravirt_inline *in;

	for (in = __start_pv_inlines; in < __stop_pv_inlines; in++)
		if (in->fn == fn)
			return in->off && *in->off ? NULL : in;
	return NULL;
}

/* What a site of op `slot` becomes when the op is fn; *target is the
 * function to call. */
static enum patch_kind choose_kind(unsigned int slot, void *fn, u32 *target)
{
	*target = (u32)fn;
	if (!fn) {
		*target = (u32)paravirt_empty_op_entry;
		return PATCH_EMPTY;
	}
	if (fn == slot_function(&native_paravirt_ops, slot) && templates[slot].start)
		return PATCH_INLINE;
	if (backend_inline(fn))
		return PATCH_INLINE;
	if (fn == (void *)paravirt_nop)
		return PATCH_NOPS;
	return PATCH_DIRECT;
}

/* Op `slot`'s template when fn fills the slot: a backend's own bytes
 * for its inline function, else native's. */
static struct op_template template_for(unsigned int slot, void *fn, enum patch_kind kind)
{
	struct op_template op = paravirt_op_template(slot);
	const struct paravirt_inline *in = kind == PATCH_INLINE ? backend_inline(fn) : NULL;

	if (in) {
		op.tpl = in->start;
		op.tpl_len = in->end - in->start;
		op.writes = in->writes;
	}
	return op;
}

/* A backend's own template may be longer than a site that was sized
 * for native's (an entry-code site the guest's restore_fl does not fit
 * in), or write a register the site keeps. */
static bool backend_template_misfits(const struct paravirt_patch_site *site, void *fn)
{
	const struct paravirt_inline *in = backend_inline(fn);

	return in && ((u32)(in->end - in->start) > site->len || (in->writes & ~site->clobbers));
}

/* What this site becomes when the op is fn: choose_kind's answer, but a
 * direct call where a backend's template misfits. */
static enum patch_kind site_kind(const struct paravirt_patch_site *site, void *fn, u32 *target)
{
	enum patch_kind kind = choose_kind(site->slot, fn, target);

	return kind == PATCH_INLINE && backend_template_misfits(site, fn) ? PATCH_DIRECT : kind;
}

static enum patch_result plan_site(const struct paravirt_patch_site *site,
				   enum patch_kind *kind, u8 *out)
{
	struct op_template op;
	void *fn;
	u32 target;

	if (site->slot >= PARAVIRT_NR_SLOTS)
		return PATCH_REFUSED_RECORD;
	fn = paravirt_installed_op(site->slot);
	*kind = site_kind(site, fn, &target);
	op = template_for(site->slot, fn, *kind);
	return patch_compute_site(&env, site, &op, *kind, target,
				  (const u8 *)site->instr, out);
}

static bool refused(enum patch_result result)
{
	return result == PATCH_REFUSED_BYTES || result == PATCH_REFUSED_FIT ||
	       result == PATCH_REFUSED_RECORD;
}

/* Counts what each site is (patched) or would be (nopatch). */
static void count(struct paravirt_patch_stats *counts, enum patch_result result,
		  enum patch_kind kind)
{
	if (refused(result)) {
		counts->refused++;
		return;
	}
	switch (kind) {
	case PATCH_INLINE: counts->inlined++; break;
	case PATCH_DIRECT: counts->direct++; break;
	case PATCH_NOPS:   counts->nops++; break;
	case PATCH_EMPTY:  counts->empty++; break;
	}
}

/*
 * Plan every site, counting into *counts what each becomes, and, if
 * `write`, rewrite those that need it.  Returns how many sites needed a
 * write.  Writing happens only from
 * paravirt_patch_init(), once, before interrupts are ever enabled: then
 * no site can be running, or be entered by an interrupt, mid-rewrite.
 * (Switches rewrite through paravirt_patch_switch() instead.)
 */
static unsigned int patch_pass(bool write, struct paravirt_patch_stats *counts)
{
	const struct paravirt_patch_site *site;
	unsigned int needed = 0;

	*counts = (struct paravirt_patch_stats){ 0 };
	for_each_patch_site(site) {
		u8 out[PATCH_MAX_SITE_LEN];
		enum patch_kind kind = PATCH_INLINE;
		enum patch_result result;

		if (paravirt_site_fenced(site)) {
			counts->fenced++;
			continue;
		}
		counts->total++;
		result = plan_site(site, &kind, out);
		count(counts, result, kind);
		if (result != PATCH_NEEDS_WRITE)
			continue;
		needed++;
		if (write)
			kernel_text_poke((u8 *)site->instr, out, site->len);
	}
	return needed;
}

/* How many sites a patch run would write now: 0 after a patched boot
 * (the patcher is idempotent), all of them after a nopatch one. */
unsigned int paravirt_patch_pending(void)
{
	struct paravirt_patch_stats scratch;

	return patch_pass(false, &scratch);
}

/* The report's counts, made again for the table now installed: a live
 * switch changes what the sites are. */
void paravirt_patch_recount(void)
{
	patch_pass(false, &stats);
}

void paravirt_patch_init(void)
{
	bool p6 = cpu_has_long_nops();

	env.table = (u32)&paravirt_ops;
	env.nops = p6 ? p6_nops : generic_nops;
	env.max_nop = p6 ? P6_MAX_NOP : GENERIC_MAX_NOP;
	env.poison = pvdebug;
	patch_pass(!nopatch, &stats);
}

/* ---- switching backends at run time (paravirt/switch.c) ---- */

static bool valid_length(const struct paravirt_patch_site *site)
{
	return site->len > 0 && site->len <= PATCH_MAX_SITE_LEN &&
	       site->slot < PARAVIRT_NR_SLOTS;
}

/* The bytes the build put at a valid site; their number (site->len if
 * the record is the op's). */
static int original_bytes(const struct paravirt_patch_site *site, u8 *out)
{
	struct op_template op = paravirt_op_template(site->slot);

	return patch_original(&env, site, &op, out);
}

/* The bytes the site holds once patched for op function fn, computed
 * from its original bytes; false if it cannot say. */
static bool bytes_for(const struct paravirt_patch_site *site, void *fn,
		      const u8 *orig, u8 *out)
{
	u32 target;
	enum patch_kind kind = site_kind(site, fn, &target);
	struct op_template op = template_for(site->slot, fn, kind);
	enum patch_result result = patch_compute_site(&env, site, &op, kind,
						      target, orig, out);

	/* Too long a replacement: out holds orig, an indirect call, which
	 * is right for any table. */
	return !refused(result) || result == PATCH_REFUSED_FIT;
}

/*
 * Rewrite one site from what the running table made it to what `to`
 * makes it.  Both are computed from the bytes the build recorded, so
 * inline and direct call go both ways; a site holding anything else (one
 * the boot refused) is left alone, as the boot left it.
 */
static void switch_site(const struct paravirt_patch_site *site,
			const struct paravirt_ops *to)
{
	u8 orig[PATCH_MAX_SITE_LEN], now[PATCH_MAX_SITE_LEN], next[PATCH_MAX_SITE_LEN];
	const u8 *cur = (const u8 *)site->instr;

	if (!valid_length(site) || original_bytes(site, orig) != site->len)
		return;
	if (!bytes_for(site, paravirt_installed_op(site->slot), orig, now) ||
	    (memcmp(cur, now, site->len) && memcmp(cur, orig, site->len)))
		return;
	if (!bytes_for(site, slot_function(to, site->slot), orig, next))
		return;
	if (memcmp(cur, next, site->len))
		kernel_text_poke((u8 *)site->instr, next, site->len);
}

/*
 * Every site but the fenced ones, rewritten for the table `to`, before
 * it is installed.  The caller has interrupts off, and no task is
 * stopped inside a site (the kernel switches tasks only in schedule(),
 * called from C, and never from an op), so nothing runs a site, or
 * returns into one, while it changes.  Under nopatch the sites stay the
 * indirect calls they are.
 */
void paravirt_patch_switch(const struct paravirt_ops *to)
{
	const struct paravirt_patch_site *site;

	if (nopatch)
		return;
	kernel_text_batch_begin();
	for_each_patch_site(site)
		if (!paravirt_site_fenced(site))
			switch_site(site, to);
	kernel_text_batch_end();
}

/* ---- what the padding costs (make bench) ---- */

/* The padding instructions site runs each time it is passed once
 * patched for op function fn (0 or 1; a fenced site as built). */
unsigned int paravirt_site_padding(const struct paravirt_patch_site *site, void *fn)
{
	enum patch_kind kind;
	struct op_template op;
	u32 target;

	if (!valid_length(site))
		return 0;
	kind = choose_kind(site->slot, fn, &target);
	op = template_for(site->slot, fn, kind);
	return patch_padding_runs(&env, site, &op, kind, target, paravirt_site_fenced(site));
}

/* ---- reporting ---- */

static const char *const kind_names[] = {	/* by enum patch_kind */
	[PATCH_INLINE] = "inline", [PATCH_NOPS] = "nops",
	[PATCH_DIRECT] = "direct", [PATCH_EMPTY] = "empty",
};

const struct paravirt_patch_stats *paravirt_patch_stats(void)
{
	return &stats;
}

const struct patch_env *paravirt_patch_env(void)
{
	return &env;
}

bool paravirt_patching_disabled(void)	{ return nopatch; }
bool paravirt_poisoning(void)		{ return pvdebug; }

static void print_bytes(const u8 *p, unsigned int len)
{
	while (len--)
		printk(" %02x", *p++);
}

/* One patchlog line.  Planning the site again tells what it was: the
 * engine finds the replacement already there for a patched site. */
static void log_site(const struct paravirt_patch_site *site)
{
	u8 before[PATCH_MAX_SITE_LEN], after[PATCH_MAX_SITE_LEN];
	enum patch_kind kind = PATCH_INLINE;
	enum patch_result result = plan_site(site, &kind, after);
	const char *fn;
	u32 offset = 0;

	if (result == PATCH_ALREADY_DONE)
		original_bytes(site, before);
	else
		memcpy(before, (const u8 *)site->instr, site->len);
	fn = ksym_lookup(site->instr, &offset);
	printk("patch: %08x %-19s %s+0x%x:", site->instr,
	       paravirt_op_name(site->slot), fn ? fn : "?", offset);
	print_bytes(before, site->len);
	printk(" ->");
	print_bytes((const u8 *)site->instr, site->len);
	printk(" (%s)\n", paravirt_site_fenced(site) ? "fenced" :
	       result == PATCH_ALREADY_DONE ? kind_names[kind] :
	       result == PATCH_NEEDS_WRITE ? "unpatched" : "refused");
}

/*
 * What a site is now - "inline", "direct", "nops", "empty", "indirect",
 * "fenced" or "refused" - for `sites`; orig receives the bytes the build
 * put there (site->len of them, at most PATCH_MAX_SITE_LEN).
 */
const char *paravirt_site_state(const struct paravirt_patch_site *site, u8 *orig)
{
	u8 out[PATCH_MAX_SITE_LEN];
	enum patch_kind kind = PATCH_INLINE;
	enum patch_result result;

	if (!valid_length(site))
		return "refused";	/* orig is left as it was */
	if (original_bytes(site, orig) != site->len)
		return "refused";
	if (!memcmp(orig, (const u8 *)site->instr, site->len))
		return paravirt_site_fenced(site) ? "fenced" : "indirect";
	result = plan_site(site, &kind, out);
	return result == PATCH_ALREADY_DONE ? kind_names[kind] : "refused";
}

void paravirt_patch_report(void)
{
	const struct paravirt_patch_site *site;

	if (patchlog)
		for_each_patch_site(site)
			log_site(site);
	if (nopatch) {
		printk("paravirt: nopatch: %u sites left as indirect calls\n", stats.total);
		return;
	}
	/* N counts every site that now holds its replacement: inline and
	 * direct ones, and the rare NOP-only and empty-op ones of the line
	 * below; I + D + R = M when those are zero. */
	printk("paravirt: patched %u/%u sites (%u inline, %u direct, %u refused)\n",
	       stats.total - stats.refused, stats.total, stats.inlined,
	       stats.direct, stats.refused);
	if (stats.fenced)
		printk("paravirt: %u sites in the code writer stay indirect (fenced)\n",
		       stats.fenced);
	if (stats.nops || stats.empty)
		printk("paravirt: %u sites became NOPs, %u call the empty-op stub\n",
		       stats.nops, stats.empty);
	printk("paravirt: %s NOPs%s\n", env.nops == p6_nops ? "P6 (0f 1f)" : "generic",
	       pvdebug ? ", clobbered registers poisoned (pvdebug)" : "");
}
