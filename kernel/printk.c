/*
 * printk.c - the kernel's one way to print: format a message and hand it
 * to every registered console (serial, VGA).
 *
 * Interrupts are held off while a message is written so that a printk
 * from an interrupt handler cannot cut another message in half.
 */
#include <kernel.h>
#include <console.h>
#include <asm/privileged.h>

static struct console *consoles;

void register_console(struct console *con)
{
	con->next = consoles;
	consoles = con;
}

void unregister_console(struct console *con)
{
	struct console **p;

	for (p = &consoles; *p; p = &(*p)->next) {
		if (*p == con) {
			*p = con->next;
			return;
		}
	}
}

static void console_write(const char *s, size_t n)
{
	struct console *con;

	for (con = consoles; con; con = con->next)
		con->write(s, n);
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[512];
	unsigned long flags;
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;	/* truncated, still printed */
	flags = raw_local_irq_save();
	console_write(buf, n);
	raw_local_irq_restore(flags);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}
