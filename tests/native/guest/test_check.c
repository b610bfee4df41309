/*
 * test_check.c - the host's checks of what a guest asks it to load
 * (arch/x86/host/check.c), on descriptors built here bit by bit.
 *
 * Each clause of each check, and the test whose input fails it alone
 * (tools/mutate-checks deletes each clause in turn: that test fails):
 *
 *   check                  clause                         test
 *   guest_check_gdt_entry  slot 0, past the GDT,          gdt_refuses_host_slots
 *                          the TSS's, the LDT's
 *   guest_check_ldt_entry  past the LDT                   ldt_entries_as_segments
 *   check_segment          a present system descriptor    gdt_refuses_system_descriptors
 *                          accessed set, DPL 0 made 1     gdt_kernel_segments_become_ring_1
 *   guest_check_idt_gate   vector over 255                gate_refuses_bad_vector
 *                          absent: kept absent            gate_absent_kept_absent
 *                          S set, reserved bits, type     gate_refuses_other_types
 *                          selector's index, its TI       gate_refuses_other_selectors
 *                          target below 1 MiB, past mem   gate_refuses_targets_outside
 *                          DPL 0 made 1                   gate_into_kernel_becomes_ring_1
 *   guest_check_stack      selector's index, its TI       stack_refuses_other_selectors
 *                          esp at or below 1 MiB, past    stack_refuses_outside
 *                          SS given ring 1                stack_inside_accepted
 *   guest_check_debugregs  DR7 bits outside the allowed   debugregs_refuse_controls
 *                          an unarmed slot is not judged  debugregs_watchpoints_accepted
 *                          an I/O breakpoint              debugregs_refuse_controls
 *                          a watchpoint on the Switcher   debugregs_refuse_the_switcher
 *   guest_check_msr_read   any but the three              msr_reads_only_descriptions
 *   guest_check_msr_write  another MSR, another value     msr_writes_only_the_microcode_latch
 *   guest_segment_loadable null but in a data register,   segments_load_as_the_cpu_loads_them
 *                          absent, system, code or data   (a row for each clause, named
 *                          by kind, read/write, RPL, DPL, by the clause it fails)
 *                          conforming code
 */
#include <asm/host_check.h>
#include <asm/switcher.h>
#include <asm/msr_index.h>
#include <asm/segment.h>
#include "../runner/runner.h"

#define MEM	(16u << 20)	/* a 16 MiB guest */

/* A flat 4 GiB segment: type (code 0xa, data 0x2), dpl, present. */
static u64 flat(unsigned int type, unsigned int dpl)
{
	return 0xffffull | (u64)(0x10 | type | dpl << 5 | 0x80) << 40 | 0xcfull << 48;
}

/* A gate of type to offset through selector, at dpl, present. */
static u64 gate(unsigned int type, u16 selector, u32 offset, unsigned int dpl)
{
	return (offset & 0xffff) | (u64)selector << 16 |
	       (u64)(type | dpl << 5 | 0x80) << 40 | (u64)(offset >> 16) << 48;
}

static unsigned int dpl_of(u64 d)	{ return (d >> 45) & 3; }
static u16 selector_of(u64 g)		{ return (g >> 16) & 0xffff; }

void test_gdt_kernel_segments_become_ring_1(void)
{
	u64 out;

	CHECK(guest_check_gdt_entry(GDT_ENTRY_KERNEL_CS, flat(0xa, 0), &out) == GUEST_OK, "cs");
	CHECK(dpl_of(out) == 1 && (out & (1ull << 40)), "cs as %llx", (unsigned long long)out);
	CHECK(guest_check_gdt_entry(GDT_ENTRY_KERNEL_DS, flat(0x2, 0), &out) == GUEST_OK, "ds");
	CHECK(out == (flat(0x2, 1) | 1ull << 40), "ds as %llx", (unsigned long long)out);
}

void test_gdt_user_segments_kept(void)
{
	u64 out;

	CHECK(guest_check_gdt_entry(GDT_ENTRY_USER_CS, flat(0xb, 3), &out) == GUEST_OK, "ucs");
	CHECK(out == flat(0xb, 3), "user cs changed to %llx", (unsigned long long)out);
	CHECK(guest_check_gdt_entry(GDT_ENTRY_TLS_MIN + 2, flat(0x3, 3), &out) == GUEST_OK, "tls");
	CHECK(out == flat(0x3, 3), "tls changed");
}

