/*
 * asm/io.h - port I/O.  in/out are not routed through paravirt_ops: they
 * are what drivers are made of, and the audit allows them.
 */
#ifndef ASM_IO_H
#define ASM_IO_H

#include <types.h>

static inline void outb(u16 port, u8 v)
{
	asm volatile("outb %0, %1" : : "a" (v), "Nd" (port));
}

static inline u8 inb(u16 port)
{
	u8 v;
	asm volatile("inb %1, %0" : "=a" (v) : "Nd" (port));
	return v;
}

static inline void outw(u16 port, u16 v)
{
	asm volatile("outw %0, %1" : : "a" (v), "Nd" (port));
}

static inline u16 inw(u16 port)
{
	u16 v;
	asm volatile("inw %1, %0" : "=a" (v) : "Nd" (port));
	return v;
}

/* A write to the unused POST port 0x80 takes about 1 us on ISA: the
 * traditional pause between accesses to slow chips like the 8259. */
static inline void io_delay(void)
{
	outb(0x80, 0);
}

#endif
