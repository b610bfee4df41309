/*
 * bench.c - counts the instructions each hot paravirt op costs, and a
 * small kernel workload, when booted with the `bench` option; then runs
 * the user programs that time whole paths from ring 3 (bench_paths).
 *
 * Under `qemu-system-i386 -icount shift=0` the time-stamp counter
 * advances by exactly one per executed instruction, so a TSC difference
 * is an instruction count, the same on every run.  Each op runs
 * BENCH_LOOPS times in a loop of its own; the same loop with an empty
 * body is measured too and subtracted, which leaves the op's own cost.
 * tools/bench boots the three kernels (inline, indirect, patched) and
 * tabulates the "bench:" lines printed here.
 *
 * restore_fl, write_cr3 and write_cr0 take their argument in EAX.  They
 * are measured in the pairs the kernel uses them in, minus the other
 * half: irq_restore(irq_save()), write_cr3(read_cr3()) and
 * write_cr0(read_cr0()), where the value is
 * already in EAX.  That is the best case, and the per-op table shows only
 * it: a patched site also fixes its registers (EAX in, EAX out), so where
 * the compiler had the value elsewhere it adds a mov that the inline
 * kernel does not need.  The workloads include those movs.
 *
 * The paths (a system call by int $0x80 and by sysenter, a context
 * switch, a page fault, a user workload, a program spawned and waited
 * for) can only be timed from ring 3: user/bench_*.c do that with rdtsc
 * and print their own "bench: path" lines, in the format of the lines
 * printed here.  Under the trace backend the same run also counts the
 * padding the patched native kernel would have run in each figure
 * ("bench: padding" lines, bench_padding() below).
 */
#include <kernel.h>
#include <bench.h>
#include <bench_smp.h>
#include <cmdline.h>
#include <math64.h>
#include <spinlock.h>
#include <string.h>
#include <task.h>
#include <asm/bench.h>
#include <asm/cpu.h>
#include <asm/host.h>
#include <asm/hypercall.h>
#include <asm/irq.h>
#include <asm/machine.h>
#include <asm/platform.h>
#include <asm/privileged.h>
#include <asm/traps.h>

#define BENCH_LOOPS	10000
#define IRET_FRAME_PUSHES 3	/* EFLAGS, CS, EIP: not the iret's cost */

static bool requested;

static int parse_bench(const char *value)
{
	(void)value;
	requested = true;
	return 0;
}
boot_option("bench", parse_bench, "count instructions per paravirt op, then exit");

bool bench_requested(void)
{
	return requested;
}

/* Use a value without spending an instruction on it. */
#define consume(v)	asm volatile("" : : "r" (v))

/*
 * BENCH_LOOP(name, setup, body) defines bench_name(), which returns the
 * TSC ticks of BENCH_LOOPS runs of body.  noinline keeps each loop's code
 * separate, so one cannot borrow registers or instructions from another.
 */
#define BENCH_LOOP(name, setup, body)					\
static __attribute__((noinline)) u64 bench_##name(void)		\
{									\
	unsigned int i;							\
	u64 start;							\
	setup;								\
	start = read_tsc();						\
	for (i = 0; i < BENCH_LOOPS; i++) {				\
		body;							\
	}								\
	return read_tsc() - start;					\
}

BENCH_LOOP(empty, , asm volatile(""))
BENCH_LOOP(irq_disable, , raw_local_irq_disable())
BENCH_LOOP(irq_enable, , raw_local_irq_enable())
BENCH_LOOP(save_fl, , consume(raw_local_save_flags()))
BENCH_LOOP(irq_save_restore, , raw_local_irq_restore(raw_local_irq_save()))
BENCH_LOOP(save_fl_irq_disable, , consume(raw_local_irq_save()))
BENCH_LOOP(read_cr0, , consume(read_cr0()))
BENCH_LOOP(read_cr2, , consume(read_cr2()))
BENCH_LOOP(read_cr3, , consume(read_cr3()))
BENCH_LOOP(cr3_reload, , write_cr3(read_cr3()))
BENCH_LOOP(cr0_rewrite, , write_cr0(read_cr0()))
BENCH_LOOP(clts, , clts())
BENCH_LOOP(read_tsc, , consume(read_tsc()))
/* The lazy modes, entered and left with nothing done inside: what a
 * context switch or a page-table loop pays for having them. */
BENCH_LOOP(lazy_cpu_mode, , arch_start_context_switch(); arch_end_context_switch())
BENCH_LOOP(lazy_mmu_mode, , arch_enter_lazy_mmu_mode(); arch_leave_lazy_mmu_mode())

