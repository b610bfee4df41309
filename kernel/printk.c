/*
 * printk.c - the kernel's one way to print: format a message and hand it
 * to every registered console (serial, VGA).
 *
 * console_lock (rank LOCK_RANK_CONSOLE, the innermost: code holding any
 * lock may print) makes each message one piece on every console: a line
 * from one CPU is never cut by another's.  It is taken with interrupts
 * off, so that a printk from an interrupt handler neither cuts a message
 * on its own CPU in half nor spins on the lock the code it interrupted
 * holds.  The consoles' write functions run only under it.
 *
 * Two ways past the lock, both for printing that must not wait:
 *   - a printk on the CPU that is writing already (a fault in a console
 *     driver, or the lock debugger reporting on the console lock itself)
 *     writes at once: waiting would be waiting for itself;
 *   - after console_bust() (panic) a printk waits for the lock only a
 *     bounded time, then writes without it: the CPU that holds it may
 *     have stopped for good, and a panic that prints nothing helps no
 *     one.  Lines may then mix; the panic's own are there.  This is what
 *     Linux's bust_spinlocks / oops_in_progress is for.
 */
#include <kernel.h>
#include <console.h>
#include <spinlock.h>
#include <asm/privileged.h>

/* How many tries a printk after console_bust() gives the lock. */
#define BUSTED_TRIES	1000000

static struct console *consoles;
DEFINE_SPINLOCK(console_lock, LOCK_RANK_CONSOLE);	/* console.h */
/* The CPU writing under console_lock, -1 if none (its recursion test). */
static volatile int console_writer = -1;
static volatile bool console_busted;

/* The CPU we run on: 0 until per-CPU data (issue 27's i27-percpu) says
 * otherwise; the lead points it there. */
static int this_cpu(void)
{
	return 0;
}

void register_console(struct console *con)
{
	unsigned long flags;

	spin_lock_irqsave_call(&console_lock, &flags);
	con->next = consoles;
	consoles = con;
	spin_unlock_irqrestore_call(&console_lock, flags);
}

void unregister_console(struct console *con)
{
	unsigned long flags;
	struct console **p;

	spin_lock_irqsave_call(&console_lock, &flags);
	for (p = &consoles; *p; p = &(*p)->next) {
		if (*p == con) {
			*p = con->next;
			break;
		}
	}
	spin_unlock_irqrestore_call(&console_lock, flags);
}

/* From panic(): printing from now on waits for the console lock only a
 * bounded time (see the top of this file). */
void console_bust(void)
{
	console_busted = true;
}

static void console_write(const char *s, size_t n)
{
	struct console *con;

	for (con = consoles; con; con = con->next)
		con->write(s, n);
}

/* The console lock for a busted console: true if taken within the
 * bound, false to write without it. */
static bool console_lock_busted(void)
{
	unsigned long tries;

	for (tries = 0; tries < BUSTED_TRIES; tries++) {
		if (spin_trylock(&console_lock))
			return true;
		cpu_relax();
	}
	return false;
}

/* Write one whole message on every console: under the lock, or past it
 * (see the top of this file).  Interrupts are off. */
static void write_message(const char *s, size_t n)
{
	bool locked;

	if (console_writer == this_cpu()) {
		console_write(s, n);		/* nested on this CPU */
		return;
	}
	if (console_busted) {
		locked = console_lock_busted();
	} else {
		spin_lock(&console_lock);
		locked = true;
	}
	console_writer = this_cpu();
	console_write(s, n);
	console_writer = -1;
	if (locked)
		spin_unlock(&console_lock);
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[512];
	unsigned long flags;
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;	/* truncated, still printed */
	flags = raw_local_irq_save();
	write_message(buf, n);
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
