/*
 * console_input.c - the console's input queue: a ring of bytes that the
 * serial and keyboard interrupt handlers fill and the shell empties.
 *
 * The queue is bounded: a flood of input (a paste, a stuck key, a test
 * that sends faster than the shell reads) drops what does not fit, and
 * the reader is told how much was lost the next time it reads, so the
 * loss is never silent.  The reader sleeps on the queue; a byte wakes it.
 * Uniprocessor: interrupts off is the lock.
 */
#include <kernel.h>
#include <console_input.h>
#include <task.h>
#include <asm/platform.h>
#include <asm/privileged.h>

static char queue[CONSOLE_INPUT_SIZE];
static unsigned int head, tail;		/* read at head, write at tail */
static unsigned long dropped;

void console_input_init(void)
{
	printk("console: input from %s\n", platform->console_input_init(console_input_put));
}

void console_input_put(char c)
{
	if (tail - head == CONSOLE_INPUT_SIZE) {
		dropped++;
		return;
	}
	queue[tail++ % CONSOLE_INPUT_SIZE] = c;
	sched_wake_up(queue);
}

bool console_input_empty(void)
{
	return head == tail;
}

static void report_dropped(void)
{
	unsigned long n = dropped;

	dropped = 0;
	printk("\nconsole: input too fast, %lu bytes dropped (the queue holds %u)\n",
	       n, CONSOLE_INPUT_SIZE);
}

int console_getc(void)
{
	unsigned long flags = raw_local_irq_save();
	int c;

	while (head == tail)
		sched_sleep_on(queue);
	c = (u8)queue[head++ % CONSOLE_INPUT_SIZE];
	if (dropped)
		report_dropped();
	raw_local_irq_restore(flags);
	return c;
}
