/*
 * test_backtrace.c - a backtrace follows the kernel stack of the task it
 * is taken on, not only the boot stack: a kernel thread prints one, and
 * the first return address must lie in the function that called the
 * dumper (a known name, looked up in the kernel's symbol table).  A
 * backtrace taken in a handler of an entry from user mode ends at that
 * entry, whatever the user's EBP says.
 */
#include <console.h>
#include <ksyms.h>
#include <ktest.h>
#include <string.h>
#include <task.h>
#include <asm/traps.h>
#include <asm/segment.h>

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

/*
 * A made-up chain on this stack: a handler's frame, then trap_dispatch's,
 * which returns into the entry code (ret_from_trap) below the entry's
 * struct pt_regs, whose EBP leads on to one more frame.  The walk must
 * follow that EBP after an entry from the kernel, and stop after one
 * from user mode: ring 3 or virtual-8086 mode (CS 0x1000, EFLAGS.VM).
 */
#define HANDLER_RETURN	0x00101234u	/* any address: only printed */
#define BEYOND_RETURN	0x00105678u

struct made_up_entry {
	u32 handler[2];		/* saved EBP, return address */
	u32 dispatch[2];
	struct pt_regs regs;
	u32 beyond[2];		/* where the interrupted code's EBP points */
};

static bool walk_goes_beyond(u32 cs, u32 eflags)
{
	struct made_up_entry e = {
		.handler = { 0, HANDLER_RETURN },
		.dispatch = { 0, (u32)ret_from_trap },
		.regs = { .cs = cs, .eflags = eflags },
		.beyond = { 0, BEYOND_RETURN },
	};
	char beyond[12];

	e.handler[0] = (u32)e.dispatch;
	e.dispatch[0] = (u32)e.beyond;
	e.regs.ebp = (u32)e.beyond;
	captured_len = 0;
	register_console(&capture);
	show_backtrace((u32)e.handler);
	unregister_console(&capture);
	snprintf(beyond, sizeof(beyond), " %08x", BEYOND_RETURN);
	return strstr(captured, beyond) != NULL;
}

KTEST(backtrace_stops_at_entry_from_user_mode)
{
	char want[48];

	KT_EXPECT(walk_goes_beyond(__KERNEL_CS, X86_EFLAGS_FIXED));
	KT_EXPECT(!walk_goes_beyond(__USER_CS, X86_EFLAGS_FIXED | X86_EFLAGS_IF));
	snprintf(want, sizeof(want), "backtrace: %08x %08x (user mode)\n",
		 HANDLER_RETURN, (u32)ret_from_trap);
	KT_EXPECT(strstr(captured, want) != NULL);
	KT_EXPECT(!walk_goes_beyond(0x1000, X86_EFLAGS_VM | X86_EFLAGS_FIXED));
	KT_EXPECT(strstr(captured, want) != NULL);
}
