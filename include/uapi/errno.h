/*
 * uapi/errno.h - error numbers, shared by the kernel and user programs.
 *
 * A system call that fails returns minus one of these; the numbers are
 * Linux's, so they read the same in a debugger or a manual.
 */
#ifndef PV386_UAPI_ERRNO_H
#define PV386_UAPI_ERRNO_H

#define EPERM	1	/* not allowed */
#define ENOENT	2	/* no such program */
#define ESRCH	3	/* no such task */
#define EINTR	4	/* interrupted: the caller was killed */
#define EBADF	9	/* no such descriptor, or not open that way */
#define EAGAIN	11	/* no task slot free: try later */
#define ENOMEM	12	/* out of memory */
#define EFAULT	14	/* a bad address */
#define EBUSY	16	/* the resource is taken */
#define EINVAL	22	/* a bad argument */
#define ENOSYS	38	/* no such system call */
#define ECHILD	10	/* no child to wait for */
#define ENODEV	19	/* the CPU lacks it */
#define ENFILE	23	/* every pipe the system allows is open */
#define EMFILE	24	/* the caller's descriptor table is full */
#define EPIPE	32	/* a write to a pipe nobody can read */
#define ETIMEDOUT	110	/* a device never answered */

#endif
