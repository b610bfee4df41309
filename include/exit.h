/*
 * exit.h - the end of a user task (kernel/exit.c): its descriptors
 * closed, then the task ended.  The system call exit comes here; a kill
 * comes through kill_current (arch_door.h).
 */
#ifndef PV386_EXIT_H
#define PV386_EXIT_H

#include <kernel.h>

/* End the current task with exit status status. */
void exit_current(int status) __noreturn;

#endif
