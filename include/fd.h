/*
 * fd.h - file descriptors (kernel/fd.c): a task's table of the pipe
 * ends it holds, and the system calls on them.
 *
 * A descriptor is a small number, an index into the task's own table of
 * NR_FDS slots (uapi/syscalls.h); each slot in use names one end of a
 * pipe (include/pipe.h).
 */
#ifndef PV386_FD_H
#define PV386_FD_H

#include <types.h>
#include <uapi/syscalls.h>

struct pipe;
struct task;

/* One slot of a task's table. */
struct fd {
	struct pipe *pipe;	/* NULL: the slot is free */
	bool write;		/* the pipe's write end; else its read end */
};

/* A new task (made, not yet started) gets a copy of the current task's
 * table, each end in it held once more: syscall.c, for spawn and thread. */
void fd_inherit(struct task *child);
/* Every descriptor of t closed: the current task, as it ends (exit.c). */
void fd_close_all(struct task *t);

/* Descriptors open in a task's table: inline, so that task.c can check
 * that a task ends with none without calling up into this layer. */
static inline unsigned int fd_open_count(const struct fd fds[NR_FDS])
{
	unsigned int n = 0, i;

	for (i = 0; i < NR_FDS; i++)
		n += fds[i].pipe != NULL;
	return n;
}

/* The system calls (kernel/syscall.c dispatches them). */
long sys_pipe(u32 fds);
long sys_read(int fd, u32 buf, u32 len);
long sys_fdwrite(int fd, u32 buf, u32 len);
long sys_close(int fd);

#endif
