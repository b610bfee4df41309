/*
 * asm/host_check.h - what a host accepts from its guest: the checks every
 * hypercall argument that reaches the CPU goes through (docs/guest.md).
 *
 * A guest kernel runs at ring 1 and asks the host, by hypercall, to put
 * descriptors into the real GDT and IDT and a stack into the real TSS.
 * Each is checked and, where the rule is "ring 1 instead of ring 0",
 * fixed up, so that nothing a guest hands over can give it ring 0: no
 * ring-0 segment, no system descriptor (gates, TSS, LDT), no gate into
 * anything but its own kernel, no stack outside its memory.  Pages are
 * checked where they are translated (guest_memory_ptr, asm/host.h).
 *
 * Plain C over values, with no kernel state, so the same file
 * (arch/x86/host/check.c) builds into the kernel, the native tests and
 * the fuzzer (tests/native/guest/).
 */
#ifndef ASM_HOST_CHECK_H
#define ASM_HOST_CHECK_H

#include <types.h>
#include <asm/segment.h>	/* GUEST_KERNEL_RPL */

enum guest_verdict {
	GUEST_OK,
	GUEST_BAD_INDEX,	/* a GDT or LDT slot the guest may not write */
	GUEST_SYSTEM_DESCRIPTOR,	/* a gate, TSS or LDT in the GDT or LDT */
	GUEST_BAD_VECTOR,
	GUEST_BAD_GATE_TYPE,	/* not a 32-bit interrupt or trap gate */
	GUEST_BAD_SELECTOR,	/* not the guest kernel's code (or data) segment */
	GUEST_BAD_TARGET,	/* a gate or stack outside the guest kernel */
	GUEST_BAD_DEBUG_CONTROL,	/* DR7 bits a guest may not set */
	GUEST_BAD_WATCHPOINT,	/* an armed watchpoint on the Switcher */
	GUEST_BAD_MSR,		/* an MSR (or a value) a guest does not have */
	GUEST_VERDICTS
};

const char *guest_verdict_text(enum guest_verdict v);

/* A gate's parts, as the CPU reads them (Intel SDM vol. 3, 6.11). */
static inline u32 gate_offset(u64 g)	{ return (u32)(g & 0xffff) | (u32)(g >> 48) << 16; }
static inline u16 gate_selector(u64 g)	{ return (u16)(g >> 16); }
static inline unsigned int gate_dpl(u64 g)	{ return (g >> 45) & 3; }
static inline bool gate_present(u64 g)	{ return (g >> 47) & 1; }
static inline bool gate_is_trap(u64 g)	{ return ((g >> 40) & 0xf) == 0xf; }

/* GDT entry index as desc: *out is what the real GDT may hold. */
enum guest_verdict guest_check_gdt_entry(unsigned int index, u64 desc, u64 *out);

/* LDT entry index (of GUEST_LDT_ENTRIES) as desc: the same rules as a
 * GDT segment's. */
enum guest_verdict guest_check_ldt_entry(unsigned int index, u64 desc, u64 *out);

/* IDT gate for vector: *out is the gate the host may deliver through
 * (a guest kernel of mem_size bytes, linked at 1 MiB, 1:1). */
enum guest_verdict guest_check_idt_gate(unsigned int vector, u64 gate, u32 mem_size,
					u64 *out);

/* The stack ss:esp a trap from ring 3 switches to (the TSS's ss1:esp1). */
enum guest_verdict guest_check_stack(u32 ss, u32 esp, u32 mem_size, u32 *out_ss);

/* Watchpoints at addr[0..3] as dr7 arms them: the CPU holds them while
 * the guest runs, and while the Switcher does. */
enum guest_verdict guest_check_debugregs(const u32 addr[4], u32 dr7);

/* rdmsr of msr, or wrmsr of value to it, done by the host for its guest:
 * MSRs are the machine's, so a guest has only those that describe it. */
enum guest_verdict guest_check_msr_read(u32 msr);
enum guest_verdict guest_check_msr_write(u32 msr, u64 value);

/* Whether the CPU at ring cpl loads sel, whose descriptor is desc (0: none
 * in its table), into a data register, SS or CS. */
enum guest_segment_kind { GUEST_SEGMENT_DATA, GUEST_SEGMENT_STACK, GUEST_SEGMENT_CODE };
bool guest_segment_loadable(enum guest_segment_kind kind, u16 sel, u64 desc,
			    unsigned int cpl);

#endif
