/*
 * check.c - the host's rules for what a guest hands it to load into the
 * CPU (asm/host_check.h): GDT entries, IDT gates, the ring-1 stack and
 * the debug registers; and the MSRs it may read or write through the host.
 *
 * Descriptors are taken apart by their bits, as the CPU reads them
 * (Intel SDM vol. 3, 3.4.5 and 6.11): a segment descriptor's access
 * byte is bits 40-47 (accessed, type, S, DPL, present: SEG_*, 64-bit
 * masks, not asm/desc_defs.h's access-byte values), a gate keeps its
 * selector in bits 16-31 and its type in bits 40-43.
 */
#include <asm/debug_regs.h>
#include <asm/host_check.h>
#include <asm/msr_index.h>
#include <asm/segment.h>
#include "host.h"

#define SEG_ACCESSED	(1ull << 40)
#define SEG_S		(1ull << 44)	/* code or data, not system */
#define SEG_DPL_SHIFT	45
#define SEG_DPL	(3ull << SEG_DPL_SHIFT)
#define SEG_PRESENT	(1ull << 47)

#define GATE_TYPE_SHIFT	40
#define GATE_TYPE_MASK	0xfull
#define GATE_INTR32	0xeull
#define GATE_TRAP32	0xfull
#define GATE_RESERVED	(0xffull << 32)	/* bits 32-39: zero in a 32-bit gate */
#define GATE_SEL_SHIFT	16

#define SEG_CODE	(1ull << 43)	/* in a code or data segment's type */
#define SEG_CONFORMING	(1ull << 42)	/* code */
#define SEG_READ_WRITE	(1ull << 41)	/* code: readable; data: writable */

#define SELECTOR_INDEX(s)	((s) >> 3)
#define SELECTOR_TI		4	/* the LDT, not the GDT */
#define SELECTOR_RPL(s)		((s) & 3)

static const char *const verdict_texts[GUEST_VERDICTS] = {
	[GUEST_OK]		  = "accepted",
	[GUEST_BAD_INDEX]	  = "a GDT entry the guest may not write",
	[GUEST_SYSTEM_DESCRIPTOR] = "a system descriptor (gate, TSS or LDT)",
	[GUEST_BAD_VECTOR]	  = "no such vector",
	[GUEST_BAD_GATE_TYPE]	  = "not a 32-bit interrupt or trap gate",
	[GUEST_BAD_SELECTOR]	  = "not the guest kernel's segment",
	[GUEST_BAD_TARGET]	  = "outside the guest kernel",
	[GUEST_BAD_DEBUG_CONTROL] = "a debug control a guest may not set",
	[GUEST_BAD_WATCHPOINT]	  = "a watchpoint on the Switcher",
	[GUEST_BAD_MSR]		  = "an MSR a guest does not have",
};

const char *guest_verdict_text(enum guest_verdict v)
{
	return v < GUEST_VERDICTS ? verdict_texts[v] : "?";
}

/* Ring 0 becomes ring 1: the guest kernel's own level. */
static u64 raise_dpl(u64 d)
{
	if ((d & SEG_DPL) == 0)
		d |= (u64)GUEST_KERNEL_RPL << SEG_DPL_SHIFT;
	return d;
}

/*
 * A code or data segment for ring 1 or 3: a DPL of 0 becomes 1, and the
 * accessed bit is set so the CPU never writes to a table the guest
 * cannot write either.  A code or data segment marked not present stays
 * so (the CPU never uses it; loading it raises #NP or #SS, as the guest
 * expects); any other absent entry becomes the empty slot.  A system
 * descriptor (a call gate could lead to ring 0) is refused.
 */
static enum guest_verdict check_segment(u64 desc, u64 *out)
{
	*out = 0;
	if (!(desc & SEG_S))
		return desc & SEG_PRESENT ? GUEST_SYSTEM_DESCRIPTOR : GUEST_OK;
	*out = raise_dpl(desc) | SEG_ACCESSED;
	return GUEST_OK;
}

/* The guest may write the segments of pv386's GDT layout (asm/segment.h)
 * but the TSS's and the LDT's, which are the host's. */
enum guest_verdict guest_check_gdt_entry(unsigned int index, u64 desc, u64 *out)
{
	*out = 0;
	if (index == 0 || index >= GDT_ENTRIES || index == GDT_ENTRY_TSS ||
	    index == GDT_ENTRY_LDT)
		return GUEST_BAD_INDEX;
	return check_segment(desc, out);
}

/* Every LDT entry is the guest's (index 0 too: a selector with TI set
 * is never null). */
enum guest_verdict guest_check_ldt_entry(unsigned int index, u64 desc, u64 *out)
{
	*out = 0;
	if (index >= GUEST_LDT_ENTRIES)
		return GUEST_BAD_INDEX;
	return check_segment(desc, out);
}

/* Whether addr lies in the guest kernel: linked at 1 MiB, mapped 1:1. */
static bool in_guest_kernel(u32 addr, u32 mem_size)
{
	return addr >= GUEST_KERNEL_MIN && addr < mem_size;
}

/*
 * A gate must be a 32-bit interrupt or trap gate into the guest kernel's
 * code segment, at an address inside the guest's kernel; its selector is
 * given the guest's RPL and a DPL of 0 becomes 1.  An absent gate is
 * kept absent: a trap through it stops the guest.
 */
