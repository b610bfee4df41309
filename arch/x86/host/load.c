/*
 * load.c - puts a guest kernel into guest memory, as a Multiboot loader
 * would put it into RAM: its ELF segments at their addresses, and a
 * Multiboot information block describing the guest's RAM and command
 * line.  The guest then boots through the same code as any pv386.
 *
 * The image comes from outside (a module) and is checked as exec.c
 * checks a user program: every segment inside the file and inside guest
 * memory, at or above 1 MiB, and the entry point in a loaded segment.
 */
#include <kernel.h>
#include <stddef.h>
#include <elf.h>
#include <multiboot.h>
#include <string.h>
#include "host.h"

/* The first boot module that is a kernel (multiboot.c tells), or NULL. */
const struct boot_module *guest_kernel_module(void)
{
	unsigned int i;

	for (i = 0; i < boot_info.nr_modules; i++)
		if (module_is_kernel(&boot_info.modules[i]))
			return &boot_info.modules[i];
	return NULL;
}

/* One PT_LOAD segment: its file bytes, then zeroes up to its size. */
static int load_segment(struct guest_memory *m, const u8 *image, u32 size,
			const struct elf32_phdr *ph)
{
	u8 *dst;

	if (!elf_segment_in_file(ph, size) || ph->paddr < GUEST_KERNEL_MIN)
		return -EINVAL;
	dst = guest_memory_ptr(m, ph->paddr, ph->memsz);
	if (!dst)
		return -EINVAL;
	memcpy(dst, image + ph->offset, ph->filesz);
	memset(dst + ph->filesz, 0, ph->memsz - ph->filesz);
	return 0;
}

/* Whether addr lies in an executable segment of the image. */
static bool entry_in_text(const struct elf32_phdr *ph, unsigned int n, u32 addr)
{
	for (; n; n--, ph++)
		if (ph->type == PT_LOAD && (ph->flags & PF_X) &&
		    addr >= ph->paddr && addr - ph->paddr < ph->memsz)
			return true;
	return false;
}

/*
 * The kernel loads at its physical addresses (pv386 is linked at 1 MiB,
 * virtual = physical), which are guest-physical here.  On an error some
 * segments may be in place already; the caller frees the memory.
 */
int guest_load_kernel(struct guest_memory *m, const void *image, u32 size, u32 *entry)
{
	const struct elf32_ehdr *h = image;
	const struct elf32_phdr *ph;
	unsigned int i, loaded = 0;
	int err = elf_check_header(image, size);

	if (err)
		return err;
	ph = (const struct elf32_phdr *)((const u8 *)image + h->phoff);
	for (i = 0; i < h->phnum; i++) {
		if (ph[i].type != PT_LOAD)
			continue;
		err = load_segment(m, image, size, &ph[i]);
		if (err)
			return err;
		loaded++;
	}
	if (!loaded || !entry_in_text(ph, h->phnum, h->entry))
		return -EINVAL;
	*entry = h->entry;
	return 0;
}

/* The Multiboot block, then its memory map, loader name and cmdline. */
struct guest_boot_block {
	struct multiboot_info info;
	struct multiboot_mmap_entry mmap[2];
	char loader[16];
	char cmdline[256];		/* boot_info keeps as much */
} __packed;

#define BLOCK_GPA(field)	(GUEST_BOOT_INFO + offsetof(struct guest_boot_block, field))

/* RAM below 640 KiB (the guest keeps the first MiB for itself, as on a
 * PC), and from 1 MiB to the end of guest memory. */
static void fill_memory_map(struct guest_boot_block *b, u32 size)
{
	b->mmap[0] = (struct multiboot_mmap_entry){ sizeof(b->mmap[0]) - 4, 0, 0xa0000,
						    MB_MEMORY_AVAILABLE };
	b->mmap[1] = (struct multiboot_mmap_entry){ sizeof(b->mmap[1]) - 4, 0x100000,
						    size - 0x100000, MB_MEMORY_AVAILABLE };
	b->info.mem_lower = 640;
	b->info.mem_upper = (size - 0x100000) / 1024;
	b->info.mmap_addr = BLOCK_GPA(mmap);
	b->info.mmap_length = sizeof(b->mmap);
}

int guest_write_boot_info(struct guest_memory *m, const char *cmdline)
{
	struct guest_boot_block *b = guest_memory_ptr(m, GUEST_BOOT_INFO, sizeof(*b));

	if (!b || strlen(cmdline) >= sizeof(b->cmdline))
		return -EINVAL;
	memset(b, 0, sizeof(*b));
	b->info.flags = MB_INFO_MEMORY | MB_INFO_MMAP | MB_INFO_CMDLINE | MB_INFO_LOADER_NAME;
	fill_memory_map(b, m->size);
	strlcpy(b->loader, "pv386 host", sizeof(b->loader));
	strlcpy(b->cmdline, cmdline, sizeof(b->cmdline));
	b->info.boot_loader_name = BLOCK_GPA(loader);
	b->info.cmdline = BLOCK_GPA(cmdline);
	return 0;
}
