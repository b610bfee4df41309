/*
 * elf.h - the parts of a static ELF32 i386 executable pv386 loads: the
 * file header and the program headers of its loadable segments.
 *
 * Two loaders read them: kernel/exec.c (a user program into a task) and
 * arch/x86/host/load.c (a guest kernel into guest memory).  Both trust an
 * image only as far as elf_check_header() and their own bounds checks go.
 */
#ifndef PV386_ELF_H
#define PV386_ELF_H

#include <types.h>
#include <uapi/errno.h>

#define ELF_MAGIC	0x464c457f	/* "\x7fELF" */
#define ELFCLASS32	1
#define ET_EXEC		2
#define EM_386		3
#define PT_LOAD		1
#define PF_X		1
#define PF_W		2

struct elf32_ehdr {
	u32 magic;
	u8 class, data, version, osabi, pad[8];
	u16 type, machine;
	u32 version2, entry, phoff, shoff, flags;
	u16 ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
} __packed;

struct elf32_phdr {
	u32 type, offset, vaddr, paddr, filesz, memsz, flags, align;
} __packed;

/*
 * 0 if image[0..size) starts with a header of an i386 executable whose
 * program headers lie inside the image, else -EINVAL.
 */
static inline int elf_check_header(const void *image, u32 size)
{
	const struct elf32_ehdr *h = image;

	if (size < sizeof(*h) || h->magic != ELF_MAGIC || h->class != ELFCLASS32 ||
	    h->type != ET_EXEC || h->machine != EM_386 ||
	    h->phentsize != sizeof(struct elf32_phdr) ||
	    h->phoff > size || h->phnum > (size - h->phoff) / sizeof(struct elf32_phdr))
		return -EINVAL;
	return 0;
}

/* Whether segment ph's file bytes lie inside an image of size bytes. */
static inline bool elf_segment_in_file(const struct elf32_phdr *ph, u32 size)
{
	return ph->filesz <= ph->memsz && ph->offset <= size &&
	       ph->filesz <= size - ph->offset;
}

#endif
