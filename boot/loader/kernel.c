/*
 * kernel.c - loads the kernel ELF file to where its program headers say.
 *
 * The file is read whole, track by track, into a staging area just above
 * the highest byte the kernel will occupy; then each PT_LOAD segment is
 * copied from there to its physical address (p_paddr, as Multiboot
 * loaders do) and the rest of its memory size zeroed (the bss).  Staging
 * above the kernel means the copies never overlap their source.  Every
 * check that fails names what is wrong and stops.
 */
#include "loader.h"

#define EM_386		3
#define ET_EXEC		2
#define PT_LOAD		1
#define MIB		0x100000u
#define FIRST_BYTES	4096	/* the ELF header and program headers */

struct elf_header {
	u8 ident[16];
	u16 type, machine;
	u32 version, entry, phoff, shoff, flags;
	u16 ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf_phdr {
	u32 type, offset, vaddr, paddr, filesz, memsz, flags, align;
};

static u8 first[FIRST_BYTES];	/* the start of the file, below 64 KiB */

static void check_elf(const struct elf_header *eh, u32 bytes)
{
	if (bytes < sizeof(*eh) || memcmp(eh->ident, "\177ELF", 4))
		die("the kernel is not an ELF file");
	if (eh->ident[4] != 1 || eh->ident[5] != 1 || eh->machine != EM_386 ||
	    eh->type != ET_EXEC)
		die("the kernel is not a 32-bit i386 ELF executable");
	if (eh->phentsize != sizeof(struct elf_phdr) || !eh->phnum ||
	    eh->phoff > FIRST_BYTES ||
	    eh->phnum * sizeof(struct elf_phdr) > FIRST_BYTES - eh->phoff)
		die("the kernel's program headers are not in its first %u bytes",
		    FIRST_BYTES);
}

/* Checks each loadable segment; returns the end of the highest one. */
static u32 check_segments(const struct elf_header *eh, u32 bytes)
{
	const struct elf_phdr *ph = (const void *)(first + eh->phoff);
	u32 end = MIB, i;

	for (i = 0; i < eh->phnum; i++, ph++) {
		if (ph->type != PT_LOAD || !ph->memsz)
			continue;
		if (ph->paddr < MIB)
			die("a kernel segment starts at %x, below 1 MiB", ph->paddr);
		if (ph->filesz > ph->memsz || ph->offset > bytes ||
		    ph->filesz > bytes - ph->offset ||
		    ph->memsz > 0xffffffffu - ph->paddr)
			die("a kernel segment (at %x) lies outside the file", ph->paddr);
		if (ph->paddr + ph->memsz > end)
			end = ph->paddr + ph->memsz;
	}
	return end;
}

static void copy_segments(const struct elf_header *eh, u32 staging)
{
	const struct elf_phdr *ph = (const void *)(first + eh->phoff);
	u32 i;

	for (i = 0; i < eh->phnum; i++, ph++) {
		if (ph->type != PT_LOAD || !ph->memsz)
			continue;
		memcpy((void *)ph->paddr, (const void *)(staging + ph->offset),
		       ph->filesz);
		memset((void *)(ph->paddr + ph->filesz), 0, ph->memsz - ph->filesz);
	}
}

u32 kernel_load(u32 lba, u32 bytes, u32 memory_end, u32 *kernel_end)
{
	const struct elf_header *eh = (const void *)first;
	u32 sectors = (bytes + 511) / 512, end, staging;

	if (!bytes)
		die("the disk holds no kernel (its size is 0)");
	if (sectors > disk_sectors() || lba > disk_sectors() - sectors)
		die("the kernel is too large: %u sectors from sector %u, "
		    "the disk has %u", sectors, lba, disk_sectors());
	disk_read(lba, FIRST_BYTES / 512 < sectors ? FIRST_BYTES / 512 : sectors,
		  (u32)first);
	check_elf(eh, bytes);
	end = check_segments(eh, bytes);
	staging = (end + 4095) & ~4095u;
	if (staging < end || staging + sectors * 512 < staging ||
	    staging + sectors * 512 > memory_end)
		die("not enough memory: the kernel needs %u KiB above 1 MiB, "
		    "there are %u", (staging + sectors * 512 - MIB) >> 10,
		    (memory_end - MIB) >> 10);
	print("kernel: %u bytes from sector %u, %u KiB in memory\n",
	      bytes, lba, (end - MIB) >> 10);
	disk_read(lba, sectors, staging);
	copy_segments(eh, staging);
	*kernel_end = end;
	return eh->entry;
}
