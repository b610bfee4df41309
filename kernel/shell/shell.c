/*
 * shell/shell.c - the kernel shell, in the spirit of JOS's kernel monitor: a
 * prompt on the serial console and the VGA screen, one command a line.
 *
 *     pv386> help
 *
 * The boot thread becomes the shell once the boot is done (unless booted
 * with `test` or `bench`).  It reads the console's input queue
 * (kernel/console_input.c), which sleeps while nothing is typed: the idle
 * task, the timer and user programs run meanwhile.  Commands are not
 * listed here: each file declares its own with shell_command() (shell.h)
 * and this file finds them in their section.
 *
 * The line editor speaks what both a serial terminal and the VGA console
 * understand - printable characters, \r and \b - so the same echo
 * redraws a line on both.  Bad input is answered, never fatal: an
 * unknown command, a line too long, a control character.
 */
#include <kernel.h>
#include <console_input.h>
#include <shell.h>
#include <spinlock.h>
#include <string.h>
#include <task.h>

#define PROMPT		"pv386> "
#define LINE_MAX	128		/* with its terminating NUL */
#define HISTORY_LINES	16
#define MAX_ARGS	16

#define CTRL(c)		((c) & 0x1f)
#define DEL		0x7f
#define ESC		0x1b
#define KEY_DELETE	0x100		/* not a byte: decoded from ESC [ 3 ~ */

struct line {
	char text[LINE_MAX];
	unsigned int len, pos;		/* characters, and the cursor */
	bool too_long;			/* characters past LINE_MAX were lost */
	int browsing;			/* history entry shown, -1 for none */
};

/*
 * The shell's state shared by whoever runs commands - the shell's own
 * thread and, on another CPU perhaps, a test running shell commands - is
 * its history: shell_lock (rank LOCK_RANK_SHELL, the outermost) guards
 * it.  It is never held around a command (a command may sleep: `run`
 * waits for its program), only around the history's reads and writes,
 * which may print (the console's lock is far above it).  The line being
 * edited, and read_line's after_cr, belong to the one thread reading the
 * console, and need none.
 */
static char history[HISTORY_LINES][LINE_MAX];
static unsigned int history_count;	/* lines ever entered */
static DEFINE_SPINLOCK(shell_lock, LOCK_RANK_SHELL);

/* ---- drawing ---- */

/* Put the cursor back from the end of what was drawn to line->pos. */
static void cursor_back(unsigned int n)
{
	while (n--)
		printk("\b");
}

/* The whole line again: for history, ^U, a message in between. */
static void redraw(const struct line *l, unsigned int old_len)
{
	unsigned int i;

	printk("\r" PROMPT "%s", l->text);
	for (i = l->len; i < old_len; i++)
		printk(" ");
	cursor_back(max(l->len, old_len) - l->pos);
}

static void set_text(struct line *l, const char *text)
{
	unsigned int old = l->len;

	strlcpy(l->text, text, LINE_MAX);
	l->len = l->pos = strlen(l->text);
	redraw(l, old);
}

/* ---- editing ---- */

static void insert_char(struct line *l, char c)
{
	if (l->len == LINE_MAX - 1) {
		l->too_long = true;	/* said at Enter; nothing more echoed */
		return;
	}
	memmove(l->text + l->pos + 1, l->text + l->pos, l->len - l->pos + 1);
	l->text[l->pos++] = c;
	l->len++;
	printk("%s", l->text + l->pos - 1);
	cursor_back(l->len - l->pos);
}

/* Remove the character under the cursor (Delete; Backspace moves first). */
static void delete_char(struct line *l)
{
	if (l->pos == l->len)
		return;
	memmove(l->text + l->pos, l->text + l->pos + 1, l->len - l->pos);
	l->len--;
	printk("%s ", l->text + l->pos);
	cursor_back(l->len - l->pos + 1);
}

static void backspace(struct line *l)
{
	if (!l->pos)
		return;
	l->pos--;
	printk("\b");
	delete_char(l);
}

/* Left is a backspace; right is the character passed over, again. */
static void move_cursor(struct line *l, unsigned int to)
{
	char passed[LINE_MAX];

	if (to < l->pos) {
		cursor_back(l->pos - to);
	} else if (to > l->pos) {
		strlcpy(passed, l->text + l->pos, to - l->pos + 1);
		printk("%s", passed);
	}
	l->pos = to;
}