void test_gdt_absent_segment_kept_absent(void)
{
	u64 absent = flat(0x2, 0) & ~(1ull << 47);
	u64 out = 0;

	CHECK(guest_check_gdt_entry(GDT_ENTRY_TLS_MIN, absent, &out) == GUEST_OK,
	      "an absent data segment refused");
	CHECK(!(out & (1ull << 47)) && (out & (1ull << 44)) && dpl_of(out) == 1,
	      "an absent ring-0 data segment must stay absent, at ring 1: %llx",
	      (unsigned long long)out);
}

void test_gdt_absent_system_entry_is_empty(void)
{
	u64 call_gate = gate(0xc, __KERNEL_CS, 0x100000, 3) & ~(1ull << 47);
	u64 out = 1;

	CHECK(guest_check_gdt_entry(GDT_ENTRY_TLS_MIN, call_gate, &out) == GUEST_OK &&
	      out == 0, "an absent call gate must become an empty slot, not %llx",
	      (unsigned long long)out);
}

void test_gdt_refuses_host_slots(void)
{
	static const unsigned int bad[] = { 0, GDT_ENTRY_TSS, GDT_ENTRY_LDT, GDT_ENTRIES, 8191 };
	unsigned int i;
	u64 out;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(guest_check_gdt_entry(bad[i], flat(0x2, 3), &out) == GUEST_BAD_INDEX &&
		      out == 0, "slot %u accepted", bad[i]);
}

void test_gdt_refuses_system_descriptors(void)
{
	u64 out, tss = flat(0x9, 0) & ~(1ull << 44);
	u64 call_gate = gate(0xc, __KERNEL_CS, 0x100000, 3);

	CHECK(guest_check_gdt_entry(GDT_ENTRY_USER_DS, tss, &out) == GUEST_SYSTEM_DESCRIPTOR,
	      "a TSS descriptor accepted");
	CHECK(guest_check_gdt_entry(GDT_ENTRY_USER_DS, call_gate, &out) == GUEST_SYSTEM_DESCRIPTOR,
	      "a call gate accepted");
	CHECK(out == 0, "out not cleared");
}

void test_gate_into_kernel_becomes_ring_1(void)
{
	u64 out;

	CHECK(guest_check_idt_gate(14, gate(0xe, __KERNEL_CS, 0x101234, 0), MEM, &out) ==
	      GUEST_OK, "a page-fault gate refused");
	CHECK(selector_of(out) == (__KERNEL_CS | 1) && dpl_of(out) == 1, "gate %llx",
	      (unsigned long long)out);
	CHECK((out & 0xffff) == 0x1234 && (out >> 48) == 0x10, "offset changed");
}

void test_gate_dpl_3_kept(void)
{
	u64 out;

	CHECK(guest_check_idt_gate(0x80, gate(0xf, __KERNEL_CS, 0x102000, 3), MEM, &out) ==
	      GUEST_OK && dpl_of(out) == 3, "the system-call gate");
}

void test_gate_absent_kept_absent(void)
{
	u64 out = 1;

	CHECK(guest_check_idt_gate(3, 0, MEM, &out) == GUEST_OK && out == 0, "absent gate");
}

void test_gate_refuses_other_types(void)
{
	static const unsigned int types[] = { 0x5, 0xc, 0x6, 0x7, 0x0 };
	unsigned int i;
	u64 out;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		CHECK(guest_check_idt_gate(32, gate(types[i], __KERNEL_CS, 0x101000, 0), MEM, &out) ==
		      GUEST_BAD_GATE_TYPE && out == 0, "gate type %#x accepted", types[i]);
	CHECK(guest_check_idt_gate(32, gate(0xe, __KERNEL_CS, 0x101000, 0) | 1ull << 44, MEM,
				   &out) == GUEST_BAD_GATE_TYPE, "a segment descriptor as a gate");
	CHECK(guest_check_idt_gate(32, gate(0xe, __KERNEL_CS, 0x101000, 0) | 1ull << 37, MEM,
				   &out) == GUEST_BAD_GATE_TYPE, "reserved bits set");
}

