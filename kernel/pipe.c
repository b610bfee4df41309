/*
 * pipe.c - pipes: a one-way stream of bytes from the tasks that hold its
 * write end to those that hold its read end, through a ring buffer of
 * one page in the kernel.
 *
 * The buffer is PIPE_BUF bytes; nread and nwrite count the bytes read
 * from it and written to it since the pipe was made, so nwrite - nread
 * is what it holds (they wrap together, and PIPE_BUF divides 2^32).  A
 * read takes what is there, up to its length, and waits only while the
 * pipe is empty and some write end is open; empty with none open, it
 * reads end of file (0).  A write waits while there is no room and some
 * read end is open; with none open it fails with -EPIPE, as there is no
 * one left to read it.  A write of up to PIPE_BUF bytes waits for room
 * for all of it and goes in whole, so that writers sharing a pipe never
 * interleave such writes; a longer one goes in as room comes.
 *
 * The bytes are copied straight between the user's buffer and the ring,
 * under the pipe's lock, so a read removes exactly what reached the
 * reader and a write adds exactly what it read.  A copy goes a piece of
 * PIECE bytes of the user's buffer at a time: a piece that faults ends
 * the call, which returns the bytes of the pieces before it, or the
 * fault's error if there were none (SYS_write's rule for the console).
 *
 * Locking: each pipe's lock (LOCK_RANK_PIPE) guards everything in it but
 * in_use: the ring and its counts, the counts of open ends and of
 * sleepers.  It is held across the user copy, whose page fault may map a
 * page (the address space's table lock and the page allocator's, both
 * ranked above it; a fault never sleeps), and taken with interrupts on,
 * as brk_lock is: no interrupt handler takes it, it ranks below every
 * lock one does, and so a copy of a page byte by byte does not keep
 * interrupts waiting, nor a CPU spinning for the lock a TLB shootdown's
 * IPI.  Nor does the path pay an irq save and restore per call (make
 * bench's pipe_pingpong).  A reader or writer that must wait sleeps on a
 * channel of the pipe, handing the lock to the run queue's
 * (sched_sleep_on_lock), and is woken inside the lock by whoever changes
 * what it waits for: a writer wakes the readers, a reader the writers, a
 * close both sides' sleepers.  The counts of sleepers spare the wake-up
 * when nobody sleeps.  A task asked to die while it waits stops waiting
 * (-EINTR, or the bytes it moved) and ends on its way out.
 *
 * The pipes are a fixed table of PIPES_MAX, each with a page only while
 * it is in use: that bounds the memory any number of programs can tie
 * up in pipes.  A slot is claimed by an atomic exchange of in_use (xchg,
 * which every x86 has), so the table needs no lock of its own, and given
 * back the same way once its last end is released: no descriptor names
 * the pipe then, and no task sleeps in it (each sleeper holds an end).
 */
#include <kernel.h>
#include <page_alloc.h>
#include <pipe.h>
#include <spinlock.h>
#include <task.h>
#include <asm/atomic.h>
#include <asm/paging.h>
#include <asm/uaccess.h>

#define PIECE	128	/* bytes of the user's buffer per copy: a fault ends
			   the call after the pieces before it */

_Static_assert(PIPE_BUF == PAGE_SIZE, "a pipe's buffer is one page");

struct pipe {
	spinlock_t lock;		/* LOCK_RANK_PIPE: all but in_use */
	u8 *buf;			/* the ring, PIPE_BUF bytes */
	u32 nread, nwrite;		/* bytes read, written: ever, wrapping */
	unsigned int readers, writers;	/* open ends: descriptors naming them */
	unsigned int readers_waiting;	/* readers asleep, on &nwrite */
	unsigned int writers_waiting;	/* writers asleep, on &nread */
	volatile u32 in_use;		/* the slot is taken (xchg) */
};

static struct pipe pipes[PIPES_MAX];

/* Readers wait for something written, writers for something read. */
#define READERS_CHANNEL(p)	(&(p)->nwrite)
#define WRITERS_CHANNEL(p)	(&(p)->nread)

static u32 held(const struct pipe *p)
{
	return p->nwrite - p->nread;
}

static u32 room(const struct pipe *p)
{
	return PIPE_BUF - held(p);
}

/* The lock's take and release out of line, as spinlock.h's _call forms
 * are: a take is a patch site (and two exception-table entries in the
 * PARAVIRT=n kernel) wherever it is inlined, so one of each serves all of
 * pipe.c.  Beside a system call, the call costs nothing that matters. */
static __attribute__((noinline)) void pipe_lock(struct pipe *p)
{
	spin_lock(&p->lock);
}

static __attribute__((noinline)) void pipe_unlock(struct pipe *p)
{
	spin_unlock(&p->lock);
}

unsigned int pipes_open(void)
{
	unsigned int n = 0, i;

	for (i = 0; i < PIPES_MAX; i++)
		n += pipes[i].in_use != 0;
	return n;
}

int pipe_create(struct pipe **out)
{
	struct pipe *p;
	u32 page;

	for (p = pipes; p < pipes + PIPES_MAX; p++)
		if (!xchg(&p->in_use, 1))
			break;
	if (p == pipes + PIPES_MAX)
		return -ENFILE;
	page = page_alloc();
	if (!page) {
		xchg(&p->in_use, 0);
		return -ENOMEM;
	}
	spin_lock_init(&p->lock, "pipe.lock", LOCK_RANK_PIPE);
	p->buf = (u8 *)page;
	p->nread = p->nwrite = 0;
	p->readers = p->writers = 1;
	p->readers_waiting = p->writers_waiting = 0;
	*out = p;
	return 0;
}

