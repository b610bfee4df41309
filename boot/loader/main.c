/*
 * main.c - stage 2's C part, in order: console, the kernel header read
 * by stage 1, disk geometry, A20, memory, the prompt, the kernel, the
 * modules, the Multiboot info, and the jump.  Each step stops with a message if it
 * cannot do its part (die()).
 */
#include "loader.h"
#include <multiboot.h>	/* the format, shared with the kernel */

static struct multiboot_info mbi;
static char cmdline[CMDLINE_MAX];
static char default_line[CMDLINE_MAX];
static const char loader_name[] = LOADER_NAME;

u32 header_u32(unsigned int offset)
{
	u32 v;

	memcpy(&v, (const u8 *)HEADER_ADDR + offset, sizeof(v));
	return v;
}

static void read_header(void)
{
	if (memcmp((const void *)HEADER_ADDR, HEADER_MAGIC, 8))
		die("no pv386 kernel header at sector %u", HEADER_LBA);
	memcpy(default_line, (const u8 *)HEADER_ADDR + HEADER_OFF_CMDLINE,
	       CMDLINE_MAX - 1);	/* default_line[CMDLINE_MAX - 1] stays 0 */
}

void loader_main(u32 drive)
{
	u32 entry, kernel_end;

	console_init();
	print("\n%s, booting from drive %x\n", loader_name, drive);
	read_header();
	disk_init((u8)drive);
	a20_enable(header_u32(HEADER_OFF_FLAGS));
	memory_detect(&mbi, header_u32(HEADER_OFF_FLAGS));
	prompt(default_line, cmdline);
	entry = kernel_load(header_u32(HEADER_OFF_LBA),
			    header_u32(HEADER_OFF_BYTES), memory_upper_end(&mbi),
			    &kernel_end);
	modules_load(&mbi, kernel_end, memory_upper_end(&mbi));

	mbi.flags |= MB_INFO_CMDLINE | MB_INFO_LOADER_NAME | MB_INFO_BOOTDEV;
	mbi.cmdline = (u32)cmdline;
	mbi.boot_loader_name = (u32)loader_name;
	mbi.boot_device = (drive << 24) | 0xffffff;	/* the whole drive */
	print("loader: entering the kernel at %x\n", entry);
	disk_stop();
	enter_kernel(entry, (u32)&mbi);
}
