/*
 * pipe.h - pipes (kernel/pipe.c): a one-way stream of bytes between
 * tasks, held in a kernel buffer of PIPE_BUF bytes (one page).
 *
 * A pipe has read ends and write ends, counted: each descriptor naming
 * one is one holder of it (kernel/fd.c).  It is freed, page and all, when
 * the last end of either kind is released.  The reads and writes take
 * user addresses: they run in a system call, for the current task.
 */
#ifndef PV386_PIPE_H
#define PV386_PIPE_H

#include <types.h>
#include <uapi/syscalls.h>

/* Pipes open at once in the whole system: each holds a page of RAM, so
 * a program that makes them without end must be stopped (-ENFILE)
 * before it takes the memory others need. */
#define PIPES_MAX	64

struct pipe;

/* A new pipe with one read end and one write end: 0, or -ENFILE (all
 * PIPES_MAX in use) or -ENOMEM (no page for its buffer). */
int pipe_create(struct pipe **pipe);
/* One more holder of its write end (write) or read end: a copied
 * descriptor. */
void pipe_hold(struct pipe *pipe, bool write);
/* One holder fewer; the last end of all frees the pipe. */
void pipe_release(struct pipe *pipe, bool write);
/* The system calls' work (uapi/syscalls.h says what they answer). */
long pipe_read(struct pipe *pipe, u32 buf, u32 len);
long pipe_write(struct pipe *pipe, u32 buf, u32 len);
/* Pipes in use now (for the tests' leak checks and the limit's). */
unsigned int pipes_open(void);

#endif