void test_gate_refuses_other_selectors(void)
{
	static const u16 bad[] = { __KERNEL_DS, __USER_CS, __TSS_SEL, 0, 0x48,
				   __KERNEL_CS | 4 /* the LDT's */ };
	unsigned int i;
	u64 out;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(guest_check_idt_gate(13, gate(0xe, bad[i], 0x101000, 0), MEM, &out) ==
		      GUEST_BAD_SELECTOR, "selector %#x accepted", bad[i]);
}

void test_gate_refuses_targets_outside(void)
{
	static const u32 bad[] = { 0, 0xfff00, MEM, 0xffc00000u, 0xffffffffu };
	unsigned int i;
	u64 out;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(guest_check_idt_gate(13, gate(0xe, __KERNEL_CS, bad[i], 0), MEM, &out) ==
		      GUEST_BAD_TARGET, "target %#x accepted", bad[i]);
	CHECK(guest_check_idt_gate(13, gate(0xe, __KERNEL_CS, MEM - 1, 0), MEM, &out) == GUEST_OK,
	      "the last byte of guest memory refused");
}

void test_gate_refuses_bad_vector(void)
{
	u64 out;

	CHECK(guest_check_idt_gate(256, gate(0xe, __KERNEL_CS, 0x101000, 0), MEM, &out) ==
	      GUEST_BAD_VECTOR, "vector 256");
}

void test_stack_inside_accepted(void)
{
	u32 ss;

	CHECK(guest_check_stack(__KERNEL_DS, 0x200000, MEM, &ss) == GUEST_OK &&
	      ss == (__KERNEL_DS | 1), "a kernel stack");
	CHECK(guest_check_stack(__KERNEL_DS | 1, MEM, MEM, &ss) == GUEST_OK,
	      "a stack ending at the top of guest memory");
}

void test_stack_refuses_other_selectors(void)
{
	u32 ss = 1;

	CHECK(guest_check_stack(__USER_DS, 0x200000, MEM, &ss) == GUEST_BAD_SELECTOR && ss == 0,
	      "the user data segment");
	CHECK(guest_check_stack(__KERNEL_DS | 4, 0x200000, MEM, &ss) == GUEST_BAD_SELECTOR,
	      "an LDT selector");
}

void test_stack_refuses_outside(void)
{
	static const u32 bad[] = { 0, 0x100000, MEM + 4, 0xffc01000u };
	unsigned int i;
	u32 ss;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(guest_check_stack(__KERNEL_DS, bad[i], MEM, &ss) == GUEST_BAD_TARGET,
		      "esp %#x accepted", bad[i]);
}

void test_verdict_texts(void)
{
	unsigned int v;

	for (v = 0; v < GUEST_VERDICTS; v++)
		CHECK(guest_verdict_text(v) && guest_verdict_text(v)[0] != '?',
		      "verdict %u has no text", v);
	CHECK(guest_verdict_text(GUEST_VERDICTS)[0] == '?', "an unknown verdict");
}

/* The LDT's entries follow the GDT's rules, in every slot of the LDT and
 * no other: a ring-0 segment comes back at ring 1, a call gate never. */
void test_ldt_entries_as_segments(void)
{
	u64 out;

	CHECK(guest_check_ldt_entry(0, flat(0x2, 0), &out) == GUEST_OK && dpl_of(out) == 1,
	      "a ring-0 data segment in LDT slot 0: %llx", (unsigned long long)out);
	CHECK(guest_check_ldt_entry(GUEST_LDT_ENTRIES - 1, flat(0xb, 3), &out) == GUEST_OK &&
	      out == flat(0xb, 3), "a user code segment in the last slot");
	CHECK(guest_check_ldt_entry(1, gate(0xc, __KERNEL_CS, 0x100000, 3), &out) ==
	      GUEST_SYSTEM_DESCRIPTOR && out == 0, "a call gate in the LDT");
	CHECK(guest_check_ldt_entry(GUEST_LDT_ENTRIES, flat(0x2, 3), &out) == GUEST_BAD_INDEX &&
	      out == 0, "an entry past the LDT");
}

/* pv386's own watchpoint: a 4-byte write watch, slot 1, locally enabled. */
#define DR7_SLOT1_WRITE4	(0x4u | 0xdu << 20)

