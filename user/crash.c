/*
 * crash.c - does one thing a user program must not get away with, named
 * by its argument, so that the kernel kills it (and only it) for the CPU
 * exception that follows.  tests/kernel/test_isolation.c runs every case
 * and checks the exit status EXIT_KILLED(vector) and the kernel's kill
 * line.
 *
 * Before the fault the program prints
 *
 *     crash: NAME: eip XXXXXXXX code B0 B1 B2 B3
 *
 * the address and first bytes of the instruction the kernel should name,
 * read here from the program's own text, so the test can compare them
 * with the kill line.  (For a trap, #DB, the CPU reports the instruction
 * after the one that trapped; the label sits there.)  A case that should
 * not fault on this CPU, or that did not, exits with:
 */
#include "lib/pv386.h"
#include "lib/labelled.h"

#define SURVIVED	100	/* the fault did not happen */
#define NOT_HERE	101	/* the CPU lacks what the case needs */
#define BAD_ARGUMENT	102
#define SIMD_FLAG_ONLY	103	/* divss set MXCSR.ZE, unmasked, but raised no
				   #XM: an emulator that lacks it (QEMU TCG) */

/*
 * One faulting routine: the instructions that set it up, then the label
 * NAME_at on the instruction the fault report should name.  Each is
 * called as void NAME(u32 arg) with the argument at 4(%esp).
 */
#define FAULT(name, setup, at)	LABELLED(name, uint32_t arg, setup, at)

FAULT(divide, "xorl %ecx, %ecx; movl $1, %eax; xorl %edx, %edx", "divl %ecx");
FAULT(divide_overflow, "movl $0x80000000, %eax; cltd; movl $-1, %ecx", "idivl %ecx");
/* Single-step: TF set by popf makes the CPU trap after the next
 * instruction, the nop; it reports the one after that. */
FAULT(single_step, "pushfl; orl $0x100, (%esp); popfl; nop", "nop");
/* The IDT gates of #BP and #OF admit ring 3: int3 and into raise the
 * exceptions they are for.  Both are traps: the CPU reports, and the
 * kernel names, the instruction after them. */
FAULT(int3, "int3", "");
FAULT(into, "movl $0x7fffffff, %eax; addl $1, %eax; into", "");	/* OF set */
FAULT(bound, "movl $100, %eax; pushl $10; pushl $0",
      "boundl %eax, (%esp); addl $8, %esp");
FAULT(ud2, "", "ud2");
FAULT(lock_nop, "", ".byte 0xf0, 0x90");		/* lock on a nop: #UD */
FAULT(read_at, "movl 4(%esp), %ecx", "movl (%ecx), %eax");
FAULT(write_at, "movl 4(%esp), %ecx", "movl %eax, (%ecx)");
FAULT(text_write, "movl $text_write_at, %ecx", "movl %eax, (%ecx)");
FAULT(stack_overflow, "", "pushl $0; jmp stack_overflow_at");
FAULT(stack_jump, "subl $0x100000, %esp", "pushl $0");	/* far below the stack */
/* Segments from the argument (an LDT selector set up by the caller). */
FAULT(segment_limit, "movl 4(%esp), %eax; movl %eax, %fs", "movl %fs:16, %eax");
FAULT(stack_segment_limit, "movl 4(%esp), %eax; movl %eax, %ss; movl $0, %esp",
      "pushl $0");
FAULT(null_ss, "xorl %eax, %eax", "movl %eax, %ss");
FAULT(null_fs_use, "xorl %eax, %eax; movl %eax, %fs", "movl %fs:0, %eax");
/* x87: unmask divide-by-zero (control word bit 2), divide 1 by 0; the
 * error is reported at the next waiting FPU instruction: #MF. */
FAULT(x87_error,
      "fninit; pushl $0; fnstcw (%esp); andl $~4, (%esp); fldcw (%esp);"
      "movl $0, (%esp); fld1; fidivl (%esp)", "fwait; addl $4, %esp");
/* SSE: unmask divide-by-zero (MXCSR bit 9), divide 1.0 by 0.0: #XM. */
FAULT(simd_error,
      "pushl $0; stmxcsr (%esp); andl $~0x200, (%esp); ldmxcsr (%esp);"
      "movl $0x3f800000, (%esp); movss (%esp), %xmm0; xorps %xmm1, %xmm1",
      "divss %xmm1, %xmm0; addl $4, %esp");
/* AC set, then a misaligned load: #AC only if the kernel set CR0.AM. */
FAULT(alignment, "pushfl; orl $0x40000, (%esp); popfl; movl %esp, %ecx; incl %ecx",
      "movl (%ecx), %eax");
/* iret with NT set is a return from a nested task, through the TSS's
 * link field, which the kernel never set: #TS. */
