/*
 * flags.c - a system call with odd EFLAGS must not hurt the kernel.
 *
 * User code may set NT, AC, DF and TF with popf.  sysenter keeps them
 * (it clears only IF): NT would make the kernel's next iret a task
 * switch, TF would single-step the kernel.  So each way in is tried with
 * them set: getpid, then spawn (whose program loading ends in sync_core,
 * an iret) and wait.  TF is set by the popf right before sysenter, so
 * its trap comes after that instruction: in the kernel.  (int $0x80
 * clears TF in the kernel by itself and gives it back on return, where
 * it would single-step this program: not tried there.)  Exit 0 when
 * everything came back right.
 */
#include "lib/pv386.h"

#define EFLAGS_TF	0x00000100
#define EFLAGS_DF	0x00000400
#define EFLAGS_NT	0x00004000
#define EFLAGS_AC	0x00040000
#define ODD_FLAGS	(EFLAGS_NT | EFLAGS_AC | EFLAGS_DF)

/* syscall nr with (a, b) through way, entered with ODD_FLAGS added
 * (and TF too for sysenter). */
static long odd_flags_call(int sysenter, long nr, long a, long b)
{
	long r;

	if (sysenter)
		asm volatile("pushl %%ebp\n\t"
			     "pushl $1f\n\t"
			     "movl %%esp, %%ebp\n\t"
			     "pushfl\n\t"
			     "orl %[odd], (%%esp)\n\t"
			     "popfl\n\t"
			     "sysenter\n"
			     "1:\tpopl %%ebp"
			     : "=a" (r), "+b" (a), "+c" (b)
			     : "0" (nr), [odd] "i" (ODD_FLAGS | EFLAGS_TF)
			     : "edx", "memory", "cc");
	else
		asm volatile("pushfl\n\t"
			     "orl %[odd], (%%esp)\n\t"
			     "popfl\n\t"
			     "int $0x80\n\t"
			     "cld"
			     : "=a" (r), "+b" (a), "+c" (b)
			     : "0" (nr), [odd] "i" (ODD_FLAGS)
			     : "edx", "memory", "cc");
	return r;
}

static int try_way(int sysenter)
{
	int status = -1, pid;
	long me = odd_flags_call(sysenter, SYS_getpid, 0, 0);

	pid = odd_flags_call(sysenter, SYS_spawn, (long)"hello", 0);
	if (me != getpid() || pid <= 0 || wait(pid, &status) != pid || status)
		return 1;
	return 0;
}

int main(void)
{
	int bad = try_way(0);

	if (have_sysenter())
		bad += try_way(1);
	printf("flags: system calls with NT, AC, DF (and TF) set: %s\n", bad ? "FAILED" : "ok");
	return bad;
}