/* An uncontended spinlock taken and released: not an op of the table
 * (yet), but the pair every locked section pays (include/spinlock.h). */
static DEFINE_SPINLOCK(bench_lock, LOCK_RANK_PAGES);
BENCH_LOOP(spin_lock_unlock, , spin_lock(&bench_lock); spin_unlock(&bench_lock))
/* The release alone (the spin_unlock op's site): a ticket drawn by a
 * plain add (nobody else takes this lock), released, less the draw. */
static DEFINE_SPINLOCK(bench_unlock_lock, LOCK_RANK_PAGES);
BENCH_LOOP(ticket_draw, , bench_unlock_lock.raw.next++)
BENCH_LOOP(spin_unlock, , bench_unlock_lock.raw.next++; spin_unlock(&bench_unlock_lock))

static u64 bench_iret(void)
{
	unsigned long flags = raw_local_save_flags();
	u64 start = read_tsc(), with, without;

	bench_iret_loop(BENCH_LOOPS, flags);
	with = read_tsc() - start;
	start = read_tsc();
	bench_empty_asm_loop(BENCH_LOOPS);
	without = read_tsc() - start;
	return with - without - IRET_FRAME_PUSHES * BENCH_LOOPS;
}

/* ---- the workloads ---- */

static unsigned long workload_interrupts;

static void workload_interrupt(struct pt_regs *regs)
{
	(void)regs;
	workload_interrupts++;
}

static volatile unsigned long shared_counter;

/* The hot paths and nothing else: an interrupt through the IDT and back
 * (entry stub, common_trap, trap_dispatch, INTERRUPT_RETURN), a critical
 * section under irq save/restore, and the control-register and TSC
 * reads.  Every patch site here pays its NOP, with little else around. */
BENCH_LOOP(hotpath, ,
	bench_raise_interrupt();
	unsigned long flags = raw_local_irq_save();
	shared_counter++;
	raw_local_irq_restore(flags);
	consume(read_cr0());
	consume(read_cr3());
	consume(read_tsc()))

/*
 * The kernel workload: the kernel's own paths to the hot ops, as they
 * run.  A software interrupt through the IDT; a page fault that the
 * exception table resolves (fault entry, the handler, the table search,
 * INTERRUPT_RETURN) followed by read_cr2 for its address; a critical
 * section under irq save/restore that queues a record stamped with the
 * TSC; and a TLB flush (a %cr3 reload).  No padding work is added around
 * them: the ratio to the inline kernel is what these paths really pay.
 */
struct fault_record {
	u64 stamp;
	u32 address;
	u32 sequence;
};

#define FAULT_RING	8
static struct fault_record fault_ring[FAULT_RING];
static unsigned int fault_head;

static void kernel_paths(unsigned int n)
{
	unsigned long flags;
	struct fault_record *r;

	bench_raise_interrupt();
	bench_fault_and_fixup();
	flags = raw_local_irq_save();
	r = &fault_ring[fault_head++ % FAULT_RING];
	r->stamp = read_tsc();
	r->address = read_cr2();
	r->sequence = n;
	raw_local_irq_restore(flags);
	write_cr3(read_cr3());
}

BENCH_LOOP(workload, , kernel_paths(i))

/* ---- reporting ---- */

/* Ticks over BENCH_LOOPS iterations, as instructions per iteration with
 * two decimals (there is no floating point in the kernel), rounded: the
 * loop set-up may differ by an instruction or two (an alignment NOP). */
static void print_per_op(const char *what, const char *name, s64 ticks)
{
	u64 hundredths = ticks > 0 ? (u64)ticks * 100 + BENCH_LOOPS / 2 : 0;
	u32 fraction;

	div64_u32_rem(&hundredths, BENCH_LOOPS);
	fraction = div64_u32_rem(&hundredths, 100);
	printk("bench: %s %s %llu.%02u\n", what, name, hundredths, fraction);
}

/* An op's loop, and the loop of the other half of its pair (or the
 * empty loop) to subtract. */
struct op_bench {
	const char *name;
	u64 (*run)(void);
	u64 (*minus)(void);
};

