/*
 * run.h - the run= boot option (kernel/run.c): start user programs at
 * boot and wait for them.
 */
#ifndef PV386_RUN_H
#define PV386_RUN_H

void run_programs(void);

#endif
