/*
 * test_user_state.c - the CPU state a task owns besides its registers
 * stays its own across task switches: the FPU (switched lazily or
 * eagerly, as fpu.c chose at boot: each row runs one mode), the TLS
 * slots of the GDT, its LDT, its I/O privilege and its debug registers.
 * Each test runs two user programs at once that keep different values in
 * the same places and yield to each other many times; each program
 * checks its own values (user/fpu.c, tls.c, ldt.c, ioport.c, watch.c).
 */
#include <ktest.h>
#include <string.h>
#include <task.h>
#include <asm/privileged.h>
#include <asm/fpu.h>
#include <asm/process.h>
#include <asm/processor-flags.h>
#include <asm/traps.h>
#include <asm/smp.h>
#include "console_capture.h"
#include "run_program.h"
#include "run_user.h"

#define ROUNDS		50	/* yields in each program */
#define DR7_ENABLES	0xff	/* L0-3, G0-3 */

/* Start a and b (a first), wait for both. */
static void run_pair(const char *name, const char *arg_a, const char *arg_b,
		     int *status_a, int *status_b)
{
	int a = start_program(name, arg_a), b = start_program(name, arg_b);

	*status_a = finish_program(a);
	*status_b = finish_program(b);
}

static void fpu_absent(struct ktest_ctx *kt_ctx)
{
	char line[200];
	int pid;

	capture_start();
	pid = start_program("fpu", "3");
	KT_EXPECT_EQ(finish_program(pid), EXIT_KILLED(X86_TRAP_NM));
	capture_stop();
	KT_EXPECT(captured_line("task ", line, sizeof(line)));
	KT_EXPECT(strstr(line, ") killed: device not available (#7) at eip ") != NULL);
	KT_EXPECT(strstr(line, ": floating point, and there is no FPU (CR0.EM)") != NULL);
}

KTEST(user_fpu_state_is_per_task)
{
	unsigned long nm = trap_count(X86_TRAP_NM);
	int a, b;

	if (!fpu_present()) {	/* a 386 without a 387, or `nofpu` */
		fpu_absent(kt_ctx);
		return;
	}
	run_pair("fpu", "3", "4", &a, &b);
	KT_EXPECT_EQ(a, 0);
	KT_EXPECT_EQ(b, 0);
	/* Each came back to an FPU the other had used.  Lazily that is a
	 * #NM, every round - where they share one CPU (on several, each may
	 * keep a CPU of its own; user_fpu_state_survives_migration makes
	 * them move).  Eagerly the switch handed the registers over and TS
	 * was never set: not one #NM, on any number of CPUs. */
	if (fpu_eager())
		KT_EXPECT_EQ(trap_count(X86_TRAP_NM) - nm, 0);
	else if (num_online_cpus() == 1)
		KT_EXPECT(trap_count(X86_TRAP_NM) - nm >= ROUNDS);
}

/*
 * More FPU programs than CPUs, all at once: with several CPUs they move
 * from one to another as they yield (sched_migrations() counts it), and
 * each must find its own registers wherever it lands - the state it
 * left in one CPU's FPU saved as it left (fpu_switch).
 */
#define MIGRATING_FPU_TASKS	9

KTEST(user_fpu_state_survives_migration)
{
	static const char *args[MIGRATING_FPU_TASKS] = { "3", "4", "5", "6", "7", "8", "9",
							 "10", "11" };
	unsigned long moves = sched_migrations();
	int pids[MIGRATING_FPU_TASKS];
	unsigned int i;

	if (!fpu_present())
		KT_SKIP("no FPU");
	for (i = 0; i < MIGRATING_FPU_TASKS; i++)
		pids[i] = start_program("fpu", args[i]);
	for (i = 0; i < MIGRATING_FPU_TASKS; i++)
		KT_EXPECT_EQ(finish_program(pids[i]), 0);
	if (num_online_cpus() > 1)
		KT_EXPECT(sched_migrations() > moves);
}

KTEST(user_tls_is_per_task)
{
	int a, b;

	run_pair("tls", "7", "9", &a, &b);
	KT_EXPECT_EQ(a, 0);
	KT_EXPECT_EQ(b, 0);
}

KTEST(user_ldt_is_per_task)
{
	int a, b;

	run_pair("ldt", "5", "6", &a, &b);
	KT_EXPECT_EQ(a, 0);
	KT_EXPECT_EQ(b, 0);
}

/* ioport holds IOPL 3 across many switches while priv, beside it, has
 * none: its `in` must still fault.  Neither leaves IOPL to the kernel. */
