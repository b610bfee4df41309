/*
 * priv.c - runs one privileged instruction, named by its argument, in
 * ring 3.  The CPU refuses each of them to user mode with #GP (a few with
 * #UD where the CPU lacks the instruction), and the kernel must then kill
 * this task alone: tests/kernel/test_isolation.c checks the exit status
 * EXIT_KILLED(vector) and the kill line for every one.
 *
 * Before the instruction the program prints
 *
 *     priv: NAME: eip XXXXXXXX code B0 B1 B2 B3
 *
 * (its address and bytes, read from the program's own text).  Two cases
 * are not killed, and say what they saw in the exit status:
 *
 *   popf   tries to clear IF and set IOPL 3 with popf: with IOPL 0 the
 *          CPU ignores both bits silently.  Exit 0 if IF stayed set and
 *          IOPL stayed 0; bit 0 set: IF changed; bit 1 set: IOPL changed.
 *   in, out  first ask for I/O privilege, which this program may not
 *          have: exit 3 if iopl(3) does not fail with -EPERM.
 *
 * rdpmc and rdtsc are privileged only as the kernel's CR4 says (PCE,
 * TSD): they run (exit 100) or are killed with #GP
 * (tests/kernel/test_ring_counters.c).
 */
#include "lib/pv386.h"
#include "lib/labelled.h"

#define SURVIVED	100	/* the instruction ran */
#define BAD_ARGUMENT	102
#define IOPL_GRANTED	3

#define EFLAGS_IF	0x200
#define EFLAGS_IOPL	0x3000

/* One routine per instruction: setup, then the label NAME_at on the
 * instruction itself. */
#define PRIV(name, setup, at)	LABELLED(name, void, setup, at)

PRIV(cli, "", "cli");
PRIV(sti, "", "sti");
PRIV(hlt, "", "hlt");
PRIV(cr0_read, "", "movl %cr0, %eax");
PRIV(cr0_write, "xorl %eax, %eax", "movl %eax, %cr0");
PRIV(cr2_read, "", "movl %cr2, %eax");
PRIV(cr2_write, "xorl %eax, %eax", "movl %eax, %cr2");
PRIV(cr3_read, "", "movl %cr3, %eax");
PRIV(cr3_write, "xorl %eax, %eax", "movl %eax, %cr3");
PRIV(cr4_read, "", "movl %cr4, %eax");
PRIV(cr4_write, "xorl %eax, %eax", "movl %eax, %cr4");
PRIV(dr0_read, "", "movl %db0, %eax");
PRIV(dr0_write, "xorl %eax, %eax", "movl %eax, %db0");
PRIV(dr7_read, "", "movl %db7, %eax");
PRIV(dr7_write, "movl $0xff, %eax", "movl %eax, %db7");
/* Descriptor-table loads, with harmless operands on the stack. */
PRIV(lgdt, "pushl $0; pushl $0", "lgdtl (%esp); addl $8, %esp");
PRIV(lidt, "pushl $0; pushl $0", "lidtl (%esp); addl $8, %esp");
PRIV(ltr, "movl $0x28, %eax", "ltr %ax");
PRIV(lldt, "xorl %eax, %eax", "lldt %ax");
PRIV(lmsw, "movl $1, %eax", "lmsw %ax");
PRIV(clts, "", "clts");
PRIV(rdmsr, "movl $0x10, %ecx", "rdmsr");		/* the TSC's MSR */
PRIV(wrmsr, "movl $0x10, %ecx; xorl %eax, %eax; xorl %edx, %edx", "wrmsr");
PRIV(wbinvd, "", "wbinvd");
PRIV(invd, "", "invd");
PRIV(invlpg, "", "invlpg (%esp)");
PRIV(in, "movl $0x71, %edx", "inb %dx, %al");
PRIV(out, "movl $0x80, %edx; xorl %eax, %eax", "outb %al, %dx");
PRIV(sysexit, "movl $0, %ecx; movl $0, %edx", "sysexit");
/* Allowed in ring 3 or not as the kernel's CR4 says: PCE, TSD. */
PRIV(rdpmc, "xorl %ecx, %ecx", "rdpmc");
PRIV(rdtsc, "", "rdtsc");
/* Ways to ring 0 that are not instructions of their own: an iret or a
 * far jump to the kernel's code segment, a load of its data segment. */
PRIV(iret_to_kernel, "pushfl; pushl $0x08; pushl $0x00100000", "iret");
PRIV(ljmp_kernel, "", "ljmp $0x08, $0x00100000");
PRIV(load_kernel_ds, "movl $0x10, %eax", "movl %eax, %ds");
PRIV(load_tss_selector, "movl $0x28, %eax", "movl %eax, %es");

struct priv_case {
	const char *name;
	void (*fn)(void);
	const unsigned char *at;
};

#define CASE(name)	{ #name, name, name##_at }

static const struct priv_case cases[] = {
	CASE(cli), CASE(sti), CASE(hlt),
	CASE(cr0_read), CASE(cr0_write), CASE(cr2_read), CASE(cr2_write),
	CASE(cr3_read), CASE(cr3_write), CASE(cr4_read), CASE(cr4_write),
	CASE(dr0_read), CASE(dr0_write), CASE(dr7_read), CASE(dr7_write),
	CASE(lgdt), CASE(lidt), CASE(ltr), CASE(lldt), CASE(lmsw), CASE(clts),
	CASE(rdmsr), CASE(wrmsr), CASE(wbinvd), CASE(invd), CASE(invlpg),
	CASE(in), CASE(out), CASE(sysexit), CASE(rdpmc), CASE(rdtsc),
	CASE(iret_to_kernel), CASE(ljmp_kernel), CASE(load_kernel_ds),
	CASE(load_tss_selector),
};

static uint32_t eflags(void)
{
	uint32_t f;

	asm volatile("pushfl; popl %0" : "=r" (f));
	return f;
}

/* popf with IF clear and IOPL 3: both must be ignored in ring 3. */
static int try_popf(void)
{
	uint32_t before = eflags(), after;
	uint32_t wanted = (before & ~EFLAGS_IF) | EFLAGS_IOPL;

	asm volatile("pushl %1; popfl; pushfl; popl %0" : "=r" (after) : "r" (wanted));
	printf("priv: popf: eflags %08x, asked for %08x, got %08x\n",
	       (unsigned int)before, (unsigned int)wanted, (unsigned int)after);
	return ((after & EFLAGS_IF) != (before & EFLAGS_IF)) |
	       ((after & EFLAGS_IOPL) != (before & EFLAGS_IOPL)) << 1;
}

static int run_case(const struct priv_case *c)
{
	if ((c->fn == in || c->fn == out) && iopl(3) != -EPERM) {
		printf("priv: iopl(3) did not fail with -EPERM\n");
		return IOPL_GRANTED;
	}
	printf("priv: %s: eip %08x code %02x %02x %02x %02x\n", c->name,
	       (unsigned int)(uintptr_t)c->at, c->at[0], c->at[1], c->at[2], c->at[3]);
	c->fn();
	printf("priv: %s ran in ring 3\n", c->name);
	return SURVIVED;
}

int main(void)
{
	char arg[32];
	unsigned int i;

	getarg(arg, sizeof(arg));
	if (!strcmp(arg, "popf"))
		return try_popf();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!strcmp(arg, cases[i].name))
			return run_case(&cases[i]);
	printf("priv: no case %s\n", arg);
	return BAD_ARGUMENT;
}
