/*
 * test_kernel_text.c - kernel code is read-only once the patcher is
 * done: a plain write to it faults (where the CPU has CR0.WP, 486 on),
 * and kernel_text_poke() is the way to change it, after which the code
 * runs changed and the page is read-only again.
 */
#include <ktest.h>
#include <asm/cpu.h>
#include <asm/extable.h>
#include <asm/paging.h>
#include <asm/privileged.h>
#include <asm/traps.h>

/* A function in kernel text whose result is its own first immediate:
 * b8 01 00 00 00 c3 = movl $1, %eax; ret. */
int text_poke_target(void);
asm(".text\n"
    ".globl text_poke_target\n"
    ".type text_poke_target, @function\n"
    "text_poke_target:\n\t"
    "movl $1, %eax\n\t"
    "ret\n\t"
    ".size text_poke_target, . - text_poke_target\n\t"
    ".previous");

#define TARGET_IMMEDIATE	((u8 *)text_poke_target + 1)

/* Try to store v at p; true if the store faulted (and was skipped). */
static bool write_faults(u8 *p, u8 v)
{
	int faulted = 1;

	asm volatile("1: movb %[v], (%[p])\n\t"
		     "movl $0, %[f]\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : [f] "+r" (faulted) : [p] "r" (p), [v] "q" (v) : "memory");
	return faulted;
}

KTEST(kernel_text_is_read_only)
{
	unsigned long before = trap_count(X86_TRAP_PF);

	KT_EXPECT(kernel_text_contains((u32)text_poke_target));
	if (boot_cpu.family < 4)
		KT_SKIP("a 386 has no CR0.WP: ring 0 writes read-only pages");
	KT_EXPECT(write_faults(TARGET_IMMEDIATE, 7));
	KT_EXPECT_EQ(trap_count(X86_TRAP_PF), before + 1);
	KT_EXPECT_EQ(read_cr2(), (u32)TARGET_IMMEDIATE);
	KT_EXPECT_EQ(*TARGET_IMMEDIATE, 1);
	KT_EXPECT_EQ(text_poke_target(), 1);
}

KTEST(kernel_text_poke_changes_code)
{
	u8 two = 2, one = 1;

	kernel_text_poke(TARGET_IMMEDIATE, &two, 1);
	KT_EXPECT_EQ(text_poke_target(), 2);
	if (boot_cpu.family >= 4)	/* and the page is read-only again */
		KT_EXPECT(write_faults(TARGET_IMMEDIATE, 7));
	kernel_text_poke(TARGET_IMMEDIATE, &one, 1);
	KT_EXPECT_EQ(text_poke_target(), 1);
}
