/*
 * exec.h - user programs: where their ELF images are, and loading one
 * into a new task's address space (kernel/exec.c).
 *
 * The programs of user/ are built as separate ELF executables and packed
 * into the kernel image as data (the Makefile generates the table
 * user_programs[]), never into kernel text.  Multiboot modules that are
 * ELF executables are programs too, named by their file name.
 */
#ifndef PV386_EXEC_H
#define PV386_EXEC_H

#include <types.h>

struct program {
	const char *name;
	const u8 *image, *image_end;	/* the ELF file */
};

extern const struct program user_programs[];	/* ends with a NULL name */

struct task;

bool program_find(const char *name, struct program *out);
int exec_load(struct task *t, const struct program *prog, const char *arg);
void programs_print(void);

#define USER_STACK_TOP	USER_END
#define USER_STACK_MAX	(256 * 1024)	/* the stack grows on demand to this */

#endif
