/*
 * pv.c - the shell's view of paravirt_ops: `pvops` (the
 * table), `sites` (the patch sites) and `pv` (which backend, and
 * switching it live, once or N times in a row).
 *
 * Everything is read through the interfaces of asm/paravirt.h: the
 * table, the patcher's record of each site, and the trace backend's
 * counts, shown while trace runs (`pv use trace`).  Functions and call
 * sites are named by the kernel's symbol table (ksyms.c); code of the
 * ops ROM, which has no symbols in the kernel's, as rom+offset, the
 * offset a disassembly of build/pvrom.bin shows.
 */
#include <kernel.h>
#include <ksyms.h>
#include <shell.h>
#include <string.h>
#ifdef CONFIG_PARAVIRT
#include <task.h>
#include <asm/paravirt.h>
#include <asm/percpu.h>
#include <asm/smp.h>
#include <asm/rom.h>
#include <asm/smp.h>
#include <asm/stop_cpus.h>
#include <asm/timer.h>

static bool tracing(void)
{
	return !strcmp(paravirt_ops.name, "trace");
}

/* " name+0xN", " rom+0xN" in the installed ops ROM (the bare address
 * when neither holds it), padded to width columns. */
static void print_symbol(u32 addr, unsigned int width)
{
	char text[48];
	u32 offset;
	const char *name = ksym_lookup(addr, &offset);
	const struct rom_header *rom = paravirt_rom_header();
	unsigned int n;

	if (rom && paravirt_rom_contains(addr))
		n = snprintf(text, sizeof(text), "rom+0x%x", addr - (u32)rom);
	else if (name)
		n = snprintf(text, sizeof(text), "%s+0x%x", name, offset);
	else
		n = snprintf(text, sizeof(text), "%08x", addr);
	printk(" %s", text);
	for (; n < width; n++)
		printk(" ");
}

/* 16 bytes a line: a site sized to a long template (load_tls) goes on
 * under the first line's bytes. */
#define BYTES_PER_LINE	16

static void print_bytes(const u8 *p, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		printk("%s %02x", i && i % BYTES_PER_LINE == 0 ? "\n          " : "", p[i]);
}

/* ---- pvops ---- */

/* With more than one CPU, each CPU's share of an op's calls, on a line
 * of its own under the op's (whose last number stays the total). */
static void print_cpu_calls(unsigned int slot)
{
	unsigned int cpu;

	if (num_online_cpus() < 2)
		return;
	printk("\n     per CPU:");
	for_each_online_cpu(cpu)
		printk(" cpu%u %u", cpu, paravirt_trace_cpu_calls(cpu, slot));
}

static int cmd_pvops(int argc, char **argv)
{
	unsigned int slot;

	(void)argv;
	if (argc > 1) {
		printk("usage: pvops\n");
		return -EINVAL;
	}
	printk("pvops: backend %s, %u ops%s\n", paravirt_ops.name, PARAVIRT_NR_OPS,
	       tracing() ? "; calls counted by trace" : "");
	printk("slot op                  function%s\n", tracing() ?
	       "                            wraps                          calls" : "");
	for (slot = PARAVIRT_FIRST_OP_SLOT; slot < PARAVIRT_NR_SLOTS; slot++) {
		printk("%4u %-19s", slot, paravirt_op_name(slot));
		print_symbol((u32)paravirt_installed_op(slot), tracing() ? 31 : 0);
		if (tracing()) {	/* the stub, the native function, the count */
			printk(" ->");
			print_symbol((u32)paravirt_trace_wrapped(slot), 30);
			printk(" %u", paravirt_trace_calls(slot));
			print_cpu_calls(slot);
		}
		printk("\n");
	}
	if (!tracing())
		printk("pvops: call counts only under the trace backend: pv use trace\n");
	return 0;
}
shell_command("pvops", cmd_pvops, "", "every op: slot, function, calls (under trace)");

/* ---- sites ---- */