void test_debugregs_watchpoints_accepted(void)
{
	u32 addr[4] = { 0, 0x40001000, 0, 0 };

	CHECK(guest_check_debugregs(addr, 0) == GUEST_OK, "none armed");
	CHECK(guest_check_debugregs(addr, DR7_SLOT1_WRITE4) == GUEST_OK, "a user watchpoint");
	CHECK(guest_check_debugregs(addr, DR7_SLOT1_WRITE4 | 0x700) == GUEST_OK,
	      "LE, GE and the bit that reads as 1");
	addr[0] = SWITCHER_ADDR;	/* not armed: harmless */
	CHECK(guest_check_debugregs(addr, DR7_SLOT1_WRITE4) == GUEST_OK, "slot 0 off");
}

void test_debugregs_refuse_the_switcher(void)
{
	u32 addr[4] = { 0, 0, 0, SWITCHER_ADDR };
	u32 i;

	CHECK(guest_check_debugregs(addr, 0x40) == GUEST_BAD_WATCHPOINT, "slot 3, code");
	addr[3] = 0xfffffffc;
	CHECK(guest_check_debugregs(addr, 0x80 | 0xdu << 28) == GUEST_BAD_WATCHPOINT,
	      "slot 3, global, write");
	addr[3] = SWITCHER_ADDR - 4;
	CHECK(guest_check_debugregs(addr, 0x80 | 0xdu << 28) == GUEST_OK, "just below");
	for (i = 0; i < 4; i++) {
		u32 a[4] = { 0, 0, 0, 0 };

		a[i] = SWITCHER_ADDR + 0x3000;	/* the state page */
		CHECK(guest_check_debugregs(a, 1u << (2 * i)) == GUEST_BAD_WATCHPOINT,
		      "slot %u", i);
	}
}

void test_debugregs_refuse_controls(void)
{
	u32 addr[4] = { 0x40001000, 0, 0, 0 };

	CHECK(guest_check_debugregs(addr, 1u << 13) == GUEST_BAD_DEBUG_CONTROL, "GD");
	CHECK(guest_check_debugregs(addr, 1u << 11) == GUEST_BAD_DEBUG_CONTROL, "bit 11");
	CHECK(guest_check_debugregs(addr, 1 | 2u << 16) == GUEST_BAD_DEBUG_CONTROL,
	      "an I/O breakpoint");
	CHECK(guest_check_debugregs(addr, 2u << 16) == GUEST_OK, "I/O kind, slot off");
}

/* The three that describe the CPU, and none near them. */
void test_msr_reads_only_descriptions(void)
{
	CHECK(guest_check_msr_read(MSR_IA32_TSC) == GUEST_OK, "the TSC");
	CHECK(guest_check_msr_read(MSR_IA32_PLATFORM_ID) == GUEST_OK, "the platform id");
	CHECK(guest_check_msr_read(MSR_IA32_BIOS_SIGN_ID) == GUEST_OK, "the microcode revision");
	CHECK(guest_check_msr_read(MSR_IA32_APIC_BASE) == GUEST_BAD_MSR, "the APIC base");
	CHECK(guest_check_msr_read(MSR_IA32_SYSENTER_EIP) == GUEST_BAD_MSR, "SYSENTER_EIP");
	CHECK(guest_check_msr_read(MSR_EFER) == GUEST_BAD_MSR, "EFER");
	CHECK(guest_check_msr_read(MSR_IA32_TSC | 0x80000000u) == GUEST_BAD_MSR,
	      "the TSC, high bit set");
}

void test_msr_writes_only_the_microcode_latch(void)
{
	CHECK(guest_check_msr_write(MSR_IA32_BIOS_SIGN_ID, 0) == GUEST_OK, "0 to BIOS_SIGN_ID");
	CHECK(guest_check_msr_write(MSR_IA32_BIOS_SIGN_ID, 1ull << 32) == GUEST_BAD_MSR,
	      "a revision");
	CHECK(guest_check_msr_write(MSR_IA32_TSC, 0) == GUEST_BAD_MSR, "the TSC");
	CHECK(guest_check_msr_write(MSR_IA32_SYSENTER_CS, 0x08) == GUEST_BAD_MSR, "SYSENTER_CS");
	CHECK(guest_check_msr_write(MSR_IA32_APIC_BASE, 0) == GUEST_BAD_MSR, "the APIC base");
}