FAULT(nested_task_iret, "pushfl; orl $0x4000, (%esp); popfl", "iret");
/* iret with EFLAGS.VM set in the frame (VM and bit 1), to 1000:0000 in
 * virtual-8086 mode, with its four extra segment words below.  A CPU
 * ignores VM at CPL 3 and returns to CS 0x1000, a GDT selector of RPL 0:
 * #GP(0x1000).  QEMU's TCG enters virtual-8086 mode: its first fetch,
 * at 0x10000, faults on a kernel page.  IF is clear in the frame, so
 * that no interrupt comes in between (QEMU takes IF from it too; a CPU
 * keeps IF at CPL 3 with IOPL 0). */
FAULT(vm86_iret, "pushl $0; pushl $0; pushl $0; pushl $0; pushl $0; pushl $0x100;"
      "pushl $0x20002; pushl $0x1000; pushl $0", "iret");
/* sysenter with a stack pointer (EBP) into the kernel: the kernel cannot
 * read the return address there. */
FAULT(sysenter_kernel_stack, "movl $0x00100000, %ebp; movl $2, %eax", "sysenter");
/* sysenter with the return address pointing into the kernel: sysexit
 * lands there in ring 3, where the page is supervisor-only. */
FAULT(sysenter_kernel_eip, "pushl $0x00100000; movl %esp, %ebp; movl $2, %eax",
      "sysenter");
/* Single-stepping into the kernel: TF set by popf is still set when the
 * next instruction (int $0x80 or sysenter) enters the kernel.  int $0x80
 * clears TF in the kernel and its iret gives it back: the task ends with
 * a #DB for the instruction after.  sysenter keeps TF into the kernel,
 * which must survive that; it returns with EFLAGS of its own making
 * (IF, IOPL), so the task goes on without TF. */
FAULT(int80_single_step, "movl $2, %eax; pushfl; orl $0x100, (%esp); popfl;"
      "int $0x80; nop", "nop");
FAULT(sysenter_single_step, "pushl %ebp; pushl $1f; movl %esp, %ebp; movl $2, %eax;"
      "pushfl; orl $0x100, (%esp); popfl; sysenter; 1: popl %ebp; nop", "nop");
/* The same with NT and AC set too: the flags the CPU pushes for a #DB
 * at the kernel's first instruction then read as an address in low
 * memory rather than in page 0 (see tests/kernel/test_user_faults.c). */
FAULT(sysenter_single_step_nt, "pushl %ebp; pushl $1f; movl %esp, %ebp; movl $2, %eax;"
      "pushfl; orl $0x44100, (%esp); popfl; sysenter; 1: popl %ebp; nop", "nop");

/* Touch a page at a time upward from the argument, forever. */
FAULT(touch_pages, "movl 4(%esp), %ecx", "movb $1, (%ecx); addl $4096, %ecx; jmp touch_pages_at");

/* `int $n; ret`, written at run time into writable memory (pages are
 * executable: the i386 has no no-execute bit). */
static unsigned char int_n_code[4];

static void int_n(uint32_t n)
{
	(void)n;
	((void (*)(void))int_n_code)();
}

static char segment_memory[4096];

static uint32_t heap_end(void)
{
	return (uint32_t)(uintptr_t)sbrk(0);	/* the first byte past the heap */
}

static uint32_t small_ldt_segment(void)		/* 16 bytes */
{
	return set_ldt(0, segment_memory, 16);
}

static uint32_t page_ldt_segment(void)		/* 4096 bytes */
{
	return set_ldt(1, segment_memory, sizeof(segment_memory));
}

/* A heap as large as brk allows (all the free RAM, page tables not
 * counted), to be touched until RAM runs out.  Yield first, so a task
 * beside this one has taken what it needs before RAM is gone. */
static uint32_t heap_of_all_memory(void)
{
	char *start = sbrk(0);
	long step;
	int i;

	for (i = 0; i < 5; i++)
		yield();
	for (step = 1 << 20; step >= 4096; step /= 16)
		while (sbrk(step) != (void *)-1)
			;
	return (uint32_t)(uintptr_t)start;
}

#define CPUID_SEP	(1 << 11)
#define CPUID_SSE	(1 << 25)

#define MXCSR_ZE	(1 << 2)	/* a divide by zero happened */

static uint32_t mxcsr(void)
{
	uint32_t v;

	asm volatile("stmxcsr %0" : "=m" (v));
	return v;
}

struct fault_case {
	const char *name;
	void (*fn)(uint32_t arg);
	const unsigned char *at;	/* the instruction the report names */
	uint32_t arg;
	uint32_t (*make_arg)(void);	/* or the argument comes from this */
	uint32_t needs;			/* CPUID features it needs */
};

