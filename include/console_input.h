/*
 * console_input.h - what is typed at the console: one queue of bytes fed
 * by the serial port (arch/x86/drivers/serial.c) and the PS/2 keyboard
 * (arch/x86/drivers/keyboard.c), read by the kernel shell (kernel/shell/shell.c).
 *
 * Drivers put bytes from their interrupt handlers; a reader sleeps until
 * there is one.  Keys that are not characters arrive as the escape
 * sequences a serial terminal sends for them (ESC [ A for Up ...), so the
 * shell decodes one language whichever device it came from.
 */
#ifndef PV386_CONSOLE_INPUT_H
#define PV386_CONSOLE_INPUT_H

#include <types.h>

#define CONSOLE_INPUT_SIZE	256	/* bytes queued; more are dropped */

void console_input_init(void);		/* start the input devices */
void console_input_put(char c);		/* from a driver, interrupts off */
int console_getc(void);			/* sleeps until a byte comes */
bool console_input_empty(void);		/* nothing typed waits to be read */

/*
 * The devices (arch/x86): each returns whether it is there, and hands
 * every byte it receives to receive() from its interrupt handler.  The
 * queue is passed in, not called by name, so the drivers depend on no
 * kernel/ code (no call loop through the scheduler the queue wakes).
 */
typedef void (*console_receive_fn)(char c);
bool serial_input_init(console_receive_fn receive);
bool keyboard_init(console_receive_fn receive);

#endif
