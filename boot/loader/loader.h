/*
 * loader.h - what the parts of stage 2 (C, run in unreal mode) offer
 * each other.  main.c calls them in order: console, disk, A20, memory,
 * prompt, kernel, Multiboot info, enter_kernel.
 */
#ifndef PV386_LOADER_H
#define PV386_LOADER_H

#include "layout.h"

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef __builtin_va_list va_list;
#define va_start __builtin_va_start
#define va_arg __builtin_va_arg
#define va_end __builtin_va_end

#define LOADER_NAME	"pv386 loader 0.1"
#define CMDLINE_MAX	HEADER_CMDLINE_MAX

/*
 * gcc -m16 encodes a constant address in 16 bits, silently dropping the
 * rest: *(u32 *)0x100500 would touch 0x500.  A pointer computed at run
 * time gets a 32-bit address, so constants above 64 KiB go through this.
 */
static inline void *phys(u32 addr)
{
	asm("" : "+r"(addr));	/* no longer a constant to gcc */
	return (void *)addr;
}

/* bios.S: one BIOS interrupt; layout known to bios.S. */
struct biosregs {
	u32 eax, ebx, ecx, edx, esi, edi;
	u16 es, flags;
};
#define FLAG_CF		0x0001
void bios_call(u8 vector, struct biosregs *r);

/* enter_kernel.S */
void enter_kernel(u32 entry, u32 info) __attribute__((noreturn));

/* console.c: every message goes to the screen and to COM1. */
void console_init(void);
void print(const char *fmt, ...);
void die(const char *fmt, ...) __attribute__((noreturn));
void console_putc(char c);
int console_getc(void);		/* a key or a COM1 byte, -1 if none waits */
u32 bios_ticks(void);		/* 18.2 per second, from the BIOS data area */

/* disk.c */
void disk_init(u8 drive);
void disk_read(u32 lba, u32 count, u32 dest);	/* dest: any physical address */
u32 disk_sectors(void);				/* in all, by the geometry */
void disk_stop(void);				/* floppy motor off */

/* a20.c */
void a20_enable(u32 header_flags);

/* memory.c: fills the Multiboot memory fields. */
struct multiboot_info;
void memory_detect(struct multiboot_info *mbi, u32 header_flags);
u32 memory_upper_end(const struct multiboot_info *mbi);

/* prompt.c: the line to boot with, typed or the default. */
void prompt(const char *default_line, char *line);

/* kernel.c: loads the ELF, returns its entry point; *end: where its
 * highest segment (bss included) ends. */
u32 kernel_load(u32 lba, u32 bytes, u32 memory_end, u32 *end);

/* modules.c: loads the header's modules above `above`, lists them in mbi. */
void modules_load(struct multiboot_info *mbi, u32 above, u32 memory_end);

/* main.c: a u32 field of the kernel header (layout.h). */
u32 header_u32(unsigned int offset);

/* string helpers (string.c) */
void *memcpy(void *dst, const void *src, u32 n);
void *memset(void *dst, int c, u32 n);
int memcmp(const void *a, const void *b, u32 n);
u32 strlen(const char *s);

#endif