/* ---- history ---- */

static const char *history_line(unsigned int age)	/* 0 is the newest */
{
	return history[(history_count - 1 - age) % HISTORY_LINES];
}

static void history_add(const char *text)
{
	unsigned long flags;

	spin_lock_irqsave_call(&shell_lock, &flags);
	if (*text && !(history_count && !strcmp(history_line(0), text)))
		strlcpy(history[history_count++ % HISTORY_LINES], text, LINE_MAX);
	spin_unlock_irqrestore_call(&shell_lock, flags);
}

/* Up (older) or Down (newer); below the newest is an empty line. */
static void history_browse(struct line *l, int step)
{
	unsigned long flags;
	int kept, to = l->browsing + step;

	spin_lock_irqsave_call(&shell_lock, &flags);
	kept = min(history_count, (unsigned int)HISTORY_LINES);
	if (to < kept && to >= -1) {
		l->browsing = to;
		set_text(l, to < 0 ? "" : history_line(to));
	}
	spin_unlock_irqrestore_call(&shell_lock, flags);
}

/* ---- keys ---- */

/*
 * What follows ESC: "[" (or "O"), perhaps a number, and a final byte -
 * A..D the arrows, H and F (or 1~ 7~, 4~ 8~) Home and End, 3~ Delete.
 * A sequence we do not use is read to its end and ignored, so its bytes
 * do not land in the line.  Returns the byte after a lone ESC (the Esc
 * key, then another key), which is the caller's to handle, or 0.
 */
static int escape_sequence(struct line *l)
{
	int c = console_getc(), n = 0;

	if (c != '[' && c != 'O')
		return c;
	while ((c = console_getc()) == ';' || (c >= '0' && c <= '9'))
		n = c == ';' ? n : n * 10 + c - '0';
	if (c == '~')		/* the VT220 way: a number says which key */
		c = n == 3 ? KEY_DELETE : n == 1 || n == 7 ? 'H' : n == 4 || n == 8 ? 'F' : 0;
	switch (c) {
	case 'A': history_browse(l, 1); break;
	case 'B': history_browse(l, -1); break;
	case 'C': move_cursor(l, min(l->pos + 1, l->len)); break;
	case 'D': move_cursor(l, l->pos ? l->pos - 1 : 0); break;
	case KEY_DELETE: delete_char(l); break;
	case 'H': move_cursor(l, 0); break;
	case 'F': move_cursor(l, l->len); break;
	default: break;			/* a key we do not use */
	}
	return 0;
}

/* Returns a byte still to be handled (the key after a lone Esc), or 0. */
static int control_char(struct line *l, int c)
{
	switch (c) {
	case '\b': case DEL: backspace(l); return 0;
	case CTRL('U'): set_text(l, ""); return 0;
	case CTRL('A'): move_cursor(l, 0); return 0;
	case CTRL('E'): move_cursor(l, l->len); return 0;
	case ESC: return escape_sequence(l);
	}
	if (c < 0x20)
		printk("\nshell: control character ^%c ignored\n", c + '@');
	else
		printk("\nshell: character 0x%02x ignored (ASCII only)\n", c);
	redraw(l, 0);
	return 0;
}

/*
 * Read one line into l.  Enter is \r or \n; \r\n counts once (the \n
 * right after a \r is dropped).  ^C abandons the line: false.
 */
static bool read_line(struct line *l)
{
	static bool after_cr;
	int c, pending = 0;

	memset(l, 0, sizeof(*l));
	l->browsing = -1;
	for (;;) {
		c = pending ? pending : console_getc();
		pending = 0;
		if (c == '\n' && after_cr) {
			after_cr = false;
			continue;
		}
		after_cr = c == '\r';
		if (c == '\r' || c == '\n')
			break;
		if (c == CTRL('C')) {
			printk("^C\n");
			return false;
		}
		if (c >= 0x20 && c < DEL)
			insert_char(l, c);
		else
			pending = control_char(l, c);
	}
	printk("\n");
	return true;
}

/* ---- commands ---- */

/* Split text into words in place: their number, or -EINVAL if too many. */
static int split_words(char *text, char **argv)
{
	int argc = 0;

	for (;;) {
		while (*text == ' ' || *text == '\t')
			*text++ = '\0';
		if (!*text)
			return argc;
		if (argc == MAX_ARGS)
			return -EINVAL;
		argv[argc++] = text;
		while (*text && *text != ' ' && *text != '\t')
			text++;
	}
}