enum guest_verdict guest_check_idt_gate(unsigned int vector, u64 gate, u32 mem_size,
					u64 *out)
{
	u64 type = (gate >> GATE_TYPE_SHIFT) & GATE_TYPE_MASK;
	u32 sel = (u32)(gate >> GATE_SEL_SHIFT) & 0xffff;

	*out = 0;
	if (vector > 255)
		return GUEST_BAD_VECTOR;
	if (!(gate & SEG_PRESENT))
		return GUEST_OK;
	if ((gate & SEG_S) || (gate & GATE_RESERVED) ||
	    (type != GATE_INTR32 && type != GATE_TRAP32))
		return GUEST_BAD_GATE_TYPE;
	if (SELECTOR_INDEX(sel) != GDT_ENTRY_KERNEL_CS || (sel & SELECTOR_TI))
		return GUEST_BAD_SELECTOR;
	if (!in_guest_kernel(gate_offset(gate), mem_size))
		return GUEST_BAD_TARGET;
	gate &= ~((u64)0xffff << GATE_SEL_SHIFT);
	gate |= (u64)(__KERNEL_CS | GUEST_KERNEL_RPL) << GATE_SEL_SHIFT;
	*out = raise_dpl(gate);
	return GUEST_OK;
}

/*
 * The stack is the guest kernel's data segment at RPL 1 (the CPU loads
 * SS only at RPL = CPL) and an address in the guest kernel; esp is where
 * the first push ends, so the top of guest memory itself is allowed.
 */
enum guest_verdict guest_check_stack(u32 ss, u32 esp, u32 mem_size, u32 *out_ss)
{
	*out_ss = 0;
	if (SELECTOR_INDEX(ss) != GDT_ENTRY_KERNEL_DS || (ss & SELECTOR_TI))
		return GUEST_BAD_SELECTOR;
	if (esp <= GUEST_KERNEL_MIN || esp > mem_size)
		return GUEST_BAD_TARGET;
	*out_ss = __KERNEL_DS | GUEST_KERNEL_RPL;
	return GUEST_OK;
}

/*
 * Enables, exact-match bits and each slot's kind and length: no general
 * detect (GD would make the host's own debug-register moves trap), no
 * I/O breakpoints, and no armed slot at or above the Switcher, whose
 * code and pages the CPU uses with the guest's watchpoints armed.  A
 * watchpoint is aligned to its length (at most 8), so one below the
 * Switcher's 4 MiB boundary ends below it.
 */
enum guest_verdict guest_check_debugregs(const u32 addr[4], u32 dr7)
{
	unsigned int i;

	if (dr7 & ~(DR7_ENABLES | DR7_EXACT | DR7_ALWAYS_ONE | DR7_SLOT_FIELDS))
		return GUEST_BAD_DEBUG_CONTROL;
	for (i = 0; i < 4; i++) {
		if (!((dr7 >> (2 * i)) & 3))	/* neither L nor G */
			continue;
		if (DR7_RW_OF(dr7, i) == DR7_RW_IO)
			return GUEST_BAD_DEBUG_CONTROL;
		if (addr[i] >= SWITCHER_ADDR)
			return GUEST_BAD_WATCHPOINT;
	}
	return GUEST_OK;
}

/*
 * MSRs are the machine's, not the guest's: one wrmsr could set the
 * host's clock (the TSC), its caches' memory types or its APIC's
 * address.  So a guest reads only the MSRs that describe the CPU, and
 * writes only the 0 that asks the CPU to latch its microcode revision
 * into BIOS_SIGN_ID (Intel SDM vol. 3, 9.11.7: write 0, cpuid, read).
 * Every other MSR answers as on a CPU without it.
 */
enum guest_verdict guest_check_msr_read(u32 msr)
{
	switch (msr) {
	case MSR_IA32_TSC:		/* which ring 1 may read with rdtsc */
	case MSR_IA32_PLATFORM_ID:
	case MSR_IA32_BIOS_SIGN_ID:
		return GUEST_OK;
	}
	return GUEST_BAD_MSR;
}

enum guest_verdict guest_check_msr_write(u32 msr, u64 value)
{
	return msr == MSR_IA32_BIOS_SIGN_ID && value == 0 ? GUEST_OK : GUEST_BAD_MSR;
}

/*
 * Whether the CPU, at ring cpl, loads selector sel (whose descriptor is
 * desc; 0 for one past its table) into a segment register of kind, as
 * the Switcher's entry does each time (Intel SDM vol. 3, 5.6-5.8).  The
 * guest may have rewritten the descriptor since it loaded the register:
 * a CPU keeps what it loaded, the Switcher's pop cannot.
 */
bool guest_segment_loadable(enum guest_segment_kind kind, u16 sel, u64 desc,
			    unsigned int cpl)
{
	unsigned int dpl = (desc & SEG_DPL) >> SEG_DPL_SHIFT, rpl = SELECTOR_RPL(sel);
	bool code = desc & SEG_CODE;

	if (!(sel & ~3u))		/* null: only a data register takes it */
		return kind == GUEST_SEGMENT_DATA;
	if (!(desc & SEG_PRESENT) || !(desc & SEG_S))
		return false;
	if (kind == GUEST_SEGMENT_CODE)
		return code && rpl == cpl &&
		       (desc & SEG_CONFORMING ? dpl <= cpl : dpl == cpl);
	if (kind == GUEST_SEGMENT_STACK)
		return !code && (desc & SEG_READ_WRITE) && rpl == cpl && dpl == cpl;
	if (code && !(desc & SEG_READ_WRITE))
		return false;			/* execute-only */
	return (code && (desc & SEG_CONFORMING)) || (dpl >= cpl && dpl >= rpl);
}
