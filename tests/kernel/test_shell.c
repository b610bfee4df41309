/*
 * test_shell.c - the kernel shell's parts that can be checked without a
 * terminal: its number parser, its command table, and the console input
 * queue's bound.  tests/run drives the shell itself over COM1.
 */
#include <ktest.h>
#include <kernel.h>
#include <console_input.h>
#include <shell.h>
#include <string.h>
#include <asm/privileged.h>
#include "console_capture.h"

static bool parses_as(const char *text, u64 want)
{
	u64 v = ~want;

	return !shell_parse_number("ktest", text, &v) && v == want;
}

KTEST(shell_numbers_parse)
{
	u64 v;

	KT_EXPECT(parses_as("0", 0));
	KT_EXPECT(parses_as("372", 372));
	KT_EXPECT(parses_as("0x174", 0x174));
	KT_EXPECT(parses_as("0XaBcD", 0xabcd));
	KT_EXPECT(parses_as("18446744073709551615", ~0ull));
	KT_EXPECT(parses_as("0xffffffffffffffff", ~0ull));
	capture_start();
	KT_EXPECT_EQ(shell_parse_number("ktest", "18446744073709551616", &v), -EINVAL);
	KT_EXPECT_EQ(shell_parse_number("ktest", "0x10000000000000000", &v), -EINVAL);
	KT_EXPECT_EQ(shell_parse_number("ktest", "0x", &v), -EINVAL);
	KT_EXPECT_EQ(shell_parse_number("ktest", "-1", &v), -EINVAL);
	KT_EXPECT_EQ(shell_parse_number("ktest", "12z", &v), -EINVAL);
	KT_EXPECT_EQ(shell_parse_number("ktest", "0x1g", &v), -EINVAL);
	capture_stop();
	KT_EXPECT_EQ(captured_lines("ktest: bad number '"), 6);
}

KTEST(shell_commands_are_named_once)
{
	const struct shell_command *c, *d;
	unsigned int n = 0;

	for_each_shell_command(c) {
		n++;
		KT_EXPECT(c->name && c->name[0] && c->run && c->usage && c->help && c->help[0]);
		for (d = c + 1; d < __stop_shell_commands; d++)
			KT_EXPECT(strcmp(c->name, d->name) != 0);
	}
	KT_EXPECT(n >= 14);	/* help ... vm: the shell's own */
}

/* More than the queue holds: the rest is dropped, what is kept comes out
 * in order, and the reader is told how much was lost. */
KTEST(console_input_queue_drops_a_flood)
{
	unsigned long flags = raw_local_irq_save();
	unsigned int i, in_order = 0;
	char line[96];

	if (!console_input_empty()) {	/* run from the shell, typed ahead */
		raw_local_irq_restore(flags);
		KT_SKIP("input is waiting in the console queue");
	}
	for (i = 0; i < CONSOLE_INPUT_SIZE + 10; i++)
		console_input_put('a' + i % 26);
	capture_start();
	for (i = 0; i < CONSOLE_INPUT_SIZE; i++)	/* never empty: no sleep */
		in_order += console_getc() == 'a' + (int)(i % 26);
	capture_stop();
	raw_local_irq_restore(flags);
	KT_EXPECT_EQ(in_order, CONSOLE_INPUT_SIZE);
	KT_EXPECT(captured_line("console: input too fast", line, sizeof(line)));
	KT_EXPECT(captured_anywhere("10 bytes dropped"));
}
