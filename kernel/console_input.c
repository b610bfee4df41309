/*
 * console_input.c - the console's input queue: a ring of bytes that the
 * serial and keyboard interrupt handlers fill and the shell empties.
 *
 * The queue is bounded: a flood of input (a paste, a stuck key, a test
 * that sends faster than the shell reads) drops what does not fit, and
 * the reader is told how much was lost the next time it reads, so the
 * loss is never silent.  The reader sleeps on the queue; a byte wakes it.
 *
 * The input interrupts arrive on the boot CPU, and the reader may run on
 * any: input_lock guards the queue, and the reader sleeps by handing it
 * to the run queue (sched_sleep_on_lock), so a byte that comes between
 * its look at the queue and its sleep still wakes it.
 */
#include <kernel.h>
#include <console_input.h>
#include <spinlock.h>
#include <task.h>
#include <asm/platform.h>
#include <asm/privileged.h>

static char queue[CONSOLE_INPUT_SIZE];
static unsigned int head, tail;		/* read at head, write at tail */
static unsigned long dropped;
static DEFINE_SPINLOCK(input_lock, LOCK_RANK_CONSOLE_INPUT);	/* all three */

void console_input_init(void)
{
	printk("console: input from %s\n", platform->console_input_init(console_input_put));
}

/* From the input interrupt's handler: interrupts are off. */
void console_input_put(char c)
{
	spin_lock(&input_lock);
	if (tail - head == CONSOLE_INPUT_SIZE)
		dropped++;
	else
		queue[tail++ % CONSOLE_INPUT_SIZE] = c;
	spin_unlock(&input_lock);
	sched_wake_up(queue);
}

bool console_input_empty(void)
{
	return head == tail;
}

static void report_dropped(unsigned long n)
{
	printk("\nconsole: input too fast, %lu bytes dropped (the queue holds %u)\n",
	       n, CONSOLE_INPUT_SIZE);
}

int console_getc(void)
{
	unsigned long flags, lost;
	int c;

	spin_lock_irqsave(&input_lock, &flags);
	while (head == tail)
		sched_sleep_on_lock(queue, &input_lock);
	c = (u8)queue[head++ % CONSOLE_INPUT_SIZE];
	lost = dropped;
	dropped = 0;
	spin_unlock_irqrestore(&input_lock, flags);
	if (lost)
		report_dropped(lost);
	return c;
}
