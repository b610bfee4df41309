/*
 * sleep.c - sleeps for N timer ticks (its argument, decimal or 0x-hex,
 * default 10), then exits 0: a task waiting for the timer.  While every
 * task waits, the CPU has nothing to do but the idle task's safe_halt.
 * A sleep the kernel refuses (longer than SLEEP_MAX_TICKS) ends the
 * program at once, with the error number as its exit status (EINVAL).
 */
#include "lib/pv386.h"

int main(void)
{
	char arg[16];
	unsigned long ticks;
	long result;

	getarg(arg, sizeof(arg));
	ticks = arg[0] ? strtoul(arg, NULL, 0) : 10;
	result = sleep_ticks(ticks);
	if (result)
		printf("sleep: %lx ticks refused: %ld\n", ticks, result);
	return result < 0 ? (int)-result : 0;
}
