/*
 * spin.c - computes without a single system call for a long while (its
 * argument: millions of loop rounds, default 30), then exits 0.  Only
 * the timer can take the CPU from it: another task that finishes while
 * it still spins shows that the scheduler preempts.
 */
#include "lib/pv386.h"

int main(void)
{
	char arg[16];
	unsigned long rounds;
	volatile unsigned long sink = 0;

	getarg(arg, sizeof(arg));
	rounds = (arg[0] ? atoi(arg) : 30) * 1000000ul;
	while (rounds--)
		sink += rounds;
	return 0;
}
