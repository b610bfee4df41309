/*
 * panic.h - what happens after a panic, besides stopping the CPU.
 *
 * panic() (declared in kernel.h) prints the reason and the registers,
 * then halts.  A subsystem that must act before the halt sets the panic
 * hook: the test runner, for one, leaves the emulator with a failure
 * status, so that a crashed test run is never mistaken for a hung or a
 * passing one.  Core code knows only that there may be a hook, never
 * who set it.
 */
#ifndef PV386_PANIC_H
#define PV386_PANIC_H

typedef void (*panic_hook_t)(void);

/* The hook is called once, after the panic report; NULL removes it.  It
 * runs with interrupts off in a kernel that can no longer be trusted, so
 * it must do little.  It need not return; if it does, panic halts. */
void panic_set_hook(panic_hook_t hook);

#endif