/* The slot of the op named name, or 0 (no op has slot 0). */
static unsigned int op_by_name(const char *name)
{
	unsigned int slot;

	for (slot = PARAVIRT_FIRST_OP_SLOT; slot < PARAVIRT_NR_SLOTS; slot++)
		if (!strcmp(paravirt_op_name(slot), name))
			return slot;
	return 0;
}

static void print_site(const struct paravirt_patch_site *site)
{
	u8 orig[PATCH_MAX_SITE_LEN] = { 0 };	/* a bad record fills none */
	const char *state = paravirt_site_state(site, orig);
	unsigned int len = min(site->len, (u8)PATCH_MAX_SITE_LEN);

	printk("%08x %-19s", site->instr, paravirt_op_name(site->slot));
	print_symbol(site->instr, 30);
	printk(" %-8s", state);
	if (tracing() && paravirt_op_template(site->slot).jump)
		printk(" calls -");	/* jumped to: counted per op only */
	else if (tracing())
		printk(" calls %u", paravirt_trace_site_calls(site));
	printk("\n    now:  ");
	print_bytes((const u8 *)site->instr, len);
	printk("\n    built:");
	print_bytes(orig, len);
	printk("\n");
}

static int cmd_sites(int argc, char **argv)
{
	const struct paravirt_patch_site *site;
	unsigned int slot = 0, shown = 0;

	if (argc > 2) {
		printk("usage: sites [OP]\n");
		return -EINVAL;
	}
	if (argc == 2 && !(slot = op_by_name(argv[1]))) {
		printk("sites: no op named '%s' (pvops lists them)\n", argv[1]);
		return -EINVAL;
	}
	for_each_patch_site(site)
		if (!slot || site->slot == slot) {
			print_site(site);
			shown++;
		}
	printk("sites: %u shown of %u, backend %s%s\n", shown,
	       (unsigned int)(__stop_parainstructions - __start_parainstructions),
	       paravirt_ops.name, paravirt_patching_disabled() ? " (nopatch)" : "");
	return 0;
}
shell_command("sites", cmd_sites, "[OP]",
	      "patch sites: address, op, caller, bytes, calls");

/* ---- pv ---- */

static void list_backends(void)
{
	const struct paravirt_backend *b;

	for_each_paravirt_backend(b)
		printk("  %c %-8s %s\n", strcmp(b->name, paravirt_ops.name) ? ' ' : '*',
		       b->name, b->about);
}

static int pv_use(const char *name)
{
	const char *from = paravirt_ops.name, *why;
	int err = paravirt_switch_backend(name, &why);
	const struct paravirt_patch_stats *st = paravirt_patch_stats();

	if (err == -ENOENT) {
		printk("pv: no backend named '%s'; there are:\n", name);
		list_backends();
		return err;
	}
	if (err) {
		printk("pv: backend %s refused (%s): staying %s\n", name, why, from);
		return err;
	}
	printk("pv: switched from %s to %s: %u inline, %u direct, %u fenced%s\n",
	       from, paravirt_ops.name, st->inlined, st->direct, st->fenced,
	       paravirt_patching_disabled() ? " (nopatch: sites stay indirect)" : "");
	return 0;
}

/* ---- pv cycle ---- */

/*
 * `pv cycle N`: N live switches in a row, native -> trace -> rom ->
 * native ..., for the hammer test (hammer.c, tests/suite/hammer.py): the
 * other CPUs run hot sites meanwhile, and the summary gives the counts
 * that show each switch held them all: the stops, the CPUs that stopped
 * (each counts itself, stop_cpus.c), and the stops that timed out.
 * A refusal other than "busy" (no ROM module: rom refuses) ends it.
 */
static const char *const cycle_order[] = { "native", "trace", "rom" };
#define CYCLE_SWITCHES_PER_YIELD	4	/* then this CPU's other tasks run */

/* The fewest user tasks alive at any switch so far (the hammers must
 * have lived through the whole storm). */
