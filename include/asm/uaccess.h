/*
 * asm/uaccess.h - reading and writing user memory from the kernel.
 *
 * System call arguments point into the caller's address space, which is
 * the one loaded while it is in the kernel.  Every such pointer is
 * checked to lie in user space (a pointer into the kernel gets -EFAULT),
 * and every access carries an exception-table entry: an unmapped page
 * gives -EFAULT instead of a kernel fault (after the page-fault handler
 * has had the chance to page it in, as it would for the task itself),
 * and a page it could not page in for want of RAM gives -ENOMEM.
 */
#ifndef ASM_UACCESS_H
#define ASM_UACCESS_H

#include <types.h>

int copy_from_user(void *dst, u32 src, u32 len);	/* 0 or -errno */
int copy_to_user(u32 dst, const void *src, u32 len);	/* 0 or -errno */
int strncpy_from_user(char *dst, u32 src, u32 size);	/* length or -errno */
bool user_range_ok(u32 addr, u32 len);

#endif
