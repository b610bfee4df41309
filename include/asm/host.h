/*
 * asm/host.h - pv386 as a host, seen from outside: what the rest of the
 * kernel (kernel/host.c's boot options and host thread, the shell's
 * `guest` command) may ask of arch/x86/host/, which runs a second
 * pv386, the guest, at ring 1 (docs/guest.md).
 *
 * Everything else about a guest - its memory, its shadow page tables,
 * its exits and hypercalls - is the host's own, in its private header
 * arch/x86/host/host.h; tools/audit-calls holds every other file (tests
 * aside) to the functions declared here.
 */
#ifndef ASM_HOST_H
#define ASM_HOST_H

#include <types.h>

#define GUESTMEM_DEFAULT_MIB	16	/* guestmem= */
#define GUESTMEM_MIN_MIB	4	/* the kernel, its page tables and a task */

struct guest;		/* the host's own (arch/x86/host/host.h) */

/*
 * A guest's life, the one place its states are named.  lifecycle.c moves
 * it on, only this way:
 *
 *   NONE or RELEASED -> RUNNING   guest_start_image: memory and shadows made
 *   RUNNING -> STOPPED            guest_stop, with why (whoever finds it broken)
 *   STOPPED -> RELEASED           guest_release, by what runs it (its host
 *                                 thread), once out of guest_run for good:
 *                                 memory and shadows back to the host
 *
 * A start in RUNNING or STOPPED is refused (-EBUSY): a stopped guest's
 * thread may still be inside guest_run, and a new guest in its place
 * would be run by two threads at once.  What a guest did (its stats,
 * why it stopped) stays readable until the next start.
 */
enum guest_state { GUEST_NONE, GUEST_RUNNING, GUEST_STOPPED, GUEST_RELEASED };

/* lifecycle.c: 0 or -errno (-ENODEV a 386, or a guest, cannot host;
 * -EBUSY one is running or not yet released; -EINVAL a bad image,
 * guestmem or cmdline; -ENOMEM; -ENOENT no kernel module) */
int guest_start(const char *cmdline, unsigned int mib);	/* from the kernel module */
int guest_start_image(const void *image, u32 size, const char *cmdline, unsigned int mib);
void guest_release(void);	/* a stopped guest's memory back: RELEASED */
void guest_stop(struct guest *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));	/* with why */
struct guest *guest_current(void);	/* the one guest, or NULL */
enum guest_state guest_state(const struct guest *g);
bool guest_halted(const struct guest *g);	/* waiting for an interrupt */
int guest_exit_value(const struct guest *g);	/* emulator_exit's, or -1 */

/* run.c: run it until it stops, halts, or the host's scheduler wants
 * the CPU; its stats for `guest stats`. */
void guest_run(struct guest *g);
void guest_print_stats(void);

/* console.c: bytes typed for it, into its input ring (bytes taken, or
 * -ESRCH if it is not running). */
int guest_console_input(struct guest *g, const char *s, unsigned int n);

/* count_names.c: the name of count i of those the host keeps for its
 * guest in the shared page (asm/hypercall.h, enum host_count): a
 * hypercall's, a kind of exit's, or "injected"; "?" past them.  For
 * `guest stats`, and for the guest's own bench, which prints what its
 * programs read of them (kernel/bench.c). */
const char *host_count_name(unsigned int i);

#endif
