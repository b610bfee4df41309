/*
 * asm/machine.h - stopping the machine: halting for good, or leaving an
 * emulator with a status a test harness can read.
 */
#ifndef ASM_MACHINE_H
#define ASM_MACHINE_H

#include <types.h>

/* Values written to QEMU's isa-debug-exit port; QEMU exits with
 * (value << 1) | 1, so these become exit statuses 33 and 35. */
#define EMU_EXIT_PASS	0x10
#define EMU_EXIT_FAIL	0x11

void machine_halt(void) __noreturn;
void machine_restart(void) __noreturn;	/* 8042 reset, else a triple fault */
void machine_power_off(void);	/* returns where it does not know how */
void emulator_exit(u8 value);

/* The PC's ways of doing it (struct platform, asm/platform.h). */
void pc_emulator_exit(u8 value);
void pc_restart(void);
void pc_power_off(void);

#endif
