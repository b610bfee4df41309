/*
 * run_program.c - runs a user program for a test and collects how it
 * ended (run_program.h).
 */
#include <task.h>
#include "run_program.h"

int run_program(const char *name, const char *arg)
{
	int status = -9999, pid = task_spawn(name, arg);

	if (pid < 0)
		return pid;
	if (task_wait(pid, &status) != pid)
		return -9999;
	return status;
}
