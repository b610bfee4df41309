/*
 * io.h - port I/O for stage 2 (COM1, the keyboard controller, port 0x92).
 */
#ifndef PV386_LOADER_IO_H
#define PV386_LOADER_IO_H

#include "loader.h"

static inline void outb(u16 port, u8 v)
{
	asm volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

#endif
