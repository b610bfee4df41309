/*
 * console_capture.c - a console (include/console.h) that writes into a
 * buffer instead of a device, so a test can read back what the kernel
 * printed while it ran: registered for the duration of a check, beside
 * the real consoles, which go on printing as usual.
 *
 * One capture at a time; the buffer keeps the first CAPTURE_SIZE - 1
 * bytes and notes whether more came.
 */
#include <console.h>
#include <string.h>
#include <asm/privileged.h>
#include "console_capture.h"

static char text[CAPTURE_SIZE];
static size_t used;
static bool overflowed;
/* Bit i: a console write (one printk's message) began at text[i]. */
static u8 write_starts[CAPTURE_SIZE / 8];

static bool write_starts_at(size_t i)
{
	return write_starts[i / 8] & (1u << (i % 8));
}

static void capture_write(const char *s, size_t n)
{
	size_t room = sizeof(text) - 1 - used;

	if (n && room)
		write_starts[used / 8] |= 1u << (used % 8);
	if (n > room) {
		overflowed = true;
		n = room;
	}
	memcpy(text + used, s, n);
	used += n;
	text[used] = '\0';
}

static struct console capture_console = {
	.name = "capture",
	.write = capture_write,
};

void capture_start(void)
{
	unsigned long flags = raw_local_irq_save();	/* printk may run in an IRQ */

	used = 0;
	text[0] = '\0';
	overflowed = false;
	memset(write_starts, 0, sizeof(write_starts));
	raw_local_irq_restore(flags);
	register_console(&capture_console);
}

void capture_stop(void)
{
	unregister_console(&capture_console);
}

bool capture_overflowed(void)
{
	return overflowed;
}

/* The start of the kept line after the one at p (or NULL). */
static const char *next_line(const char *p)
{
	while (*p && *p != '\n')
		p++;
	return *p ? p + 1 : NULL;
}

static const char *find_line(const char *prefix, const char *from)
{
	size_t n = strlen(prefix);
	const char *p;

	for (p = from; p && *p; p = next_line(p))
		if (!strncmp(p, prefix, n))
			return p;
	return NULL;
}

bool captured_nth_line(const char *prefix, unsigned int nth, char *line, size_t size)
{
	const char *p = find_line(prefix, text);
	size_t n = 0;

	while (p && nth--)
		p = find_line(prefix, next_line(p));
	if (!p)
		return false;
	while (p[n] && p[n] != '\n' && p[n] != '\r' && n + 1 < size) {
		line[n] = p[n];
		n++;
	}
	line[n] = '\0';
	return true;
}

bool captured_line(const char *prefix, char *line, size_t size)
{
	return captured_nth_line(prefix, 0, line, size);
}

unsigned int captured_lines(const char *prefix)
{
	const char *p = text;
	unsigned int count = 0;

	while ((p = find_line(prefix, p))) {
		count++;
		p = next_line(p);
	}
	return count;
}

bool captured_anywhere(const char *s)
{
	return strstr(text, s) != NULL;
}

bool captured_lines_whole(const char *prefix)
{
	const char *p = text, *end;
	size_t i;

	while ((p = find_line(prefix, p))) {
		end = next_line(p);
		end = end ? end : text + used;
		if (!write_starts_at(p - text))
			return false;
		for (i = p - text + 1; i < (size_t)(end - text); i++)
			if (write_starts_at(i))
				return false;
		p = end;
	}
	return true;
}
