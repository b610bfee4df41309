/*
 * watch.c - a data watchpoint (the watch system call: DR0-DR3) on one
 * of its variables.  Each write to it makes the kernel print
 *
 *     task N (watch): watchpoint 0: write to ADDR, eip X (dr6 Y)
 *
 * and the task goes on.  The debug registers belong to the task: the
 * same variable (the same address, in another address space) written by
 * another task must not fire.  Arguments:
 *
 *   arm     watch the variable, then write it WRITES times with yields in
 *           between (so the kernel switches the debug registers)
 *   plain   write the same variable as often, without a watchpoint
 *   step    watch the status wait() then writes in the kernel, which
 *           reports that as a trap of its own; then single-step (TF):
 *           that #DB is no watchpoint hit, and must kill the task
 *
 * Before the writes it prints `watch: variable at ADDR`.  It also checks
 * the call's answers to bad requests: a kernel address, a misaligned
 * address or a length of 3 get -EINVAL, a fifth watchpoint -EBUSY.
 * Exit status: 0 all as expected; 1 watch() refused the variable;
 * 2 a bad request was not refused as it should be; 3 the variable does
 * not hold what was written (the task did not continue properly);
 * 4 the single step did not end the task.
 */
#include "lib/pv386.h"

#define WRITES		3
#define NR_WATCHPOINTS	4

static volatile uint32_t variable;
static volatile uint32_t others[NR_WATCHPOINTS];	/* never written */

static int bad_requests_refused(void)
{
	int i;

	if (watch((void *)0x00100000, 4) != -EINVAL ||
	    watch((char *)&variable + 1, 4) != -EINVAL ||
	    watch((void *)&variable, 3) != -EINVAL)
		return 0;
	for (i = 1; i < NR_WATCHPOINTS; i++)	/* slot 0 is the variable's */
		if (watch((void *)&others[i], 4) != i)
			return 0;
	return watch((void *)&others[0], 4) == -EBUSY;
}

/* The kernel's write to a watched place sets DR6 bits that must not
 * make the next, unrelated #DB look like a watchpoint hit. */
static int step_after_kernel_write(void)
{
	static int status;
	int pid;

	if (watch(&status, 4) != 0)
		return 1;
	pid = spawn("hello", "");
	wait(pid, &status);
	asm volatile("pushfl; orl $0x100, (%esp); popfl; nop; nop");
	return 4;
}

int main(void)
{
	char arg[16];
	uint32_t i;

	getarg(arg, sizeof(arg));
	if (!strcmp(arg, "step"))
		return step_after_kernel_write();
	printf("watch: variable at %08x\n", (unsigned int)(uintptr_t)&variable);
	if (!strcmp(arg, "arm")) {
		if (watch((void *)&variable, 4) != 0)
			return 1;
		if (!bad_requests_refused())
			return 2;
	}
	for (i = 1; i <= WRITES; i++) {
		variable = i * 11;
		yield();
		if (variable != i * 11)
			return 3;
	}
	return 0;
}