KTEST(user_io_privilege_is_per_task)
{
	int io, priv;

	io = start_program("ioport", "yield");
	priv = start_program("priv", "in");

	KT_EXPECT_EQ(finish_program(priv), EXIT_KILLED(X86_TRAP_GP));
	KT_EXPECT_EQ(finish_program(io), 0);
	/* iopl(0) takes it back at once */
	KT_EXPECT_EQ(run_program("ioport", "drop"), EXIT_KILLED(X86_TRAP_GP));
	KT_EXPECT_EQ(raw_local_save_flags() & X86_EFLAGS_IOPL, 0);
}

/* A single step over an in traps after it, with EIP at the next
 * instruction: the CPU's doing natively, the host's in a guest (it does
 * the in for the program, then raises the #DB the CPU would have). */
KTEST(user_io_single_step_traps_after_the_in)
{
	const char *prefix = "ioport: after the in at ";
	char line[120], kill_line[120];
	int pid, status;

	capture_start();
	pid = start_program("ioport", "step");
	status = finish_program(pid);
	capture_stop();
	KT_EXPECT_EQ(status, EXIT_KILLED(X86_TRAP_DB));
	if (!captured_line(prefix, line, sizeof(line))) {
		KT_EXPECT(!"ioport said where its in ends");
		return;
	}
	snprintf(kill_line, sizeof(kill_line), "task %d (ioport) killed: debug (#1) at eip %s",
		 pid, line + strlen(prefix));
	KT_EXPECT_EQ(captured_lines(kill_line), 1);
}

/* A guest's program with I/O privilege gets a bus of the host's making
 * (arch/x86/host/port_io.c), with none of the host's devices on it: the
 * out that would end the host's emulator goes nowhere, its UART's status
 * reads as nothing there, and of the CMOS only the clock answers. */
KTEST(guest_program_ports_are_not_the_hosts)
{
	if (current_ring() == 0)
		KT_SKIP("natively the ports are the machine's, and one would end this run");
	KT_EXPECT_EQ(run_program("ioport", "host"), 0);
}

/* Only the program named by the iopl= option (default "ioport") may
 * have I/O privilege: priv asks and gets -EPERM (its exit status 3
 * would say otherwise) before its `out` faults. */
KTEST(user_io_privilege_only_for_named_programs)
{
	KT_EXPECT_EQ(run_program("priv", "out"), EXIT_KILLED(X86_TRAP_GP));
}

/* watch arms a watchpoint and writes its variable 3 times; plain writes
 * the same variable (same address, its own address space) as often.
 * Only watch's writes are reported, each once. */
KTEST(user_watchpoints_are_per_task)
{
	char line[120], prefix[48];
	const char *addr;
	int armed, plain, status_armed, status_plain;

	capture_start();
	armed = start_program("watch", "arm");
	plain = start_program("watch", "plain");
	status_armed = finish_program(armed);
	status_plain = finish_program(plain);
	capture_stop();
	KT_EXPECT_EQ(status_armed, 0);
	KT_EXPECT_EQ(status_plain, 0);
	if (!captured_line("watch: variable at ", line, sizeof(line))) {
		KT_EXPECT(!"watch printed its variable's address");
		return;
	}
	addr = line + strlen("watch: variable at ");
	snprintf(prefix, sizeof(prefix), "task %d (watch): watchpoint 0: write to %s, eip ",
		 armed, addr);
	KT_EXPECT_EQ(captured_lines(prefix), 3);
	snprintf(prefix, sizeof(prefix), "task %d (watch): watchpoint", armed);
	KT_EXPECT_EQ(captured_lines(prefix), 3);	/* slots 1-3 never fire */
	snprintf(prefix, sizeof(prefix), "task %d (watch): watchpoint", plain);
	KT_EXPECT_EQ(captured_lines(prefix), 0);
	/* The kernel thread runs with no watchpoint armed. */
	KT_EXPECT_EQ(get_debugreg(7) & DR7_ENABLES, 0);
}

/* A watched place the kernel writes (wait's status) makes #DBs in the
 * kernel, which it reports and goes on from; the task's single step
 * after that is no watchpoint hit and must end it (user/watch.c step). */
KTEST(user_single_step_after_watchpoint_kills_the_task)
{
	char prefix[48];
	int pid, status;

	capture_start();
	pid = start_program("watch", "step");
	status = finish_program(pid);
	capture_stop();
	KT_EXPECT_EQ(status, EXIT_KILLED(X86_TRAP_DB));
	snprintf(prefix, sizeof(prefix), "task %d (watch): watchpoint", pid);
	KT_EXPECT_EQ(captured_lines(prefix), 0);
	snprintf(prefix, sizeof(prefix), "task %d (watch) killed: debug (#1) at eip ", pid);
	KT_EXPECT_EQ(captured_lines(prefix), 1);
}