static const struct op_bench op_benches[] = {
	{ "irq_disable", bench_irq_disable, bench_empty },
	{ "irq_enable", bench_irq_enable, bench_empty },
	{ "save_fl", bench_save_fl, bench_empty },
	{ "restore_fl", bench_irq_save_restore, bench_save_fl_irq_disable },
	{ "save_fl_irq_disable", bench_save_fl_irq_disable, bench_empty },
	{ "read_cr0", bench_read_cr0, bench_empty },
	{ "read_cr2", bench_read_cr2, bench_empty },
	{ "read_cr3", bench_read_cr3, bench_empty },
	{ "write_cr3", bench_cr3_reload, bench_read_cr3 },
	{ "write_cr0", bench_cr0_rewrite, bench_read_cr0 },
	{ "clts", bench_clts, bench_empty },
	{ "read_tsc", bench_read_tsc, bench_empty },
	{ "lazy_cpu_mode", bench_lazy_cpu_mode, bench_empty },
	{ "lazy_mmu_mode", bench_lazy_mmu_mode, bench_empty },
	{ "spin_lock_unlock", bench_spin_lock_unlock, bench_empty },
	{ "spin_unlock", bench_spin_unlock, bench_ticket_draw },
};

/* ---- the paths: user programs that time themselves ---- */

/*
 * The paths from ring 3 (system calls, switches, faults, a workload) are
 * timed by user programs, user/bench_*.c, which print their own
 * "bench: path" lines.  They run one at a time while this thread waits,
 * so nothing else is runnable and, with the timer masked, every switch
 * is one a program asked for (no preemption, a sleep ended only by
 * the other task).  A program that fails makes the whole run fail:
 * make bench must not tabulate a missing figure as a result.
 */
static const char *const path_programs[] = {
	"bench_syscall", "bench_switch", "bench_fault", "bench_mix", "bench_spawn",
	"bench_pipe",
};

/*
 * The programs count switches by their own yields, which is exact only
 * if no other task ran meanwhile.  The scheduler's own counts say so:
 * this thread must have been switched in once (when the program ended)
 * and the idle task never.
 */
static bool only_the_program_ran(const char *name, unsigned long own_before,
				 unsigned long idle_before)
{
	unsigned long own = current->switches - own_before;
	unsigned long idle = task_by_pid(0)->switches - idle_before;

	if (own == 1 && idle == 0)
		return true;
	printk("bench: %s shared the CPU: the boot thread ran %lu times, idle %lu\n",
	       name, own, idle);
	return false;
}

static bool bench_path_program(const char *name)
{
	unsigned long own = current->switches, idle = task_by_pid(0)->switches;
	int pid = task_spawn(name, NULL), status = -1;

	if (pid < 0) {
		printk("bench: cannot start %s: error %d\n", name, pid);
		return false;
	}
	if (task_wait(pid, &status) != pid || status != 0) {
		printk("bench: %s ended with status %d\n", name, status);
		return false;
	}
	return only_the_program_ran(name, own, idle);
}

static bool bench_paths(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(path_programs); i++)
		if (!bench_path_program(path_programs[i]))
			return false;
	return true;
}

/* The hot ops and the two kernel workloads, with the timer masked (a
 * tick inside a loop would be counted as part of the op). */
static void bench_ops(void)
{
	unsigned long cr0 = read_cr0();
	unsigned int i;

	set_system_gate(BENCH_VECTOR, workload_interrupt);
	/* The backend measured: under trace or rom the sites are direct
	 * calls, so the same table measures another path. */
	printk("bench: loops %u, empty loop %llu, backend %s\n", BENCH_LOOPS, bench_empty(),
	       paravirt_backend_name());
	for (i = 0; i < ARRAY_SIZE(op_benches); i++)
		print_per_op("op", op_benches[i].name,
			     op_benches[i].run() - op_benches[i].minus());
	print_per_op("op", "iret", bench_iret());
	print_per_op("workload", "hotpath", bench_hotpath());
	print_per_op("workload", "kernel", bench_workload());
	set_system_gate(BENCH_VECTOR, NULL);
	/* The clts loop cleared CR0.TS behind the lazy FPU switch's back
	 * (fpu.c believes it is still set): put it back, or no task would
	 * ever take the #NM that hands it the FPU. */
	write_cr0(cr0);
}

/* ---- the padding: what the NOPs of patched sites cost ---- */

/*
 * Under the trace backend the sites are direct calls, counted per site,
 * and bench_padding_count() (asm/bench.h) turns the counts into the
 * padding instructions the native backend's patched sites would have
 * run: the same kernel, the same code run, so each loop's count is the
 * patched kernel's.  make bench boots `bench pv=trace` for these lines:
 * "bench: padding op|workload NAME N", per iteration as the figures
 * are, and the path programs print "bench: padding path NAME N".
 */
