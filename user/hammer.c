/*
 * hammer.c - the system-call path hammered from ring 3 while the shell
 * switches backends (`hammer start N` runs a copy per CPU beside
 * `pv cycle N`: kernel/shell/hammer.c, tests/suite/hammer.py).
 *
 * Its argument is how many rounds to make (default 1000).  A round is
 * SYS_nop and SYS_getpid by int $0x80 and by sysenter (where the CPU has
 * it), with known values in the registers a system call must keep, and
 * SYS_uptime, whose tick count may never go back: the entry and exit
 * code runs the irq ops, iret and sysexit, all patch sites.  Every result
 * is checked; a wrong one is printed at once ("hammer: WRONG ...").
 *
 * It counts its rounds by the CPU it found itself on after them: CPUID
 * leaf 1 gives the APIC id (EBX bits 31-24), unprivileged, and the kernel
 * numbers QEMU's CPUs in APIC-id order.  The CPU may change right after
 * CPUID; a count is where the round ended, near enough to show that
 * every CPU ran the path.  It yields every ROUNDS_PER_YIELD rounds so
 * that it moves between CPUs.
 *
 * Beside the rounds, a thread of its own takes a heap page, writes it
 * and gives it back, again and again until the rounds are done: each
 * time the page goes, every other CPU that runs this address space (the
 * main thread, wherever it is) must flush, so a live switch meets TLB
 * shootdowns in flight (docs/smp.md, "TLB shootdown").  A page that
 * does not read back what was written is a wrong result too.  It
 * yields after each page, so that the rounds keep their pace.
 *
 * At the end one line says it all, and the exit status is the number of
 * wrong results (at most 255).
 */
#include "lib/pv386.h"

#define MAX_APIC_IDS		8
#define ROUNDS_PER_YIELD	16
#define WRONG_SHOWN		8
#define PAGE			4096
#define STACK_WORDS		1024

static unsigned int wrong;
static int my_pid;

static void wrong_result(const char *what, long got, long want)
{
	if (++wrong <= WRONG_SHOWN)
		printf("hammer: WRONG in pid %d: %s gave %lx, not %lx\n", my_pid, what,
		       got, want);
}

/* The APIC id of the CPU this runs on now (see the top of the file). */
static unsigned int apic_id(void)
{
	uint32_t a = 1, b, c = 0, d;

	asm volatile("cpuid" : "+a" (a), "=b" (b), "+c" (c), "=d" (d));
	return b >> 24;
}

/* SYS_nop by int $0x80 with marks in %esi, %edi and %ebp, which the
 * kernel must give back; the result must be 0. */
static void nop_keeps_registers(void)
{
	uint32_t esi, edi, ebp, nr = SYS_nop;

	asm volatile("pushl %%ebp\n\t"
		     "movl $0x5a5a0001, %%esi\n\t"
		     "movl $0x5a5a0002, %%edi\n\t"
		     "movl $0x5a5a0003, %%ebp\n\t"
		     "int $0x80\n\t"
		     "movl %%ebp, %%ecx\n\t"
		     "popl %%ebp"
		     : "=S" (esi), "=D" (edi), "=c" (ebp), "+a" (nr)
		     : : "ebx", "edx", "memory");
	if (nr != 0)
		wrong_result("SYS_nop by int $0x80", nr, 0);
	if (esi != 0x5a5a0001 || edi != 0x5a5a0002 || ebp != 0x5a5a0003)
		wrong_result("int $0x80's kept %esi", esi, 0x5a5a0001);
}

/* One round of checked system calls; *ticks is the last uptime seen. */
static void round_of_calls(int sysenter, uint32_t *ticks)
{
	uint32_t up[4];
	long r;

	nop_keeps_registers();
	if ((r = syscall_int80(SYS_getpid, 0, 0, 0)) != my_pid)
		wrong_result("SYS_getpid by int $0x80", r, my_pid);
	if (sysenter) {
		if ((r = syscall_sysenter(SYS_nop, 0, 0, 0)) != 0)
			wrong_result("SYS_nop by sysenter", r, 0);
		if ((r = syscall_sysenter(SYS_getpid, 0, 0, 0)) != my_pid)
			wrong_result("SYS_getpid by sysenter", r, my_pid);
	}
	if ((r = uptime(up)) != 0)
		wrong_result("SYS_uptime", r, 0);
	else if ((int32_t)(up[0] - *ticks) < 0)
		wrong_result("SYS_uptime's ticks (went back)", up[0], *ticks);
	else
		*ticks = up[0];
}

/* ---- the heap thread: a page taken and given back, over and over ---- */

static uint32_t heap_stack[STACK_WORDS] __attribute__((aligned(16)));
static volatile int rounds_done;
static volatile unsigned long heap_shrinks;

static void heap_thread(void *arg)
{
	volatile uint32_t *page;

	(void)arg;
	while (!rounds_done) {
		page = sbrk(PAGE);
		if (page == (void *)-1) {
			wrong_result("sbrk of a page", -1, 0);
			return;
		}
		*page = heap_shrinks;
		if (*page != heap_shrinks)
			wrong_result("a fresh heap page", *page, heap_shrinks);
		if (sbrk(-PAGE) == (void *)-1)
			wrong_result("sbrk giving a page back", -1, 0);
		heap_shrinks++;
		yield();	/* the rounds keep their share of the CPUs */
	}
}

/* Text added at line[*n], within size (the library has no snprintf). */
static void append(char *line, size_t size, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int more;

	va_start(ap, fmt);
	more = vsnprintf(line + *n, size - *n, fmt, ap);
	va_end(ap);
	*n = *n + more < size ? *n + more : size - 1;
}

/* The last line, written by one printf (one system call): the copies
 * end together, and written piece by piece their lines would mix. */
static void report(unsigned long rounds, int sysenter, const unsigned long *by_cpu)
{
	char line[200];
	size_t n = 0;
	unsigned int id;

	for (id = 0; id < MAX_APIC_IDS; id++)
		if (by_cpu[id])
			append(line, sizeof(line), &n, " %u:%lu", id, by_cpu[id]);
	line[n] = '\0';
	printf("hammer: pid %d done: %lu rounds (%s), %u wrong, %lu heap pages given back; "
	       "rounds by CPU:%s\n", my_pid, rounds,
	       sysenter ? "int $0x80 and sysenter" : "int $0x80", wrong, heap_shrinks, line);
}

int main(void)
{
	char arg[16];
	unsigned long rounds, i, by_cpu[MAX_APIC_IDS] = { 0 };
	int sysenter = have_sysenter();
	uint32_t ticks = 0;
	unsigned int id;
	int heap_pid, status = -1;

	getarg(arg, sizeof(arg));
	rounds = arg[0] ? strtoul(arg, NULL, 10) : 1000;
	my_pid = getpid();
	heap_pid = thread_create(heap_thread, 0, heap_stack + STACK_WORDS);
	if (heap_pid < 0)
		wrong_result("thread_create of the heap thread", heap_pid, 0);
	for (i = 0; i < rounds; i++) {
		round_of_calls(sysenter, &ticks);
		id = apic_id();
		by_cpu[id < MAX_APIC_IDS ? id : MAX_APIC_IDS - 1]++;
		if (i % ROUNDS_PER_YIELD == ROUNDS_PER_YIELD - 1)
			yield();
	}
	rounds_done = 1;
	if (heap_pid > 0 && (wait(heap_pid, &status) != heap_pid || status != 0))
		wrong_result("the heap thread's status", status, 0);
	report(rounds, sysenter, by_cpu);
	return wrong > 255 ? 255 : (int)wrong;
}
