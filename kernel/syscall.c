/*
 * syscall.c - what each system call does (numbers in uapi/syscalls.h);
 * those on descriptors are kernel/fd.c's.  spawn and thread hand the
 * caller's descriptors on and exit closes them (exit.c): descriptors sit
 * above the task table, so this layer, above both, does it (fd.c).
 *
 * Every pointer a program passes is checked and every access to it goes
 * through asm/uaccess.h: a pointer into the kernel or to unmapped memory
 * gets -EFAULT, never a kernel fault, and one to a page of the heap or
 * stack that RAM cannot back now gets -ENOMEM.  A call either succeeds
 * or changes nothing.
 */
#include <kernel.h>
#include <cmdline.h>
#include <exit.h>
#include <fd.h>
#include <page_alloc.h>
#include <string.h>
#include <arch_door.h>
#include <uapi/syscalls.h>
#include <task.h>
#include <asm/bench.h>
#include <asm/cpu.h>
#include <asm/paging.h>
#include <asm/platform.h>
#include <asm/privileged.h>
#include <asm/process.h>
#include <asm/timer.h>
#include <asm/tlbflush.h>
#include <asm/uaccess.h>

/* A write is read in pieces of WRITE_CHUNK bytes (a piece that cannot be
 * read whole ends it) and printed a run of whole lines at a time from a
 * buffer of two pieces, so that another CPU's line cannot land inside a
 * line: a write of up to two pieces (user/lib's printf writes at most
 * 255 bytes) is one message, and in a longer one each line of up to
 * WRITE_CHUNK + 1 bytes. */
#define WRITE_CHUNK	128
#define WRITE_MAX	4096
#define BRK_FREE_BATCH	32	/* frames freed per TLB shootdown */

/* ---- I/O privilege: which programs may ask for it ---- */

static char io_programs[64] = "ioport";

static int parse_iopl_programs(const char *value)
{
	if (!value)
		return -EINVAL;
	strlcpy(io_programs, value, sizeof(io_programs));
	return 0;
}
boot_option("iopl", parse_iopl_programs,
	    "programs that may ask for I/O privilege, comma-separated");

/* ---- the calls ---- */

/* text[0..n) to the consoles as one message. */
static void print_text(char *text, u32 n)
{
	char saved = text[n];

	text[n] = '\0';		/* a NUL inside ends it early: harmless */
	printk("%s", text);
	text[n] = saved;
}

/*
 * Prints what of the held text[0..held) is ready, and returns how much
 * stays held: nothing while another piece fits behind it and more is to
 * come, then its whole lines (all of it at the end, or when what is left
 * would not leave room for a piece: a line longer than the buffer).
 */
static u32 print_held(char *text, u32 held, bool more)
{
	u32 cut = held;

	if (more && held <= WRITE_CHUNK)
		return held;
	if (more)
		cut = printk_whole_lines(text, held);
	if (held - cut > WRITE_CHUNK)
		cut = held;
	print_text(text, cut);
	memmove(text, text + cut, held - cut);
	return held - cut;
}

/* The bytes written: all of them, or the whole pieces read before the
 * first piece that could not be (its error if that is the first). */
static long sys_write(u32 buf, u32 len)
{
	char text[2 * WRITE_CHUNK + 1];
	u32 done = 0, held = 0;
	int err = 0;

	if (len > WRITE_MAX)
		return -EINVAL;
	if (!user_range_ok(buf, len))
		return -EFAULT;
	while (done < len) {
		u32 n = min(len - done, (u32)WRITE_CHUNK);

		if ((err = copy_from_user(text + held, buf + done, n)))
			break;
		done += n;
		held = print_held(text, held + n, done < len);
	}
	print_held(text, held, false);
	return done || !len ? (long)done : err;
}

/* A task made for spawn or thread gets a copy of the caller's
 * descriptors, then starts: its pid.  Here, above the task table,
 * because descriptors are above it (fd.c says why). */
static long start_with_descriptors(struct task *t)
{
	fd_inherit(t);
	return task_start(t);
}

static long sys_spawn(u32 name_ptr, u32 arg_ptr)
{
	char name[TASK_NAME_LEN], arg[sizeof(current->arg)] = "";
	int err = strncpy_from_user(name, name_ptr, sizeof(name));
	struct task *t;

	if (err < 0)
		return err;
	if (arg_ptr && (err = strncpy_from_user(arg, arg_ptr, sizeof(arg))) < 0)
		return err;
	t = task_make_spawn(name, arg, &err);
	return t ? start_with_descriptors(t) : err;
}

