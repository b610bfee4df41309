/*
 * uaccess.c - the kernel's only way to touch user memory: one byte at a
 * time, each access with an exception-table entry (asm/uaccess.h).
 * Byte by byte is slow but plain; system calls here move a few bytes.
 * On a 386, writes are checked against the page tables first.  A failed
 * access is -EFAULT, or -ENOMEM where the address was good but the page
 * it needed found no free frame (kernel/user_fault.c): a program told
 * "bad address" for its own stack would look for a bug it does not have.
 */
#include <kernel.h>
#include <task.h>
#include <asm/cpu.h>
#include <asm/extable.h>
#include <asm/paging.h>
#include <asm/uaccess.h>

/* Why the access just failed: asked once, after the fault. */
static int uaccess_error(void)
{
	if (!current->user_fault_no_memory)
		return -EFAULT;
	current->user_fault_no_memory = false;
	return -ENOMEM;
}

bool user_range_ok(u32 addr, u32 len)
{
	return addr >= USER_BASE && addr < USER_END && len <= USER_END - addr;
}

static int get_user_u8(u8 *out, u32 addr)
{
	int err;
	u8 v = 0;

	asm volatile("movl %[fault], %[err]\n"
		     "1: movb (%[addr]), %[v]\n\t"
		     "xorl %[err], %[err]\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : [err] "=&r" (err), [v] "+q" (v)
		     : [addr] "r" (addr), [fault] "i" (-EFAULT)
		     : "memory");
	*out = v;
	return err;
}

static int put_user_u8(u32 addr, u8 v)
{
	int err;

	asm volatile("movl %[fault], %[err]\n"
		     "1: movb %[v], (%[addr])\n\t"
		     "xorl %[err], %[err]\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : [err] "=&r" (err)
		     : [addr] "r" (addr), [v] "q" (v), [fault] "i" (-EFAULT)
		     : "memory");
	return err;
}

int copy_from_user(void *dst, u32 src, u32 len)
{
	u8 *d = dst;

	if (!user_range_ok(src, len))
		return -EFAULT;
	for (; len; len--, src++)
		if (get_user_u8(d++, src))
			return uaccess_error();
	return 0;
}

/*
 * A 386 has no CR0.WP, and an emulator may ignore it (DOSBox 0.74): in
 * ring 0 the CPU then writes read-only pages without a fault, so a
 * system call could write into a program's own code.  There the kernel
 * checks each page in software first (write_protect_holds).  A page not there yet
 * is brought in by reading it (the fault handler maps heap and stack
 * pages writable) and checked again.
 */
static int user_pages_writable(u32 addr, u32 len)
{
	u32 page, end = addr + len;
	u8 byte;

	for (page = addr & PAGE_MASK; page < end; page += PAGE_SIZE) {
		if (user_page_writable(current->pgd, page))
			continue;
		if (get_user_u8(&byte, max(page, addr)))
			return uaccess_error();
		if (!user_page_writable(current->pgd, page))
			return -EFAULT;
	}
	return 0;
}

int copy_to_user(u32 dst, const void *src, u32 len)
{
	const u8 *s = src;
	int err;

	if (!user_range_ok(dst, len))
		return -EFAULT;
	if (!write_protect_holds() && (err = user_pages_writable(dst, len)))
		return err;
	for (; len; len--, dst++)
		if (put_user_u8(dst, *s++))
			return uaccess_error();
	return 0;
}

/* A NUL-terminated string of at most size - 1 characters. */
int strncpy_from_user(char *dst, u32 src, u32 size)
{
	u32 i;

	for (i = 0; i < size; i++) {
		if (!user_range_ok(src + i, 1))
			return -EFAULT;
		if (get_user_u8((u8 *)&dst[i], src + i))
			return uaccess_error();
		if (!dst[i])
			return i;
	}
	return -EINVAL;		/* too long */
}