static const struct fault_case cases[] = {
	{ "divide", divide, divide_at, 0, NULL, 0 },
	{ "divide_overflow", divide_overflow, divide_overflow_at, 0, NULL, 0 },
	{ "single_step", single_step, single_step_at, 0, NULL, 0 },
	{ "int3", int3, int3_at, 0, NULL, 0 },
	{ "into", into, into_at, 0, NULL, 0 },
	{ "bound", bound, bound_at, 0, NULL, 0 },
	{ "ud2", ud2, ud2_at, 0, NULL, 0 },
	{ "lock_nop", lock_nop, lock_nop_at, 0, NULL, 0 },
	{ "null_read", read_at, read_at_at, 0, NULL, 0 },
	{ "null_write", write_at, write_at_at, 0, NULL, 0 },
	{ "kernel_read", read_at, read_at_at, 0x00100000, NULL, 0 },
	{ "kernel_write", write_at, write_at_at, 0x00200000, NULL, 0 },	/* data */
	{ "high_read", read_at, read_at_at, 0xc0000000, NULL, 0 },
	{ "top_write", write_at, write_at_at, 0xfffff000, NULL, 0 },
	{ "unmapped_read", read_at, read_at_at, 0x80000000, NULL, 0 },
	{ "heap_beyond_brk", read_at, read_at_at, 0, heap_end, 0 },
	{ "touch_all_memory", touch_pages, touch_pages_at, 0, heap_of_all_memory, 0 },
	{ "text_write", text_write, text_write_at, 0, NULL, 0 },
	{ "stack_overflow", stack_overflow, stack_overflow_at, 0, NULL, 0 },
	{ "stack_jump", stack_jump, stack_jump_at, 0, NULL, 0 },
	{ "segment_limit", segment_limit, segment_limit_at, 0, small_ldt_segment, 0 },
	{ "stack_segment_limit", stack_segment_limit, stack_segment_limit_at, 0,
	  page_ldt_segment, 0 },
	{ "null_ss", null_ss, null_ss_at, 0, NULL, 0 },
	{ "null_fs_use", null_fs_use, null_fs_use_at, 0, NULL, 0 },
	{ "x87_error", x87_error, x87_error_at, 0, NULL, 0 },
	{ "simd_error", simd_error, simd_error_at, 0, NULL, CPUID_SSE },
	{ "alignment", alignment, alignment_at, 0, NULL, 0 },
	{ "nested_task_iret", nested_task_iret, nested_task_iret_at, 0, NULL, 0 },
	{ "vm86_iret", vm86_iret, vm86_iret_at, 0, NULL, 0 },
	{ "int80_single_step", int80_single_step, int80_single_step_at, 0, NULL, 0 },
	{ "sysenter_kernel_stack", sysenter_kernel_stack, sysenter_kernel_stack_at, 0,
	  NULL, CPUID_SEP },
	{ "sysenter_kernel_eip", sysenter_kernel_eip, sysenter_kernel_eip_at, 0,
	  NULL, CPUID_SEP },
	{ "sysenter_single_step", sysenter_single_step, sysenter_single_step_at, 0,
	  NULL, CPUID_SEP },
	{ "sysenter_single_step_nt", sysenter_single_step_nt, sysenter_single_step_nt_at,
	  0, NULL, CPUID_SEP },
	{ "int", int_n, int_n_code, 0, NULL, 0 },	/* int:N */
};

static int run_case(const struct fault_case *c, uint32_t arg)
{
	const unsigned char *at = c->at;

	printf("crash: %s: eip %08x code %02x %02x %02x %02x arg %08x\n", c->name,
	       (unsigned int)(uintptr_t)at, at[0], at[1], at[2], at[3],
	       (unsigned int)arg);
	c->fn(arg);
	printf("crash: %s did not fault\n", c->name);
	if (c->fn == simd_error && mxcsr() & MXCSR_ZE)
		return SIMD_FLAG_ONLY;
	return SURVIVED;
}

/* The argument is a case name; "int:N" writes int $N first. */
static const struct fault_case *find_case(char *arg, uint32_t *case_arg)
{
	unsigned int i;
	char *colon = arg;

	while (*colon && *colon != ':')
		colon++;
	if (*colon) {
		*colon = '\0';
		int_n_code[0] = 0xcd;
		int_n_code[1] = atoi(colon + 1);
		int_n_code[2] = 0xc3;
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(arg, cases[i].name))
			continue;
		*case_arg = cases[i].make_arg ? cases[i].make_arg() : cases[i].arg;
		return &cases[i];
	}
	return NULL;
}

int main(void)
{
	char arg[32];
	uint32_t case_arg = 0;
	const struct fault_case *c;

	getarg(arg, sizeof(arg));
	c = find_case(arg, &case_arg);
	if (!c) {
		printf("crash: no case %s\n", arg);
		return BAD_ARGUMENT;
	}
	if ((cpu_features() & c->needs) != c->needs ||
	    (c->needs & CPUID_SEP && !have_sysenter()))
		return NOT_HERE;
	return run_case(c, case_arg);
}
