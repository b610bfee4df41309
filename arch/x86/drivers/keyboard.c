/*
 * keyboard.c - the PS/2 keyboard behind the i8042 controller, on IRQ 1,
 * as console input.
 *
 * The controller translates whatever the keyboard speaks into scancode
 * set 1 (the firmware leaves translation on, and we make sure): one byte
 * per key press, the same byte | 0x80 when it is released, and 0xe0
 * before the keys the original PC keyboard did not have (the arrows,
 * Home, End, Delete).  Shift, Ctrl and Caps Lock change what a key
 * gives; the arrows and friends become the escape sequences a serial
 * terminal would send (console_input.h), so the shell reads one language.
 *
 * A machine without an 8042 (reads of its status port float to 0xff, or
 * it never answers) simply has no keyboard: input is serial only.
 */
#include <kernel.h>
#include <console_input.h>
#include <asm/io.h>
#include <asm/irq.h>

#define I8042_DATA	0x60
#define I8042_STATUS	0x64	/* read: status; write: a command */
#define STATUS_OUT_FULL	0x01	/* a byte waits at the data port */
#define STATUS_IN_FULL	0x02	/* the controller has not taken our last byte */
#define CMD_READ_CONFIG	0x20
#define CMD_WRITE_CONFIG 0x60
#define CONFIG_IRQ1	0x01
#define CONFIG_TRANSLATE 0x40	/* give us set 1, whatever the keyboard speaks */
#define IRQ_KEYBOARD	1

#define SC_RELEASE	0x80
#define SC_EXTENDED	0xe0
#define SC_LSHIFT	0x2a
#define SC_RSHIFT	0x36
#define SC_CTRL		0x1d	/* left; right is 0xe0 0x1d */
#define SC_CAPS		0x3a

/* Set 1 make codes 0x00-0x39 without and with Shift; 0: not a character. */
static const char plain[0x3a] =
	"\0\x1b" "1234567890-=\b\t" "qwertyuiop[]\r\0" "asdfghjkl;'`\0\\"
	"zxcvbnm,./\0*\0 ";
static const char shifted[0x3a] =
	"\0\x1b" "!@#$%^&*()_+\b\t" "QWERTYUIOP{}\r\0" "ASDFGHJKL:\"~\0|"
	"ZXCVBNM<>?\0*\0 ";

static bool shift_left, shift_right, ctrl, caps, extended;

/* Keys after 0xe0 that mean something to a line editor. */
static const char *extended_key(u8 code)
{
	switch (code) {
	case 0x48: return "\x1b[A";	/* Up */
	case 0x50: return "\x1b[B";	/* Down */
	case 0x4d: return "\x1b[C";	/* Right */
	case 0x4b: return "\x1b[D";	/* Left */
	case 0x47: return "\x1b[H";	/* Home */
	case 0x4f: return "\x1b[F";	/* End */
	case 0x53: return "\x1b[3~";	/* Delete */
	case 0x1c: return "\r";		/* keypad Enter */
	default: return NULL;
	}
}

/* Shift and Ctrl while held, Caps Lock on each press: true if code was one. */
static bool track_modifier(u8 code, bool released)
{
	switch (code) {
	case SC_LSHIFT: shift_left = !released; return true;
	case SC_RSHIFT: shift_right = !released; return true;
	case SC_CTRL: ctrl = !released; return true;
	case SC_CAPS: caps ^= !released; return true;
	default: return false;
	}
}

/* The character a make code gives now, or 0. */
static char key_char(u8 code)
{
	bool shift = shift_left || shift_right;
	char c;

	if (code >= sizeof(plain))
		return 0;
	c = shift ? shifted[code] : plain[code];
	if (caps && ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))
		c ^= 0x20;		/* Caps Lock inverts the case Shift gave */
	if (ctrl && (c | 0x20) >= 'a' && (c | 0x20) <= 'z')
		c &= 0x1f;		/* Ctrl-A is 1 ... Ctrl-Z is 26 */
	return c;
}

static console_receive_fn receive;	/* the console's input queue */

static void keyboard_scancode(u8 sc)
{
	bool released = sc & SC_RELEASE, was_extended = extended;
	u8 code = sc & ~SC_RELEASE;
	const char *seq;
	char c;

	extended = sc == SC_EXTENDED;
	/* e0 2a / e0 aa: the "fake Shift" a keyboard sends around the
	 * arrows and friends with NumLock on; it is no Shift at all. */
	if (extended || (was_extended && (code == SC_LSHIFT || code == SC_RSHIFT)))
		return;
	if (track_modifier(code, released) || released)
		return;
	if (was_extended) {
		for (seq = extended_key(code); seq && *seq; seq++)
			receive(*seq);
		return;
	}
	if ((c = key_char(code)))
		receive(c);
}

static void keyboard_interrupt(struct pt_regs *regs)
{
	(void)regs;
	if (inb(I8042_STATUS) & STATUS_OUT_FULL)
		keyboard_scancode(inb(I8042_DATA));
}

/* Wait (a bounded while) for the controller to take a byte. */
static bool i8042_wait_write(void)
{
	int spins = 100000;

	while ((inb(I8042_STATUS) & STATUS_IN_FULL) && --spins)
		;
	return spins != 0;
}

static bool i8042_wait_read(void)
{
	int spins = 100000;

	while (!(inb(I8042_STATUS) & STATUS_OUT_FULL) && --spins)
		;
	return spins != 0;
}

static void i8042_flush(void)
{
	int limit = 32;

	while ((inb(I8042_STATUS) & STATUS_OUT_FULL) && limit--)
		inb(I8042_DATA);
}

/* Translation and IRQ 1 on, in the controller's configuration byte. */
static bool i8042_enable_irq(void)
{
	u8 config;

	if (!i8042_wait_write())
		return false;
	outb(I8042_STATUS, CMD_READ_CONFIG);
	if (!i8042_wait_read())
		return false;
	config = inb(I8042_DATA) | CONFIG_IRQ1 | CONFIG_TRANSLATE;
	if (!i8042_wait_write())
		return false;
	outb(I8042_STATUS, CMD_WRITE_CONFIG);
	if (!i8042_wait_write())
		return false;
	outb(I8042_DATA, config);
	return true;
}

bool keyboard_init(console_receive_fn receiver)
{
	receive = receiver;
	if (inb(I8042_STATUS) == 0xff)		/* nothing answers at the port */
		return false;
	i8042_flush();
	if (!i8042_enable_irq())
		return false;
	i8042_flush();
	request_irq(IRQ_KEYBOARD, keyboard_interrupt);
	return true;
}
