/*
 * prompt.c - the LILO-style `boot:` prompt.
 *
 * It waits PROMPT_TICKS (about 2 s) for a key on the keyboard or a byte
 * on COM1; if none comes it boots the default line from the kernel
 * header.  Once the user starts typing there is no timeout: the typed
 * line (Backspace edits, Enter ends) replaces the default, and an empty
 * line means the default.
 */
#include "loader.h"

#define PROMPT_TICKS	37	/* 18.2 ticks a second */
#define KEY_BACKSPACE	0x08
#define KEY_DELETE	0x7f	/* what a serial terminal sends for Backspace */

static int wait_key(u32 ticks)
{
	u32 start = bios_ticks();
	int c;

	while ((c = console_getc()) < 0)
		if (bios_ticks() - start >= ticks)
			return -1;
	return c;
}

static int wait_key_forever(void)
{
	int c;

	while ((c = console_getc()) < 0)
		;
	return c;
}

/* Read a line starting with key c into line (CMDLINE_MAX bytes). */
static void read_line(int c, char *line)
{
	u32 len = 0;

	for (;; c = wait_key_forever()) {
		if (c == '\r' || c == '\n')
			break;
		if ((c == KEY_BACKSPACE || c == KEY_DELETE) && len) {
			len--;
			print("\b \b");
		} else if (c >= ' ' && c < 0x7f && len < CMDLINE_MAX - 1) {
			line[len++] = (char)c;
			console_putc((char)c);
		}
	}
	line[len] = '\0';
	console_putc('\n');
}

void prompt(const char *default_line, char *line)
{
	int c;

	print("boot: ");
	c = wait_key(PROMPT_TICKS);
	if (c >= 0)
		read_line(c, line);
	if (c < 0 || !line[0]) {
		memcpy(line, default_line, strlen(default_line) + 1);
		if (c < 0)
			print("%s\n", line);
	}
	print("loader: command line '%s'\n", line);
}
