/*
 * kill_check.c - checks that a user program was killed for the right
 * exception, in the right words, and alone (see kill_check.h).
 *
 * The expected kill line is built here from known parts: the exception's
 * name, the vector, the eip and code bytes the program printed about
 * itself before it faulted (user/crash.c and user/priv.c read them from
 * their own text), and the fault details the test expects.  So it is the
 * kernel's report that is checked, against what the program knows.
 */
#include <kernel.h>
#include <page_alloc.h>
#include <string.h>
#include <task.h>
#include <asm/traps.h>
#include "console_capture.h"
#include "kill_check.h"
#include "run_user.h"

#define LINE_MAX	240

/* The names the kill line uses, for the vectors user mode can raise. */
static const char *const vector_names[FIRST_EXTERNAL_VECTOR] = {
	[X86_TRAP_DE] = "divide error",
	[X86_TRAP_DB] = "debug",
	[X86_TRAP_BP] = "breakpoint",
	[X86_TRAP_OF] = "overflow",
	[X86_TRAP_BR] = "bound range exceeded",
	[X86_TRAP_UD] = "invalid opcode",
	[X86_TRAP_NM] = "device not available",
	[X86_TRAP_TS] = "invalid TSS",
	[X86_TRAP_NP] = "segment not present",
	[X86_TRAP_SS] = "stack-segment fault",
	[X86_TRAP_GP] = "general protection",
	[X86_TRAP_PF] = "page fault",
	[X86_TRAP_MF] = "x87 floating-point error",
	[X86_TRAP_AC] = "alignment check",
	[X86_TRAP_XF] = "SIMD floating-point",
};

/* What a run left behind, for the checks. */
struct run_result {
	int pid, status, survivor;
	unsigned long pages_before, pages_after;
	unsigned long traps_before, traps_after;	/* of the expected vector */
};

static void case_failed(struct ktest_ctx *kt_ctx, const char *program,
			const char *arg, const char *what, const char *detail)
{
	kt_ctx->failures++;
	printk("ktest:   %s %s: %s%s%s\n", program, arg, what, detail ? ": " : "",
	       detail ? detail : "");
}

/* Whether notest= leaves out this case, named program:arg. */
static bool case_left_out(const char *program, const char *arg)
{
	char name[64];

	snprintf(name, sizeof(name), "%s:%s", program, arg);
	return ktest_left_out(name);
}

static void run_watched(const char *program, const char *arg, unsigned int vector,
			struct run_result *r)
{
	/* Earlier tests' orphans are freed by whichever CPU idles first:
	 * on several CPUs, maybe in the middle of this run.  Free them now. */
	task_reap_orphans();
	r->pages_before = pages_free_count();
	r->traps_before = trap_count(vector);
	capture_start();
	r->status = run_beside_survivor(program, arg, &r->pid, &r->survivor);
	capture_stop();
	r->traps_after = trap_count(vector);
	r->pages_after = pages_free_count();
}

/* Checks that hold however the program ended. */
static void check_alone(struct ktest_ctx *kt_ctx, const char *program,
			const char *arg, const struct run_result *r)
{
	char n[24];

	if (r->survivor != 0) {
		snprintf(n, sizeof(n), "%d", r->survivor);
		case_failed(kt_ctx, program, arg, "the survivor beside it exited with", n);
	}
	if (r->pages_after != r->pages_before) {
		snprintf(n, sizeof(n), "%ld", (long)(r->pages_before - r->pages_after));
		case_failed(kt_ctx, program, arg, "pages not given back", n);
	}
	if (captured_lines("trap:") || captured_anywhere("KERNEL PANIC"))
		case_failed(kt_ctx, program, arg, "the kernel reported a trap of its own", NULL);
	if (capture_overflowed())
		case_failed(kt_ctx, program, arg, "printed too much to check", NULL);
}

/* '?' in pattern matches any one character; otherwise exact. */
static bool line_matches(const char *pattern, const char *line)
{
	for (; *pattern && *line; pattern++, line++)
		if (*pattern != '?' && *pattern != *line)
			return false;
	return !*pattern && !*line;
}

/*
 * From the program's own line "PROGRAM: CASE: eip XXXXXXXX code B0 B1 B2
 * B3[ arg XXXXXXXX]": the eip, the code bytes and the argument.  CASE is
 * arg up to a ':' (crash's "int:N" prints "int").
 */
