/*
 * iretfault.c - leaves a segment register holding a selector that goes
 * bad while the task is in the kernel, so the way back to user mode
 * meets it.  The argument says which:
 *
 *   fs   %fs holds an LDT selector; a system call frees that LDT slot.
 *        The kernel's pop of %fs faults and is fixed up to the null
 *        selector: the program sees %fs = 0 and exits 0.
 *   ss   the stack itself runs on such an LDT segment, and an int $0x80
 *        frees it: the iret back faults on the user SS, and the kernel
 *        must kill this task alone (the program never gets control back).
 */
#include "lib/pv386.h"

static char segment_memory[4096];

static int freed_fs(void)
{
	unsigned int sel = set_ldt(0, segment_memory, sizeof(segment_memory));
	unsigned int fs;

	asm volatile("movl %0, %%fs" : : "r" (sel));
	set_ldt(0, 0, 0);
	asm volatile("movl %%fs, %0" : "=r" (fs));
	printf("iretfault: %%fs after the slot was freed: %x\n", fs);
	return fs == 0 ? 0 : 1;
}

/* Stack on an LDT segment based at 1 GiB (offsets shrink by the base),
 * then free that segment from under it through int $0x80. */
static int freed_ss(void)
{
	unsigned int sel = set_ldt(1, (void *)0x40000000, 0x80000000);

	asm volatile("movl %%esp, %%esi\n\t"
		     "movl %[sel], %%ss\n\t"	/* no interrupt before the next one */
		     "subl $0x40000000, %%esp\n\t"
		     "int $0x80\n\t"		/* set_ldt(1, 0, 0) */
		     "movl %%esi, %%esp"	/* never reached */
		     : : [sel] "r" (sel), "a" (SYS_set_ldt), "b" (1), "c" (0), "d" (0)
		     : "esi", "memory");
	printf("iretfault: came back on a freed stack segment\n");
	return 1;
}

int main(void)
{
	char arg[16];

	getarg(arg, sizeof(arg));
	if (!strcmp(arg, "fs"))
		return freed_fs();
	if (!strcmp(arg, "ss"))
		return freed_ss();
	printf("iretfault: argument fs or ss\n");
	return 2;
}
