/*
 * sleep.c - sleeps for N timer ticks (its argument, default 10), then
 * exits 0: a task waiting for the timer.  While every task waits, the
 * CPU has nothing to do but the idle task's safe_halt.
 */
#include "lib/pv386.h"

int main(void)
{
	char arg[16];
	int ticks;

	getarg(arg, sizeof(arg));
	ticks = arg[0] ? atoi(arg) : 10;
	sleep_ticks(ticks);
	return 0;
}