static bool program_report(const char *program, const char *arg, char eip[9],
			   char code[12], char argument[9])
{
	char prefix[48], line[LINE_MAX];
	size_t n;

	n = snprintf(prefix, sizeof(prefix), "%s: %s", program, arg);
	if (strstr(prefix + strlen(program) + 2, ":"))
		n = strstr(prefix + strlen(program) + 2, ":") - prefix;
	snprintf(prefix + n, sizeof(prefix) - n, ": eip ");
	if (!captured_line(prefix, line, sizeof(line)) ||
	    strlen(line) < strlen(prefix) + 8 + 6 + 11)
		return false;
	strlcpy(eip, line + strlen(prefix), 9);
	strlcpy(code, line + strlen(prefix) + 8 + 6, 12);	/* after " code " */
	argument[0] = '\0';
	if (strstr(line, " arg "))
		strlcpy(argument, strstr(line, " arg ") + 5, 9);
	return true;
}

/* The kill line kill_user_task (arch/x86/kernel/traps.c) must print. */
static void expected_kill_line(char *buf, size_t size, const struct kill_expect *e,
			       int pid, const char *eip, const char *code,
			       const char *argument)
{
	size_t n = snprintf(buf, size, "task %d (%s) killed: %s (#%u) at eip %s",
			    pid, e->program, vector_names[e->vector], e->vector,
			    e->eip ? e->eip : eip);

	if (e->address && e->address[0] == ADDRESS_ARG[0])
		n += snprintf(buf + n, size - n, ", address %s%s", argument, e->address + 1);
	else if (e->address)
		n += snprintf(buf + n, size - n, ", address %s", e->address);
	else if (e->error)
		n += snprintf(buf + n, size - n, ", error %04x", e->error);
	n += snprintf(buf + n, size - n, ", code%s%s", e->eip ? "" : " ", e->eip ? "" : code);
	if (e->reason)
		snprintf(buf + n, size - n, ": %s", e->reason);
}

static void check_kill_line(struct ktest_ctx *kt_ctx, const struct kill_expect *e,
			    int pid)
{
	char eip[9], code[12], argument[9], prefix[48], want[LINE_MAX], line[LINE_MAX];

	if (!program_report(e->program, e->arg, eip, code, argument)) {
		case_failed(kt_ctx, e->program, e->arg, "no line from the program", NULL);
		return;
	}
	snprintf(prefix, sizeof(prefix), "task %d (%s) killed: ", pid, e->program);
	if (captured_lines(prefix) != 1 || !captured_line(prefix, line, sizeof(line))) {
		case_failed(kt_ctx, e->program, e->arg, "not exactly one kill line", NULL);
		return;
	}
	expected_kill_line(want, sizeof(want), e, pid, eip, code, argument);
	if (!line_matches(want, line)) {
		case_failed(kt_ctx, e->program, e->arg, "kill line", line);
		printk("ktest:     expected %s\n", want);
	}
}

void check_kill(struct ktest_ctx *kt_ctx, const struct kill_expect *e)
{
	struct run_result r;
	bool counted_elsewhere = e->vector == X86_TRAP_PF || e->vector == X86_TRAP_NM;
	char n[24];

	if (case_left_out(e->program, e->arg))
		return;
	run_watched(e->program, e->arg, e->vector, &r);
	if (r.status != EXIT_KILLED(e->vector)) {
		snprintf(n, sizeof(n), "%d", r.status);
		case_failed(kt_ctx, e->program, e->arg, "exit status", n);
	}
	/* The survivor takes page faults and #NM of its own: those vectors
	 * only have to have gone up. */
	if (counted_elsewhere ? r.traps_after <= r.traps_before
			      : r.traps_after != r.traps_before + 1) {
		snprintf(n, sizeof(n), "%lu", r.traps_after - r.traps_before);
		case_failed(kt_ctx, e->program, e->arg, "exceptions counted on the vector", n);
	}
	check_kill_line(kt_ctx, e, r.pid);
	check_alone(kt_ctx, e->program, e->arg, &r);
}

void check_end(struct ktest_ctx *kt_ctx, const char *program, const char *arg,
	       int status, const char *message)
{
	struct run_result r;
	char prefix[48], want[LINE_MAX], line[LINE_MAX], n[24];

	if (case_left_out(program, arg))
		return;
	run_watched(program, arg, 0, &r);
	if (r.status != status) {
		snprintf(n, sizeof(n), "%d", r.status);
		case_failed(kt_ctx, program, arg, "exit status", n);
	}
	snprintf(prefix, sizeof(prefix), "task %d (%s) killed", r.pid, program);
	if (captured_lines(prefix) != (message ? 1 : 0)) {
		case_failed(kt_ctx, program, arg, message ? "not exactly one kill line" :
			    "a kill line", NULL);
	} else if (message) {
		snprintf(want, sizeof(want), "%s: %s", prefix, message);
		captured_line(prefix, line, sizeof(line));
		if (strcmp(line, want))
			case_failed(kt_ctx, program, arg, "kill line", line);
	}
	check_alone(kt_ctx, program, arg, &r);
}
