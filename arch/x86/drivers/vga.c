/*
 * vga.c - the VGA text screen (80x25 at 0xb8000) as a console.
 *
 * Each cell is a character byte and a colour byte.  The hardware cursor
 * is moved through the CRT controller's index/data ports.
 */
#include <console.h>
#include <string.h>
#include <asm/io.h>

#define VGA_TEXT	((volatile u16 *)0xb8000)
#define VGA_COLS	80
#define VGA_ROWS	25
#define VGA_ATTR	0x0700		/* light grey on black */
#define CRTC_INDEX	0x3d4
#define CRTC_DATA	0x3d5
#define CRTC_CURSOR_HI	0x0e
#define CRTC_CURSOR_LO	0x0f

static unsigned int row, col;

static void vga_scroll(void)
{
	unsigned int i;

	for (i = 0; i < VGA_COLS * (VGA_ROWS - 1); i++)
		VGA_TEXT[i] = VGA_TEXT[i + VGA_COLS];
	for (; i < VGA_COLS * VGA_ROWS; i++)
		VGA_TEXT[i] = VGA_ATTR | ' ';
	row = VGA_ROWS - 1;
}

static void vga_move_cursor(void)
{
	u16 pos = row * VGA_COLS + col;

	outb(CRTC_INDEX, CRTC_CURSOR_HI);
	outb(CRTC_DATA, pos >> 8);
	outb(CRTC_INDEX, CRTC_CURSOR_LO);
	outb(CRTC_DATA, pos & 0xff);
}

static void vga_putc(char c)
{
	switch (c) {
	case '\n':
		col = 0;
		row++;
		break;
	case '\r':
		col = 0;
		break;
	case '\b':
		if (col)
			col--;
		break;
	case '\t':
		col = (col + 8) & ~7u;
		break;
	default:
		VGA_TEXT[row * VGA_COLS + col] = VGA_ATTR | (u8)c;
		col++;
	}
	if (col >= VGA_COLS) {
		col = 0;
		row++;
	}
	if (row >= VGA_ROWS)
		vga_scroll();
}

static void vga_write(const char *s, size_t n)
{
	while (n--)
		vga_putc(*s++);
	vga_move_cursor();
}

static struct console vga_console = {
	.name = "vga",
	.write = vga_write,
};

void vga_init(void)
{
	unsigned int i;

	for (i = 0; i < VGA_COLS * VGA_ROWS; i++)
		VGA_TEXT[i] = VGA_ATTR | ' ';
	row = col = 0;
	vga_move_cursor();
	register_console(&vga_console);
}
