/*
 * fd.c - file descriptors: each task's table of the pipe ends it holds,
 * and the system calls that use it (pipe, read, fdwrite, close).
 *
 * A descriptor is an index into the task's table, NR_FDS slots in its
 * struct task; a new one is the lowest free slot, as Unix gives them.
 * Each slot in use holds one end of a pipe and counts as one holder of
 * that end (pipe_hold, pipe_release), so an end stays open while any
 * table names it.  A full table is the program's own limit (-EMFILE);
 * the pipes of the whole system have theirs (PIPES_MAX, -ENFILE).
 *
 * A new task gets a copy of its creator's table (fd_inherit): a program
 * spawned by another holds every end its parent held, as after Unix's
 * fork and exec, and a parent passes a child a pipe that way, its
 * numbers in the argument string.  A thread gets a copy too, rather than
 * sharing its creator's table: pv386's threads share memory and nothing
 * else (each has its own registers, TLS, LDT, pid and exit), and a table
 * with one owner needs no lock and no reference taken per call, and
 * cannot have a descriptor closed by one thread while another sleeps
 * reading it.  The price is the fork-like rule that a descriptor one
 * thread opens later is not the others', and that an end is closed for
 * good only once every copy is.
 *
 * So each table is read and changed by its own task alone: by its system
 * calls, and at its end (fd_close_all, in its own context); its creator
 * fills it before the task first runs.  No lock: a pipe's own lock
 * guards what the ends share.
 *
 * Descriptors sit above the task table and the scheduler, not inside
 * them: a pipe sleeps and wakes through the scheduler (pipe.c), so if
 * task.c opened or closed descriptors the three would call each other in
 * a loop.  The layers above both call in here instead: sys_spawn and
 * sys_thread (syscall.c) make the task, fill its table with fd_inherit
 * and only then start it; exit.c closes the table before it ends a user
 * task, whether by exit or by a kill.  task.c only checks, reading the
 * table, that a task ends with none open.
 */
#include <kernel.h>
#include <fd.h>
#include <pipe.h>
#include <task.h>
#include <asm/uaccess.h>

void fd_inherit(struct task *child)
{
	unsigned int i;

	for (i = 0; i < NR_FDS; i++) {
		child->fds[i] = current->fds[i];
		if (child->fds[i].pipe)
			pipe_hold(child->fds[i].pipe, child->fds[i].write);
	}
}

/* The slot freed, then its end let go. */
static void fd_close_slot(struct fd *slot)
{
	struct fd f = *slot;

	slot->pipe = NULL;
	pipe_release(f.pipe, f.write);
}

void fd_close_all(struct task *t)
{
	unsigned int i;

	for (i = 0; i < NR_FDS; i++)
		if (t->fds[i].pipe)
			fd_close_slot(&t->fds[i]);
}

/* The current task's lowest free slot from `from` on, or -EMFILE. */
static int fd_free_slot(int from)
{
	int i;

	for (i = from; i < NR_FDS; i++)
		if (!current->fds[i].pipe)
			return i;
	return -EMFILE;
}

/* The current task's descriptor fd if it is open on the end asked for
 * (write: a write end); else NULL. */
static struct fd *fd_lookup(int fd, bool write)
{
	struct fd *f;

	if ((u32)fd >= NR_FDS)
		return NULL;
	f = &current->fds[fd];
	return f->pipe && f->write == write ? f : NULL;
}

/*
 * A new pipe in the two lowest free slots, their numbers written to the
 * user's int[2].  A call that fails changes nothing: a pointer that
 * cannot take them gives the new pipe back before it is installed.
 */
long sys_pipe(u32 fds_ptr)
{
	int fds[2], err;
	struct pipe *p;

	if (!user_range_ok(fds_ptr, sizeof(fds)))
		return -EFAULT;
	if ((fds[0] = fd_free_slot(0)) < 0 || (fds[1] = fd_free_slot(fds[0] + 1)) < 0)
		return -EMFILE;
	if ((err = pipe_create(&p)))
		return err;
	if ((err = copy_to_user(fds_ptr, fds, sizeof(fds)))) {
		pipe_release(p, false);
		pipe_release(p, true);
		return err;
	}
	current->fds[fds[0]] = (struct fd){ p, false };
	current->fds[fds[1]] = (struct fd){ p, true };
	return 0;
}

long sys_read(int fd, u32 buf, u32 len)
{
	struct fd *f = fd_lookup(fd, false);

	return f ? pipe_read(f->pipe, buf, len) : -EBADF;
}

long sys_fdwrite(int fd, u32 buf, u32 len)
{
	struct fd *f = fd_lookup(fd, true);

	return f ? pipe_write(f->pipe, buf, len) : -EBADF;
}

long sys_close(int fd)
{
	if ((u32)fd >= NR_FDS || !current->fds[fd].pipe)
		return -EBADF;
	fd_close_slot(&current->fds[fd]);
	return 0;
}
