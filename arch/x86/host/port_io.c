/*
 * port_io.c - the ports a guest's program sees once its kernel gave it
 * I/O privilege (iopl(3), the set_iopl hypercall).
 *
 * A guest kernel cannot give the real thing: IOPL 3 would hand its
 * program the host's devices, and cli and sti too, which would keep the
 * host's interrupts off.  So the CPU's IOPL stays 0, every in and out of
 * the program faults, and the host does it for the program here, as Xen
 * does for its guests' I/O privilege and lguest did for its guest's
 * probes: on a bus with one device, the clock chip (CMOS RTC, ports
 * 0x70-0x71), read-only - the program picks a register and reads it from
 * the real chip, which the host kernel never uses - and nothing behind
 * any other port (reads give all ones, writes go nowhere).  Only the
 * one-port forms are done (in, out, with a 0x66 prefix at most); ins and
 * outs, and cli, sti, still kill the program with #GP.
 */
#include <kernel.h>
#include <string.h>
#include <asm/host.h>
#include <asm/io.h>

#define CMOS_INDEX	0x70
#define CMOS_DATA	0x71
#define CMOS_REGISTERS	0x7f	/* bit 7 of the index turns NMIs off: never */
#define OPERAND_16	0x66	/* the operand-size prefix: 16 bits, not 32 */
#define IO_INSN_MAX	3	/* 0x66, the opcode, the port byte */

struct port_insn {
	bool in;		/* in: the port into EAX; out: EAX to it */
	unsigned int size;	/* 1, 2 or 4 bytes */
	u16 port;
	unsigned int len;	/* the instruction's bytes */
};

/* Up to IO_INSN_MAX bytes at the program's eip, a page's end crossed if
 * need be: how many its tables let it read. */
static unsigned int fetch(const struct guest *g, u32 eip, u8 code[IO_INSN_MAX])
{
	unsigned int i;

	memset(code, 0, IO_INSN_MAX);
	for (i = 0; i < IO_INSN_MAX; i++) {
		const u8 *page = shadow_user_page(g->shadows.active, eip + i);

		if (!page)
			break;
		code[i] = page[(eip + i) % PAGE_SIZE];
	}
	return i;
}

/*
 * in al/eax, imm8 (e4, e5); out imm8, al/eax (e6, e7); the same with
 * the port in dx (ec-ef).  Bit 0 of the opcode: a byte or a word, bit 1:
 * out, bit 3: the port in dx.
 */
static bool decode(const u8 *code, u32 edx, struct port_insn *p)
{
	bool operand16 = code[0] == OPERAND_16;
	u8 op = code[operand16];

	if ((op & 0xf4) != 0xe4)
		return false;
	p->in = !(op & 2);
	p->size = !(op & 1) ? 1 : operand16 ? 2 : 4;
	p->port = op & 8 ? (u16)edx : code[operand16 + 1];
	p->len = operand16 + 1 + !(op & 8);
	return true;
}

static u32 port_read(struct guest *g, u16 port, unsigned int size)
{
	if (port == CMOS_DATA && size == 1) {
		outb(CMOS_INDEX, g->cmos_index);
		return inb(CMOS_DATA);
	}
	return size == 4 ? 0xffffffffu : (1u << (8 * size)) - 1;
}

static void port_write(struct guest *g, u16 port, unsigned int size, u32 value)
{
	if (port == CMOS_INDEX && size == 1)
		g->cmos_index = value & CMOS_REGISTERS;
}

bool guest_port_io(struct guest *g, struct pt_regs *r)
{
	u8 code[IO_INSN_MAX];
	unsigned int fetched;
	struct port_insn p;
	u32 mask;

	if ((r->cs & 3) != 3 || g->user_iopl != 3)
		return false;
	fetched = fetch(g, r->eip, code);
	if (!decode(code, r->edx, &p) || p.len > fetched)
		return false;
	mask = p.size == 4 ? 0xffffffffu : (1u << (8 * p.size)) - 1;
	if (p.in)
		r->eax = (r->eax & ~mask) | port_read(g, p.port, p.size);
	else
		port_write(g, p.port, p.size, r->eax & mask);
	r->eip += p.len;
	return true;
}