const struct shell_command *shell_find_command(const char *name)
{
	const struct shell_command *c;

	for_each_shell_command(c)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static void execute(char *text)
{
	char *argv[MAX_ARGS + 1];
	const struct shell_command *cmd;
	int argc = split_words(text, argv);

	if (argc < 0) {
		printk("shell: too many words (at most %d)\n", MAX_ARGS);
		return;
	}
	if (!argc)
		return;
	argv[argc] = NULL;
	cmd = shell_find_command(argv[0]);
	if (!cmd)
		printk("shell: unknown command '%s' (help lists them)\n", argv[0]);
	else
		cmd->run(argc, argv);
}

/* User programs the shell started (run) that have ended meanwhile. */
static void report_ended_children(void)
{
	int pid, status;

	while ((pid = task_reap(&status)) > 0) {
		if (status == EXIT_KILLED_BY_REQUEST)
			printk("shell: pid %d was killed (kill)\n", pid);
		else if (status <= EXIT_KILLED(0))
			printk("shell: pid %d was killed by exception %d\n", pid,
			       EXIT_KILLED(0) - status);
		else
			printk("shell: pid %d exited with status %d\n", pid, status);
	}
}

void __noreturn shell_run(void)
{
	struct line l;

	console_input_init();
	printk("shell: ready; type help for the commands\n");
	for (;;) {
		report_ended_children();
		printk(PROMPT);
		if (!read_line(&l))
			continue;
		if (l.too_long) {
			printk("shell: line too long (more than %d characters), discarded\n",
			       LINE_MAX - 1);
			continue;
		}
		history_add(l.text);
		execute(l.text);
	}
}

/* ---- the shell's own commands ---- */

/* The command whose name comes next after prev's in alphabetical order
 * (the first with prev NULL): the linker keeps no order worth showing. */
static const struct shell_command *next_by_name(const struct shell_command *prev)
{
	const struct shell_command *c, *best = NULL;

	for_each_shell_command(c)
		if ((!prev || strcmp(c->name, prev->name) > 0) &&
		    (!best || strcmp(c->name, best->name) < 0))
			best = c;
	return best;
}

static int cmd_help(int argc, char **argv)
{
	const struct shell_command *c = NULL;

	(void)argc;
	(void)argv;
	while ((c = next_by_name(c)))
		printk("  %-8s %-16s %s\n", c->name, c->usage, c->help);
	printk("  Keys: Left/Right, Home/End (^A/^E), Backspace, Delete, ^U clears the\n"
	       "  line, ^C abandons it, Up/Down walk the last %d lines.\n", HISTORY_LINES);
	return 0;
}
shell_command("help", cmd_help, "", "this list");

static int cmd_history(int argc, char **argv)
{
	unsigned int age, kept;
	unsigned long flags;

	(void)argc;
	(void)argv;
	spin_lock_irqsave_call(&shell_lock, &flags);
	kept = min(history_count, (unsigned int)HISTORY_LINES);
	for (age = kept; age-- > 0;)
		printk("  %4u  %s\n", history_count - age, history_line(age));
	spin_unlock_irqrestore_call(&shell_lock, flags);
	return 0;
}
shell_command("history", cmd_history, "", "the last lines entered");

static unsigned int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
		return (c | 0x20) - 'a' + 10;
	return ~0u;
}

/* For commands: a number, decimal or 0x hex, up to 64 bits; or a
 * message naming the command and -EINVAL. */
int shell_parse_number(const char *what, const char *text, u64 *out)
{
	bool hex = text[0] == '0' && (text[1] | 0x20) == 'x';
	unsigned int base = hex ? 16 : 10, d;
	u64 limit = hex ? ~0ull >> 4 : ~0ull / 10;	/* no 64-bit division */
	const char *s = text + (hex ? 2 : 0);
	u64 v = 0;

	for (d = 0; *s && (d = digit_value(*s)) < base && v <= limit; s++) {
		if (v * base + d < v * base)
			break;		/* the last digit overflowed */
		v = v * base + d;
	}
	if (*s || s == text + (hex ? 2 : 0)) {
		printk("%s: bad number '%s' (decimal, or hex with 0x; 64 bits at most)\n",
		       what, text);
		return -EINVAL;
	}
	*out = v;
	return 0;
}
