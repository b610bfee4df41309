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
 * It is the one lock the lock debugger does not check: it is taken
 * with the ticket lock's own operations (asm/spinlock.h), not
 * spin_lock, because the debugger reports through printk - a checked
 * console lock would check itself, and printk and the debugger would
 * call each other.  Its place in the order needs no check: it is the
 * innermost lock, and printk takes no other inside it.
 *
 * Two ways past the lock, both for printing that must not wait:
 *   - a printk on the CPU that is writing already (a fault in a console
 *     driver) writes at once: waiting would be waiting for itself;
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
#include <asm/percpu.h>
#include <asm/smp.h>

/* How many tries a printk after console_bust() gives the lock. */
#define BUSTED_TRIES	1000000

static struct console *consoles;
DEFINE_SPINLOCK(console_lock, LOCK_RANK_CONSOLE);	/* console.h */
/* The CPU writing under console_lock, -1 if none (its recursion test). */
static volatile int console_writer = -1;
static volatile bool console_busted;

/* The CPU we run on.  With one CPU it is 0 without asking: printk may
 * run before the per-CPU area exists (a loader that is not Multiboot is
 * told so first thing), and the APs come long after it. */
static int this_cpu(void)
{
	return num_online_cpus() > 1 ? (int)smp_processor_id() : 0;
}

/* The console lock, interrupts off first (flags: as they were). */
static unsigned long console_lock_irqsave(void)
{
	unsigned long flags = raw_local_irq_save();

	arch_spin_lock(&console_lock.raw);
	return flags;
}

static void console_unlock_irqrestore(unsigned long flags)
{
	arch_spin_unlock(&console_lock.raw);
	raw_local_irq_restore(flags);
}

void register_console(struct console *con)
{
	unsigned long flags = console_lock_irqsave();

	con->next = consoles;
	consoles = con;
	console_unlock_irqrestore(flags);
}

void unregister_console(struct console *con)
{
	unsigned long flags = console_lock_irqsave();
	struct console **p;

	for (p = &consoles; *p; p = &(*p)->next) {
		if (*p == con) {
			*p = con->next;
			break;
		}
	}
	console_unlock_irqrestore(flags);
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
		if (arch_spin_trylock(&console_lock.raw))
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
		arch_spin_lock(&console_lock.raw);
		locked = true;
	}
	console_writer = this_cpu();
	console_write(s, n);
	console_writer = -1;
	if (locked)
		arch_spin_unlock(&console_lock.raw);
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

/* Text that comes in pieces (a user's write) is printed a message per
 * run of whole lines, so that a line is cut by another CPU's only when
 * it is longer than a piece. */
size_t printk_whole_lines(const char *s, size_t n)
{
	size_t i;

	for (i = n; i > 0; i--)
		if (s[i - 1] == '\n')
			return i;
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