/* A status pointer that is bad from the start fails at once, before
 * any wait: write what is already there, which proves the place
 * writable and changes nothing.  0 or -errno. */
static int status_writable(u32 ptr)
{
	int old, err = copy_from_user(&old, ptr, sizeof(old));

	return err ? err : copy_to_user(ptr, &old, sizeof(old));
}

/* And the status goes there before the child is collected: a fault then
 * (another thread gave the page back while this one slept) fails the
 * wait and leaves the child for the next one. */
static int copy_status_to_user(void *ptr, int status)
{
	return copy_to_user((u32)ptr, &status, sizeof(status));
}

static int no_status(void *ptr, int status)
{
	(void)ptr, (void)status;
	return 0;
}

static long sys_wait(int pid, u32 status_ptr)
{
	int err = status_ptr ? status_writable(status_ptr) : 0;

	if (err)
		return err;
	return task_wait_deliver(pid, status_ptr ? copy_status_to_user : no_status,
				 (void *)status_ptr);
}

/*
 * The pages of [start, end) go back, a batch at a time: entries cleared
 * under the table lock (a fault on another CPU maps pages under it), then
 * this CPU's TLB flushed and every other CPU that has the space loaded
 * (a thread runs there), and only then the frames freed.  Freed before
 * the shootdown, a frame could be handed to another program while a
 * thread still reads and writes it through a stale TLB entry.
 */
static void heap_release(struct mm *mm, u32 start, u32 end)
{
	u32 frames[BRK_FREE_BATCH], first_va = 0;
	unsigned long flags;
	unsigned int n, i;

	while (start < end) {
		spin_lock_irqsave_call(&mm->table_lock, &flags);
		arch_enter_lazy_mmu_mode();	/* left before the flush */
		n = unmap_user_pages(mm->pgd, &start, end, frames, BRK_FREE_BATCH, &first_va);
		arch_leave_lazy_mmu_mode();
		spin_unlock_irqrestore_call(&mm->table_lock, flags);
		if (!n)
			continue;
		flush_tlb();
		tlb_flush_space_others(&mm->cpu_mask, n == 1 ? first_va : TLB_FLUSH_ALL);
		for (i = 0; i < n; i++)
			page_free(frames[i]);
	}
}

/*
 * The heap grows or shrinks; pages come on first touch (user_fault.c),
 * but a request that RAM could never back fails now, and pages above a
 * shrunk end are freed at once.  One change at a time per address space
 * (brk_lock, interrupts on: the shootdown waits for other CPUs); the new
 * end is set before the pages go, so no thread's fault maps one of them
 * again meanwhile.
 */
static long sys_brk(u32 end)
{
	struct task *t = current;
	struct mm *mm = t->mm;
	u32 new_end = (end + PAGE_SIZE - 1) & PAGE_MASK, old_end;
	unsigned long flags;
	long ret = new_end;

	if (!mm)			/* not a program's task */
		return -EINVAL;
	if (!end)
		return mm->brk;
	if (end < mm->brk_start || end >= t->stack_bottom - PAGE_SIZE)
		return -EINVAL;
	spin_lock(&mm->brk_lock);
	old_end = mm->brk;
	if (new_end > old_end && (new_end - old_end) / PAGE_SIZE > pages_free_count()) {
		ret = -ENOMEM;
	} else {
		spin_lock_irqsave_call(&mm->table_lock, &flags);
		mm->brk = new_end;
		spin_unlock_irqrestore_call(&mm->table_lock, flags);
		if (new_end < old_end)		/* shrinking: the memory goes back */
			heap_release(mm, new_end, old_end);
	}
	spin_unlock(&mm->brk_lock);
	return ret;
}

/*
 * A thread: a new task in this address space, starting at entry (a user
 * address) with its stack at stack, given arg as a C function's one
 * argument: the kernel pushes arg and a return address of 0 (a thread
 * that returns faults; user/lib's thread_create ends it with exit).  Both
 * are the program's word and checked as such: -EINVAL for an entry or a
 * stack outside user space or a misaligned stack, -EFAULT if the stack
 * cannot be written (-ENOMEM: no RAM for its page).  Its pid, or
 * -EAGAIN when the task table is full.
 */
static long sys_thread(u32 entry, u32 stack, u32 arg)
{
	u32 frame[2] = { 0, arg };	/* the return address, then arg */
	struct task *t;
	int err;

	if (entry < USER_BASE || entry >= USER_END)
		return -EINVAL;
	if (stack % sizeof(u32) || stack < USER_BASE + sizeof(frame) || stack > USER_END)
		return -EINVAL;
	if ((err = copy_to_user(stack - sizeof(frame), frame, sizeof(frame))))
		return err;
	t = task_make_thread(entry, stack - sizeof(frame), &err);
	return t ? start_with_descriptors(t) : err;
}

