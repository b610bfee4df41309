/*
 * labelled.h - a routine of a few instructions with a label on one of
 * them, for programs that report where the instruction the kernel should
 * name lies (user/crash.c, user/priv.c):
 *
 *     LABELLED(name, params, setup, at)
 *
 * defines void name(params) as `setup; name_at: at; ret` and declares
 * name_at, the address of `at`.
 */
#ifndef PV386_USER_LABELLED_H
#define PV386_USER_LABELLED_H

#define LABELLED(name, params, setup, at)				\
	void name(params);						\
	extern const unsigned char name##_at[];				\
	asm(".text\n\t.globl " #name ", " #name "_at\n"		\
	    #name ":\n\t" setup "\n"					\
	    #name "_at:\n\t" at "\n\tret")

#endif