void pipe_hold(struct pipe *p, bool write)
{
	pipe_lock(p);
	if (write)
		p->writers++;
	else
		p->readers++;
	pipe_unlock(p);
}

/* Lock held: wake the readers if any sleep (there is something to
 * read, or no writer left), and the writers (room, or no reader). */
static void wake_readers(struct pipe *p)
{
	if (p->readers_waiting)
		sched_wake_up(READERS_CHANNEL(p));
}

static void wake_writers(struct pipe *p)
{
	if (p->writers_waiting)
		sched_wake_up(WRITERS_CHANNEL(p));
}

/*
 * A closed end: its sleepers on the other side learn it (a reader's end
 * of file, a writer's -EPIPE).  The last end frees the page and the
 * slot; the page's address is read first, as the slot may be claimed
 * again the moment it is free.
 */
void pipe_release(struct pipe *p, bool write)
{
	bool last;
	u32 page;

	pipe_lock(p);
	if (write)
		p->writers--;
	else
		p->readers--;
	wake_readers(p);
	wake_writers(p);
	last = !p->readers && !p->writers;
	page = (u32)p->buf;
	pipe_unlock(p);
	if (!last)
		return;
	page_free(page);
	xchg(&p->in_use, 0);
}

/* Lock held: sleep on channel, counted in *waiting.  Returns at once,
 * without sleeping, for a task asked to die (sched_sleep_on_lock): the
 * caller's loop must look at kill_requested. */
static void pipe_sleep(struct pipe *p, unsigned int *waiting, void *channel)
{
	(*waiting)++;
	sched_sleep_on_lock(channel, &p->lock);
	(*waiting)--;
}

/* ---- the copies, under the lock ---- */

/* n bytes of the ring from the read position to dst: 0 or -errno. */
static int ring_to_user(struct pipe *p, u32 dst, u32 n)
{
	u32 at = p->nread % PIPE_BUF, first = min(n, PIPE_BUF - at);
	int err = copy_to_user(dst, p->buf + at, first);

	if (!err && first < n)
		err = copy_to_user(dst + first, p->buf, n - first);
	return err;
}

/* n bytes from src into the ring at the write position. */
static int user_to_ring(struct pipe *p, u32 src, u32 n)
{
	u32 at = p->nwrite % PIPE_BUF, first = min(n, PIPE_BUF - at);
	int err = copy_from_user(p->buf + at, src, first);

	if (!err && first < n)
		err = copy_from_user(p->buf, src + first, n - first);
	return err;
}

/* Up to n bytes (what the pipe holds at most) to buf, a piece at a
 * time, each removed once copied: the bytes, or the first piece's error. */
static long copy_out(struct pipe *p, u32 buf, u32 n)
{
	u32 done = 0, piece;
	int err = 0;

	n = min(n, held(p));
	while (done < n) {
		piece = min(n - done, (u32)PIECE);
		if ((err = ring_to_user(p, buf + done, piece)))
			break;
		p->nread += piece;
		done += piece;
	}
	return done ? (long)done : err;
}

/* From buf + *done on, as much of len as there is room for, a piece of
 * buf at a time (pieces counted from buf, so a write that waited
 * midway keeps them), each added once copied: 0 or the error. */
static int copy_in(struct pipe *p, u32 buf, u32 len, u32 *done)
{
	u32 n;
	int err;

	while (*done < len && room(p)) {
		n = min(min(len - *done, room(p)), PIECE - *done % PIECE);
		if ((err = user_to_ring(p, buf + *done, n)))
			return err;
		p->nwrite += n;
		*done += n;
	}
	return 0;
}

/* ---- read and write ---- */

long pipe_read(struct pipe *p, u32 buf, u32 len)
{
	long ret;

	if (!user_range_ok(buf, len))
		return -EFAULT;
	if (!len)
		return 0;
	pipe_lock(p);
	while (!held(p) && p->writers && !current->kill_requested)
		pipe_sleep(p, &p->readers_waiting, READERS_CHANNEL(p));
	if (held(p))
		ret = copy_out(p, buf, len);
	else
		ret = p->writers ? -EINTR : 0;	/* killed, or end of file */
	if (ret > 0)
		wake_writers(p);
	pipe_unlock(p);
	return ret;
}

/*
 * The bytes written: all of them, or those written before the last
 * read end closed, the caller was killed or a piece faulted (-EPIPE,
 * -EINTR or the fault's error if none were).
 */
long pipe_write(struct pipe *p, u32 buf, u32 len)
{
	u32 done = 0, whole = len <= PIPE_BUF ? len : 1;
	int err = 0;

	if (!user_range_ok(buf, len))
		return -EFAULT;
	if (!len)
		return 0;
	pipe_lock(p);
	while (done < len && !err) {
		if (!p->readers) {
			err = -EPIPE;
		} else if (current->kill_requested) {
			err = -EINTR;
		} else if (room(p) < whole) {
			pipe_sleep(p, &p->writers_waiting, WRITERS_CHANNEL(p));
		} else {
			err = copy_in(p, buf, len, &done);
			wake_readers(p);
		}
	}
	pipe_unlock(p);
	return done ? (long)done : err;
}
