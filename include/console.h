/*
 * console.h - where printk's text goes.
 *
 * A console is anything that can show bytes: the serial port and the VGA
 * text screen register one each at boot (console_init in main.c), and
 * printk writes every message to all of them.
 */
#ifndef PV386_CONSOLE_H
#define PV386_CONSOLE_H

#include <types.h>
#include <spinlock.h>

struct console {
	const char *name;
	void (*write)(const char *s, size_t n);
	struct console *next;
};

/* Held while a message is written to the consoles (printk.c): named
 * here for the lock tests and the lock debugger's reports. */
extern spinlock_t console_lock;

void register_console(struct console *con);
void unregister_console(struct console *con);
/* From panic(): printk stops waiting long for the console lock
 * (kernel/printk.c says why). */
void console_bust(void);

void serial_init(void);
void vga_init(void);

/* Write to COM1 directly, before the consoles are up (serial_init first). */
void serial_puts(const char *s);

/* Wait until the UART has sent everything written so far. */
void serial_flush(void);

#endif
