/*
 * hello.c - the smallest user program: says who it is and which way it
 * entered the kernel.
 */
#include "lib/pv386.h"

int main(void)
{
	char arg[64];

	getarg(arg, sizeof(arg));
	printf("hello from user mode: pid %d, system calls by %s%s%s\n", getpid(),
	       have_sysenter() ? "sysenter" : "int $0x80", arg[0] ? ", arg " : "", arg);
	return 0;
}
