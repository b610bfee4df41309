/*
 * guest.h - running a guest pv386 under this one (kernel/guest.c; the
 * machine's part is asm/host.h).
 */
#ifndef PV386_GUEST_H
#define PV386_GUEST_H

int guest_launch(const char *cmdline);	/* 0 or -errno, printed */
void guest_boot(void);			/* guest= */

#endif