static unsigned int cycle_users, cycle_fewest_users;

static void count_user(struct task *t)
{
	if (t->user && t->state != TASK_ZOMBIE)
		cycle_users++;
}

static void note_user_tasks(void)
{
	cycle_users = 0;
	task_for_each(count_user);
	cycle_fewest_users = min(cycle_fewest_users, cycle_users);
}

/* The next backend of the cycle after the one running, or NULL if that
 * one is not in the cycle (a guest's). */
static const char *cycle_next(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cycle_order); i++)
		if (!strcmp(paravirt_ops.name, cycle_order[i]))
			return cycle_order[(i + 1) % ARRAY_SIZE(cycle_order)];
	return NULL;
}

static int pv_cycle(const char *count)
{
	struct stop_cpus_stats before = stop_cpus_stats;
	unsigned long start = timer_ticks(), done = 0, busy = 0, i;
	const char *next, *why;
	u64 n;
	int err = 0;

	if (shell_parse_number("pv cycle", count, &n))
		return -EINVAL;
	cycle_fewest_users = ~0u;
	for (i = 0; i < n && !err; i++) {
		if (!(next = cycle_next())) {
			printk("pv cycle: backend %s is not in the cycle\n", paravirt_ops.name);
			return -EINVAL;
		}
		note_user_tasks();
		err = paravirt_switch_backend(next, &why);
		if (err == -EBUSY) {	/* a CPU did not stop in time: counted */
			printk("pv cycle: switch %lu to %s: %s\n", i, next, why);
			busy++;
			err = 0;
		} else if (err) {
			printk("pv cycle: switch %lu: backend %s refused (%s)\n", i, next, why);
		} else {
			done++;
		}
		if (i % CYCLE_SWITCHES_PER_YIELD == CYCLE_SWITCHES_PER_YIELD - 1)
			sched_yield();
	}
	printk("pv cycle: %lu switches of %llu in %lu ticks, %lu busy, now %s\n", done, n,
	       timer_ticks() - start, busy, paravirt_ops.name);
	printk("pv cycle: %lu stops, %lu CPUs stopped (%u other CPUs online), %lu timed out; "
	       "at least %u user tasks alive at each switch\n",
	       stop_cpus_stats.stops - before.stops,
	       stop_cpus_stats.cpus_stopped - before.cpus_stopped, num_online_cpus() - 1,
	       stop_cpus_stats.timeouts - before.timeouts,
	       n ? cycle_fewest_users : 0);
	return err;
}

static int cmd_pv(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "use"))
		return pv_use(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "cycle"))
		return pv_cycle(argv[2]);
	if (argc != 1) {
		printk("usage: pv [use NAME] | pv cycle N\n");
		return -EINVAL;
	}
	printk("pv: backend %s (%lu live switches); backends:\n", paravirt_ops.name,
	       paravirt_switch_count());
	list_backends();
	return 0;
}
shell_command("pv", cmd_pv, "[use NAME|cycle N]", "the backend; switch it live (N times)");

#else /* !CONFIG_PARAVIRT */

/* No table to show or switch: every op is compiled inline. */
static int no_table(const char *command)
{
	printk("%s: this kernel is built with PARAVIRT=n: no table, every op inline\n",
	       command);
	return -ENOSYS;
}

static int cmd_pvops(int argc, char **argv)	{ (void)argc; return no_table(argv[0]); }
static int cmd_sites(int argc, char **argv)	{ (void)argc; return no_table(argv[0]); }
static int cmd_pv(int argc, char **argv)	{ (void)argc; return no_table(argv[0]); }
shell_command("pvops", cmd_pvops, "", "every op of paravirt_ops (none: PARAVIRT=n)");
shell_command("sites", cmd_sites, "[OP]", "the patch sites (none: PARAVIRT=n)");
shell_command("pv", cmd_pv, "[use NAME]", "the paravirt backend (none: PARAVIRT=n)");
#endif
