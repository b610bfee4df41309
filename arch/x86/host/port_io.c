/*
 * port_io.c - the ports a guest's program sees once its kernel gave it
 * I/O privilege (iopl(3), the set_iopl hypercall).
 *
 * A guest kernel cannot give the real thing: IOPL 3 would hand its
 * program the host's devices, and cli and sti too, which would keep the
 * host's interrupts off.  So the CPU's IOPL stays 0, every in and out of
 * the program faults, and the host does it for the program here, as Xen
 * does for its guests' I/O privilege and lguest did for its guest's
 * probes, on a bus of the host's making.  One device is on it: the clock
 * chip (CMOS RTC, ports 0x70-0x71), which the host kernel never uses,
 * read-only and only its clock registers - the program picks one and the
 * host reads it from the real chip.  Nothing is behind any other port:
 * reads give all ones, writes go nowhere.
 *
 * Only the plain forms are done: in and out, of a byte, a word (0x66)
 * or a dword, at an immediate port or DX, by the flat user code
 * segment.  Any other prefix, ins and outs, cli and sti still kill the
 * program with #GP, as they would without I/O privilege.
 */
#include <kernel.h>
#include <string.h>
#include <asm/debug_regs.h>
#include <asm/io.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/segment.h>
#include <asm/traps.h>
#include "host.h"

#define CMOS_INDEX	0x70
#define CMOS_DATA	0x71
#define CMOS_REGISTER	0x7f	/* bit 7 of an index: NMIs off, never the guest's */
#define CMOS_STATUS_C	0x0c	/* reading it clears the RTC's interrupt flags */
#define CMOS_STATUS_D	0x0d	/* the last clock register; NVRAM from 0x0e */
#define OPERAND_16	0x66	/* the operand-size prefix: 16 bits, not 32 */
#define IO_INSN_MAX	3	/* 0x66, the opcode, the port byte */

struct port_insn {
	bool in;		/* in: the port into EAX; out: EAX to it */
	unsigned int size;	/* 1, 2 or 4 bytes */
	u16 port;
	unsigned int len;	/* the instruction's bytes */
};

/* The bits of EAX a size-byte access moves. */
static u32 size_mask(unsigned int size)
{
	return size == 4 ? 0xffffffffu : (1u << (8 * size)) - 1;
}

/* Up to IO_INSN_MAX bytes at the program's eip, a page's end crossed if
 * need be: how many its tables let it read. */
static unsigned int fetch(const struct guest *g, u32 eip, u8 code[IO_INSN_MAX])
{
	unsigned int i;

	memset(code, 0, IO_INSN_MAX);
	for (i = 0; i < IO_INSN_MAX; i++) {
		const u8 *page = guest_user_page(g->shadows.active, eip + i);

		if (!page)
			break;
		code[i] = page[(eip + i) % PAGE_SIZE];
	}
	return i;
}

/*
 * in al/eax, imm8 (e4, e5); out imm8, al/eax (e6, e7); the same with
 * the port in dx (ec-ef).  Bit 0 of the opcode: a byte, or a dword (a
 * word after 0x66); bit 1: out; bit 3: the port in dx.
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

/* The chip's clock registers but status C: the time, the alarm, status
 * A, B and D.  Interrupts off between index and data: a host thread that
 * ran in between could pick another register. */
static u8 cmos_read(u8 index)
{
	unsigned long flags;
	u8 v;

	if (index > CMOS_STATUS_D || index == CMOS_STATUS_C)
		return 0xff;
	flags = raw_local_irq_save();
	outb(CMOS_INDEX, index);
	v = inb(CMOS_DATA);
	raw_local_irq_restore(flags);
	return v;
}

static u32 port_read(struct guest *g, u16 port, unsigned int size)
{
	if (port == CMOS_DATA && size == 1)
		return cmos_read(g->cmos_index);
	return size_mask(size);
}

static void port_write(struct guest *g, u16 port, unsigned int size, u32 value)
{
	if (port == CMOS_INDEX && size == 1)
		g->cmos_index = value & CMOS_REGISTER;
}

/* After the instruction, the single step it asked for: the #DB the CPU
 * would have raised, with DR6 saying so. */
static void step_done(struct guest *g, struct pt_regs *r)
{
	if (!(r->eflags & X86_EFLAGS_TF))
		return;
	g->shared->dr6 = DR6_BS;
	guest_reflect_trap(g, X86_TRAP_DB, 0);
}

bool guest_port_io(struct guest *g, struct pt_regs *r)
{
	u8 code[IO_INSN_MAX];
	unsigned int fetched;
	struct port_insn p;
	u32 mask;

	/* An I/O #GP has error code 0; the flat segment makes eip an address.
	 * user_iopl is 3 only after set_iopl, so after init: shared is set. */
	if (r->cs != __USER_CS || r->error_code || g->user_iopl != 3)
		return false;
	fetched = fetch(g, r->eip, code);
	if (!decode(code, r->edx, &p) || p.len > fetched)
		return false;
	mask = size_mask(p.size);
	if (p.in)
		r->eax = (r->eax & ~mask) | port_read(g, p.port, p.size);
	else
		port_write(g, p.port, p.size, r->eax & mask);
	r->eip += p.len;
	step_done(g, r);
	return true;
}