/*
 * guest_segment_loadable: what the Switcher's entry loads.  Each row
 * passes every clause but the one it names (tools/mutate-checks).
 * Descriptors: type 0xa readable code, 0x8 execute-only, 0xe conforming
 * readable code, 0x2 writable data, 0x0 read-only data.
 */
#define SEG(type, dpl)	(0xffffull | (u64)(0x10 | (type) | (dpl) << 5 | 0x80) << 40 | \
			 0xcfull << 48)
#define ABSENT(d)	((d) & ~(1ull << 47))
#define LDT_DESC	0x0000e20000000fffull	/* system type 2: would load as data */

static const struct {
	const char *what;
	enum guest_segment_kind kind;
	u16 sel;
	u64 desc;
	unsigned int cpl;
	bool loads;
} loads[] = {
	{ "null into a data register", GUEST_SEGMENT_DATA, 0x0003, 0, 3, true },
	{ "null into SS", GUEST_SEGMENT_STACK, 0x0000, 0, 1, false },
	{ "null into CS", GUEST_SEGMENT_CODE, 0x0000, 0, 1, false },
	{ "not present", GUEST_SEGMENT_DATA, 0x0023, ABSENT(SEG(0x2, 3)), 3, false },
	{ "a system descriptor", GUEST_SEGMENT_DATA, 0x0023, LDT_DESC, 3, false },
	{ "user data at ring 3", GUEST_SEGMENT_DATA, 0x0023, SEG(0x2, 3), 3, true },
	{ "kernel data at ring 3 (DPL < CPL)", GUEST_SEGMENT_DATA, 0x0011, SEG(0x2, 1), 3, false },
	{ "user data, RPL 3, at ring 1", GUEST_SEGMENT_DATA, 0x0023, SEG(0x2, 3), 1, true },
	{ "kernel data, RPL 3, at ring 1 (DPL < RPL)", GUEST_SEGMENT_DATA, 0x0013,
	  SEG(0x2, 1), 1, false },
	{ "readable code into a data register", GUEST_SEGMENT_DATA, 0x001b, SEG(0xa, 3), 3, true },
	{ "execute-only code into a data register", GUEST_SEGMENT_DATA, 0x001b,
	  SEG(0x8, 3), 3, false },
	{ "conforming ring-1 code at ring 3", GUEST_SEGMENT_DATA, 0x000b, SEG(0xe, 1), 3, true },
	{ "kernel stack at ring 1", GUEST_SEGMENT_STACK, 0x0011, SEG(0x2, 1), 1, true },
	{ "read-only stack", GUEST_SEGMENT_STACK, 0x0011, SEG(0x0, 1), 1, false },
	{ "code as a stack", GUEST_SEGMENT_STACK, 0x0009, SEG(0xa, 1), 1, false },
	{ "stack selector's RPL not CPL", GUEST_SEGMENT_STACK, 0x0013, SEG(0x2, 1), 1, false },
	{ "stack DPL not CPL", GUEST_SEGMENT_STACK, 0x0021, SEG(0x2, 3), 1, false },
	{ "kernel code at ring 1", GUEST_SEGMENT_CODE, 0x0009, SEG(0xa, 1), 1, true },
	{ "data as code", GUEST_SEGMENT_CODE, 0x0011, SEG(0x2, 1), 1, false },
	{ "code selector's RPL not CPL", GUEST_SEGMENT_CODE, 0x000b, SEG(0xa, 1), 1, false },
	{ "code DPL not CPL", GUEST_SEGMENT_CODE, 0x0019, SEG(0xa, 3), 1, false },
	{ "conforming code of a lower DPL", GUEST_SEGMENT_CODE, 0x000b, SEG(0xe, 1), 3, true },
	{ "conforming code of a higher DPL", GUEST_SEGMENT_CODE, 0x0019, SEG(0xe, 3), 1, false },
};

void test_segments_load_as_the_cpu_loads_them(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(loads) / sizeof(loads[0]); i++)
		CHECK(guest_segment_loadable(loads[i].kind, loads[i].sel, loads[i].desc,
					     loads[i].cpl) == loads[i].loads,
		      "%s: %s", loads[i].what, loads[i].loads ? "refused" : "loaded");
}
