/*
 * fuzz_guest_check.c - a libFuzzer target for the host's checks of what
 * a guest hands it (arch/x86/host/check.c).
 *
 * An input is one request: which check (GDT entry, IDT gate, stack, LDT
 * entry, debug registers, MSR), an index or vector, a descriptor,
 * ss:esp, a watchpoint and DR7 or an MSR and its value, and the guest's
 * memory size.
 * Whatever the input, what a check accepts must be safe to load into
 * the CPU for a ring-1 guest; any breach aborts.
 */
#include <stdlib.h>
#include <string.h>
#include <asm/host_check.h>
#include <asm/switcher.h>
#include "../../../../arch/x86/host/host.h"	/* GUEST_KERNEL_MIN: tests reach in */
#include <asm/msr_index.h>
#include <asm/segment.h>

struct request {
	u8 kind;
	u32 index;
	u64 value;
	u32 mem_size;
} __attribute__((packed));

static unsigned int dpl(u64 d)	{ return (d >> 45) & 3; }

/* A segment the real GDT may hold: code or data (present or not), never
 * ring 0, accessed; or the empty slot, in a slot the guest owns. */
static void gdt_safe(const struct request *r, u64 out)
{
	if (r->index == 0 || r->index >= GDT_ENTRIES || r->index == GDT_ENTRY_TSS ||
	    r->index == GDT_ENTRY_LDT)
		abort();
	if (out && (!(out & 1ull << 44) || dpl(out) == 0 || !(out & 1ull << 40)))
		abort();
}

/* The same rules for an LDT entry, in a slot the guest's LDT has. */
static void ldt_safe(const struct request *r, u64 out)
{
	if (r->index >= GUEST_LDT_ENTRIES)
		abort();
	if (out && (!(out & 1ull << 44) || dpl(out) == 0 || !(out & 1ull << 40)))
		abort();
}

/* A gate into the guest kernel's code at ring 1, inside its memory. */
static void gate_safe(const struct request *r, u64 out)
{
	u32 offset = (u32)(out & 0xffff) | (u32)(out >> 48) << 16;
	unsigned int type = (out >> 40) & 0x1f;

	if (!out)
		return;
	if ((type != 0xe && type != 0xf) || ((out >> 16) & 0xffff) != (__KERNEL_CS | 1) ||
	    dpl(out) == 0 || offset < GUEST_KERNEL_MIN || offset >= r->mem_size ||
	    (out & 0xffull << 32))
		abort();
}

/* Watchpoints the CPU may hold for a guest: no GD, no I/O kind, every
 * armed slot below the Switcher. */
static void debugregs_safe(const u32 addr[4], u32 dr7)
{
	unsigned int i;

	if (dr7 & (1u << 13))
		abort();
	for (i = 0; i < 4; i++)
		if (((dr7 >> (2 * i)) & 3) &&
		    (addr[i] >= SWITCHER_ADDR || ((dr7 >> (16 + 4 * i)) & 3) == 2))
			abort();
}

/* No MSR a guest may read holds the host's addresses or settings (the
 * three that describe the CPU are its whole list, docs/guest.md); the
 * one write that may reach the CPU is the microcode latch's 0. */
static void msr_safe(u32 msr, u64 value)
{
	if (guest_check_msr_read(msr) == GUEST_OK && msr != MSR_IA32_TSC &&
	    msr != MSR_IA32_PLATFORM_ID && msr != MSR_IA32_BIOS_SIGN_ID)
		abort();
	if (guest_check_msr_write(msr, value) == GUEST_OK &&
	    (msr != MSR_IA32_BIOS_SIGN_ID || value))
		abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct request r;
	u32 ss, addr[4];
	u64 out;

	if (size < sizeof(r))
		return 0;
	memcpy(&r, data, sizeof(r));
	switch (r.kind % 6) {
	case 0:
		if (guest_check_gdt_entry(r.index, r.value, &out) == GUEST_OK)
			gdt_safe(&r, out);
		break;
	case 1:
		if (guest_check_idt_gate(r.index, r.value, r.mem_size, &out) == GUEST_OK)
			gate_safe(&r, out);
		break;
	case 2:
		if (guest_check_stack((u32)r.value, (u32)(r.value >> 32), r.mem_size, &ss) ==
		    GUEST_OK && (ss != (__KERNEL_DS | 1) || (u32)(r.value >> 32) > r.mem_size ||
				 (u32)(r.value >> 32) <= GUEST_KERNEL_MIN))
			abort();
		break;
	case 3:
		if (guest_check_ldt_entry(r.index, r.value, &out) == GUEST_OK)
			ldt_safe(&r, out);
		break;
	case 4:		/* one watchpoint, the same in each slot */
		addr[0] = addr[1] = addr[2] = addr[3] = r.index;
		if (guest_check_debugregs(addr, (u32)r.value) == GUEST_OK)
			debugregs_safe(addr, (u32)r.value);
		break;
	case 5:
		msr_safe(r.index, r.value);
		break;
	}
	return 0;
}
