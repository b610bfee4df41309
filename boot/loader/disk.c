/*
 * disk.c - reads sectors from the boot drive with INT 13h in CHS.
 *
 * The geometry is what the BIOS reports for that drive (AH=08h), so one
 * loader reads a floppy and a hard disk alike.  Reads go a track (or
 * what is left of one) at a time into the track buffer below 1 MiB,
 * where the BIOS can write, then get copied to their destination, which
 * may be above 1 MiB (unreal mode).  A read that fails resets the drive
 * and tries again: real floppy drives fail the first read while the
 * motor spins up.
 */
#include "loader.h"
#include <asm/io.h>	/* the kernel's port I/O, shared */

#define READ_TRIES	5
#define FDC_DOR		0x3f2	/* floppy controller: motors, reset, DMA */
#define FDC_DOR_IDLE	0x0c	/* no motor, controller enabled, DMA on */

static struct {
	u8 drive;
	u32 sectors, heads, cylinders;	/* per track, per cylinder, in all */
} disk;

void disk_init(u8 drive)
{
	struct biosregs r = { .eax = 0x0800, .edx = drive };

	bios_call(0x13, &r);
	if ((r.flags & FLAG_CF) || !(r.ecx & 0x3f))
		die("the BIOS gives no geometry for drive %x", drive);
	disk.drive = drive;
	disk.sectors = r.ecx & 0x3f;
	disk.heads = ((r.edx >> 8) & 0xff) + 1;
	disk.cylinders = (((r.ecx & 0xc0) << 2) | ((r.ecx >> 8) & 0xff)) + 1;
	print("disk: drive %x, %u cylinders, %u heads, %u sectors per track\n",
	      drive, disk.cylinders, disk.heads, disk.sectors);
}

static void reset_drive(void)
{
	struct biosregs r = { .eax = 0x0000, .edx = disk.drive };

	bios_call(0x13, &r);
}

/* Read count sectors of one track, from LBA lba, into the track buffer. */
static void read_track(u32 lba, u32 count)
{
	u32 sector = lba % disk.sectors + 1;
	u32 track = lba / disk.sectors;
	u32 head = track % disk.heads, cylinder = track / disk.heads;
	struct biosregs r;
	int try;

	if (cylinder >= disk.cylinders)
		die("sector %u lies past the end of the disk", lba);
	for (try = 0; try < READ_TRIES; try++) {
		r = (struct biosregs){
			.eax = 0x0200 | count,
			.ecx = ((cylinder & 0xff) << 8) | ((cylinder >> 2) & 0xc0) | sector,
			.edx = (head << 8) | disk.drive,
			.es = TRACK_BUFFER >> 4, .ebx = 0,
		};
		bios_call(0x13, &r);
		if (!(r.flags & FLAG_CF))
			return;
		print("disk: read error at sector %u (BIOS status %x), "
		      "resetting the drive\n", lba, (r.eax >> 8) & 0xff);
		reset_drive();
	}
	die("disk read error at sector %u (BIOS status %x) after %u tries",
	    lba, (r.eax >> 8) & 0xff, READ_TRIES);
}

void disk_read(u32 lba, u32 count, u32 dest)
{
	while (count) {
		u32 n = disk.sectors - lba % disk.sectors;	/* rest of the track */

		if (n > count)
			n = count;
		if (n > TRACK_BUFFER_BYTES / 512)
			n = TRACK_BUFFER_BYTES / 512;
		read_track(lba, n);
		memcpy(phys(dest), phys(TRACK_BUFFER), n * 512);
		lba += n;
		count -= n;
		dest += n * 512;
	}
}

u32 disk_sectors(void)
{
	return disk.cylinders * disk.heads * disk.sectors;
}

/* The BIOS stops a floppy motor from its timer interrupt a few seconds
 * after the last read; the kernel starts with interrupts off and has
 * its own IRQ 0, so the motor would spin on.  Stop it now. */
void disk_stop(void)
{
	if (disk.drive < 0x80)
		outb(FDC_DOR, FDC_DOR_IDLE);
}