static long sys_getarg(u32 buf, u32 size)
{
	u32 len = strlen(current->arg) + 1;
	int err;

	if (size < len)
		return -EINVAL;
	err = copy_to_user(buf, current->arg, len);
	return err ? err : (long)len - 1;
}

static long sys_uptime(u32 out)
{
	u32 v[4] = { timer_ticks(), timer_hz(), 0, 0 };
	u64 tsc;

	if (clock_tsc(&tsc)) {
		v[2] = (u32)tsc;
		v[3] = (u32)(tsc >> 32);
	}
	return copy_to_user(out, v, sizeof(v));
}

static long sys_pmc(u32 out)
{
	u64 count;
	int err = arch_task_pmc(current, &count);

	if (err)
		return err;
	return copy_to_user(out, &count, sizeof(count));
}

/* The CPU as the kernel runs it: a program asks this, not cpuid, which
 * shows the hardware even where the kernel leaves a feature off. */
static long sys_cpuinfo(u32 out)
{
	u32 v[2] = { boot_cpu.family, boot_cpu.features };

	return copy_to_user(out, v, sizeof(v));
}

/* For make bench's guest column: what each path costs the host. */
static long sys_hostcounts(u32 out)
{
	u32 v[2];

	if (!platform->host_counts)
		return -ENODEV;
	platform->host_counts(v, ARRAY_SIZE(v));
	return copy_to_user(out, v, sizeof(v));
}

/* SYS_counts' which into v: how many words it has, or -ENODEV, -EINVAL. */
static long machine_counts(u32 which, u32 *v, unsigned int size)
{
	switch (which) {
	case COUNTS_HOST:
		return platform->host_counts ? (long)platform->host_counts(v, size) : -ENODEV;
	case COUNTS_PADDING:
		return bench_padding_count(v) ? -ENODEV : 1;
	}
	return -EINVAL;
}

/* For make bench: a measuring program's counts around what it times.
 * Asked for none (n 0), it learns how many there are: out is not looked at. */
static long sys_counts(u32 out, u32 n, u32 which)
{
	u32 v[HOST_COUNTS_MAX];
	long words = machine_counts(which, v, ARRAY_SIZE(v));
	long err = words > 0 && n ? copy_to_user(out, v, min(n, (u32)words) * sizeof(u32)) : 0;

	return err ? err : words;
}

static long sys_iopl(struct pt_regs *regs, u32 level)
{
	if (level && !current->io_allowed && !list_has_word(io_programs, current->name))
		return -EPERM;
	return arch_set_iopl(current, regs, level);
}

long do_syscall(struct pt_regs *regs, u32 nr, u32 a, u32 b, u32 c)
{
	if (nr >= NR_SYSCALLS)
		return -ENOSYS;
	switch (nr) {
	case SYS_exit:		exit_current((int)a);
	case SYS_write:		return sys_write(a, b);
	case SYS_getpid:	return current->pid;
	case SYS_yield:		sched_yield(); return 0;
	case SYS_sleep:		return sched_sleep_ticks(a);
	case SYS_spawn:		return sys_spawn(a, b);
	case SYS_wait:		return sys_wait((int)a, b);
	case SYS_set_tls:	return arch_set_tls(current, a, b, c);
	case SYS_iopl:		return sys_iopl(regs, a);
	case SYS_brk:		return sys_brk(a);
	case SYS_watch:		return arch_set_watchpoint(current, a, b);
	case SYS_set_ldt:	return arch_set_ldt_entry(current, a, b, c);
	case SYS_getarg:	return sys_getarg(a, b);
	case SYS_uptime:	return sys_uptime(a);
	case SYS_pmc:		return sys_pmc(a);
	case SYS_nop:		return 0;
	case SYS_cpuinfo:	return sys_cpuinfo(a);
	case SYS_hostcounts:	return sys_hostcounts(a);
	case SYS_thread:	return sys_thread(a, b, c);
	case SYS_counts:	return sys_counts(a, b, c);
	case SYS_pipe:		return sys_pipe(a);
	case SYS_read:		return sys_read((int)a, b, c);
	case SYS_fdwrite:	return sys_fdwrite((int)a, b, c);
	case SYS_close:		return sys_close((int)a);
	}
	return -ENOSYS;
}