static u32 padding_now(void)
{
	u32 count = 0;

	bench_padding_count(&count);
	return count;
}

/* The padding that run() takes less minus()'s: the loop and its
 * brackets of TSC reads cancel, as they do for the instructions. */
static s64 padding_between(u64 (*run)(void), u64 (*minus)(void))
{
	u32 start = padding_now(), middle, end;

	run();
	middle = padding_now();
	minus();
	end = padding_now();
	return (s64)(middle - start) - (s64)(end - middle);
}

/* bench_iret()'s two asm loops alone, without its flag and TSC reads. */
static unsigned long iret_flags;
static u64 iret_loop(void)	{ bench_iret_loop(BENCH_LOOPS, iret_flags); return 0; }
static u64 empty_asm_loop(void)	{ bench_empty_asm_loop(BENCH_LOOPS); return 0; }

static void bench_padding(void)
{
	unsigned long cr0 = read_cr0();
	unsigned int i;
	u32 probe;

	if (bench_padding_count(&probe))
		return;			/* not the trace backend */
	for (i = 0; i < ARRAY_SIZE(op_benches); i++)
		print_per_op("padding op", op_benches[i].name,
			     padding_between(op_benches[i].run, op_benches[i].minus));
	iret_flags = raw_local_save_flags();
	print_per_op("padding op", "iret", padding_between(iret_loop, empty_asm_loop));
	set_system_gate(BENCH_VECTOR, workload_interrupt);
	print_per_op("padding workload", "hotpath", padding_between(bench_hotpath, bench_empty));
	print_per_op("padding workload", "kernel", padding_between(bench_workload, bench_empty));
	set_system_gate(BENCH_VECTOR, NULL);
	write_cr0(cr0);		/* the clts loop's CR0.TS back (bench_ops) */
}

/*
 * In a guest, what the counts its host keeps are (asm/hypercall.h), by
 * their index, as the path programs print them (SYS_counts' COUNTS_HOST,
 * after the two totals): "bench: host count name INDEX KIND NAME", KIND
 * hypercall or exit (each exit counts under one of these) or event (not
 * an exit: the interrupts injected).  A line each: a guest's lines are
 * cut at its host's line length.
 */
static void print_host_count_names(void)
{
	unsigned int i;

	if (!platform->host_counts)
		return;
	for (i = 0; i < HOST_COUNTS; i++)
		printk("bench: host count name %u %s %s\n", i,
		       i < HCALL_NR ? "hypercall" : i < HOST_EXIT_REASONS ? "exit" : "event",
		       host_count_name(i));
}

/* Interrupts stay off at the PIC (the host, in a guest) through the
 * paths too: every switch must be one a program asked for. */
void bench_run(void)
{
	unsigned long flags;
	bool paths_ok;

	if (bench_smp_requested())
		bench_smp_run();	/* the SMP figures instead (bench_smp.c) */
	bench_tlb();	/* more than one CPU: the shootdown's figures */
	flags = raw_local_irq_save();
	disable_irq(IRQ_TIMER);
	bench_ops();
	bench_padding();
	print_host_count_names();
	paths_ok = bench_paths();
	if (paths_ok)
		printk("bench: done (%lu workload interrupts)\n", workload_interrupts);
	enable_irq(IRQ_TIMER);
	raw_local_irq_restore(flags);
	emulator_exit(paths_ok ? EMU_EXIT_PASS : EMU_EXIT_FAIL);
}

/* For the shell: the ops measured in the running kernel, which goes on
 * afterwards.  The timer ticks that fall in the few milliseconds this
 * takes are lost but one (the PIC keeps one request while masked, and
 * so does a host). */
void bench_ops_in_place(void)
{
	unsigned long flags = raw_local_irq_save();

	disable_irq(IRQ_TIMER);
	bench_ops();
	enable_irq(IRQ_TIMER);
	raw_local_irq_restore(flags);
}

/*
 * Does a TSC difference count instructions here?  Under QEMU's -icount
 * it does, exactly, so the same loop measures the same twice; under
 * plain QEMU (host time) or on real hardware (cycles) it is a clock.
 * Two equal runs alone could be luck on a very steady real CPU, so the
 * hypervisor must be QEMU's TCG too.  A heuristic, said as one.
 */
bool bench_counts_instructions(void)
{
	unsigned long flags = raw_local_irq_save();
	bool same = bench_empty() == bench_empty();

	raw_local_irq_restore(flags);
	return same && !strcmp(boot_cpu.hypervisor, "QEMU TCG");
}
