/*
 * host.h - pv386 as a host: running a guest pv386 under this one
 * (kernel/host.c; the machine's part is asm/host.h).
 */
#ifndef PV386_HOST_H
#define PV386_HOST_H

#include <types.h>

int guest_launch(const char *cmdline);	/* 0 or -errno, printed */
/* The same from a kernel image of size bytes (an ELF file), mib MiB. */
int guest_launch_image(const void *image, u32 size, const char *cmdline, unsigned int mib);
void guest_boot(void);			/* guest= */

#endif
