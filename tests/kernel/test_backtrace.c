/*
 * test_backtrace.c - a backtrace follows the kernel stack of the task it
 * is taken on, not only the boot stack: a kernel thread prints one, and
 * the first return address must lie in the function that called the
 * dumper (a known name, looked up in the kernel's symbol table).
 */
#include <console.h>
#include <ksyms.h>
#include <ktest.h>
#include <string.h>
#include <task.h>
#include <asm/traps.h>

static char captured[256];
static size_t captured_len;

static void capture_write(const char *s, size_t n)
{
	while (n-- && captured_len + 1 < sizeof(captured))
		captured[captured_len++] = *s++;
	captured[captured_len] = '\0';
}

static struct console capture = { "ktest-capture", capture_write, NULL };
static volatile bool probe_done;

static void __attribute__((noinline)) print_own_backtrace(void)
{
	show_backtrace((u32)__builtin_frame_address(0));
}

static void backtrace_probe_thread(void)
{
	print_own_backtrace();
	probe_done = true;
}

/* The first address after "backtrace:" in what was printed. */
static u32 first_return_address(void)
{
	const char *p = strstr(captured, "backtrace:");
	u32 v = 0;

	if (!p)
		return 0;
	for (p += strlen("backtrace:"); *p == ' '; p++)
		;
	for (; (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'); p++)
		v = v * 16 + (*p <= '9' ? *p - '0' : *p - 'a' + 10);
	return v;
}

KTEST(backtrace_follows_task_stack)
{
	u32 offset = 0;
	const char *name;

	captured_len = 0;
	probe_done = false;
	register_console(&capture);
	task_create_kernel("bt-probe", backtrace_probe_thread);
	while (!probe_done)
		sched_yield();
	unregister_console(&capture);
	name = ksym_lookup(first_return_address(), &offset);
	KT_EXPECT(name != NULL);
	KT_EXPECT(name && !strcmp(name, "backtrace_probe_thread"));
}
