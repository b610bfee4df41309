/*
 * asm/rom.h - the ops ROM's binary interface: a VMI-style "hypervisor
 * ROM" that a boot loader hands pv386 as a Multiboot module, and that
 * the rom backend (arch/x86/paravirt/backends/rom.c) installs into paravirt_ops.
 *
 * struct paravirt_ops is a source-level interface: its slots may be
 * added, removed or reordered in any commit, because every backend is
 * compiled with the kernel.  A ROM is built apart and may be older or
 * newer than the kernel that loads it, so it is reached through this
 * fixed ABI instead: ops are numbered once and for all (ROM_OPS), and
 * the glue maps each number to whatever slot the table has today.
 *
 * The image, in this order, all offsets from its first byte:
 *
 *   struct rom_header      magic, ABI version, size, checksum ...
 *   u32 entry[nr_entries]    the code of op n at entry[n]
 *   struct rom_fixup[]     [fixups_start, fixups_end): where a
 *                            faulting instruction continues
 *   code                     position-independent, up to size
 *
 * Versions: a ROM whose ABI major is not ROM_ABI_MAJOR is refused.  A
 * minor version adds ops at the end of the numbering and nothing else,
 * so a newer minor is accepted (the entries this kernel does not know
 * are ignored) and every op of minor 0 is required of every ROM.  An
 * op a later minor added is optional: a ROM of that minor or newer may
 * give it (its entry is then checked like any other) or leave its entry
 * 0, and the glue does without (rom.c).
 *
 * Calling convention: each op is a C function as GCC compiles it with
 * -mregparm=3 (arguments in EAX, EDX, ECX, then the stack; result in EAX
 * or EDX:EAX; EBX, ESI, EDI, EBP and ESP kept), the 2006 patch's
 * "fastcall".  iret and irq_enable_sysexit are jumped to with the
 * interrupt frame (or sysexit's EDX/ECX) in place and never return.
 *
 * The checksum is the CRC-32 (the one of zlib and Ethernet) of the
 * size bytes of the image, taken with the checksum field as zero.
 *
 * This header is shared by the kernel, the ROM's own sources
 * (arch/x86/paravirt/backends/rom/), the validator (arch/x86/paravirt/backends/rom_check.c) and its host
 * tests: it uses nothing but types.h.
 */
#ifndef ASM_ROM_H
#define ASM_ROM_H

#define ROM_MAGIC		0x4d4f5250	/* "PROM" in memory order */
#define ROM_ABI_MAJOR		1
#define ROM_ABI_MINOR		1	/* 1: the APIC ops */
#define ROM_MAX_SIZE		(16 * 1024)	/* the room the kernel keeps */
#define ROM_MAX_FIXUPS	32
/* A fixup target that is no ROM offset: the kernel's own handler of a
 * return to user mode that faults (a bad user frame). */
#define ROM_FIXUP_USER_RETURN	0xffffffffu

/*
 * The stable op numbers of ABI 1.0, as X(number, name).  The first group
 * has the very name and signature of the paravirt_ops member; the second
 * is the ROM's own, because the table's op passes a kernel structure or
 * a kernel selector the ROM cannot know: the glue adapts those.
 * load_tls has no entry: the glue builds it from write_gdt_entry.
 * Nor have the page-table ops (set_pte_at, set_pde, release_pgd), added
 * to the table for the guest: the glue does them as a native machine
 * would (rom.c).  Nor the lock ops (spin_lock_slowpath, spin_unlock,
 * spin_wait, spin_kick, vcpu_is_preempted), and none is to come: they
 * hold no privileged instruction, so the glue puts the kernel's native
 * ones in the table (asm/spinlock.h), and the unlock sites are patched
 * inline as under native.
 */
#define ROM_TABLE_OPS(X)						\
	X(0, irq_disable)	X(1, irq_enable)	X(2, save_fl)		\
	X(3, restore_fl)	X(4, save_fl_irq_disable)			\
	X(5, safe_halt)		X(6, halt)		X(7, iret)		\
	X(8, irq_enable_sysexit)					\
	X(9, read_cr0)		X(10, write_cr0)	X(11, read_cr2)		\
	X(12, write_cr2)	X(13, read_cr3)		X(14, write_cr3)	\
	X(15, read_cr4)		X(16, read_cr4_safe)	X(17, write_cr4)	\
	X(18, clts)		X(19, wbinvd)		X(20, sync_core)	\
	X(21, cpuid)		X(22, get_debugreg)	X(23, set_debugreg)	\
	X(24, read_msr)		X(25, write_msr)	X(26, read_tsc)		\
	X(27, read_pmc)		X(28, load_gdt)		X(29, load_idt)		\
	X(30, store_gdt)	X(31, store_idt)	X(32, store_tr)		\
	X(33, write_gdt_entry)	X(34, write_ldt_entry)			\
	X(35, write_idt_entry)	X(36, set_iopl_mask)

/* void load_tr(u16 selector), void load_ldt(u16 selector),
 * void load_esp0(void *tss, u32 esp0): the TSS is the CPU's format. */
#define ROM_OWN_OPS(X)						\
	X(37, load_tr)		X(38, load_ldt)		X(39, load_esp0)

#define ROM_OPS(X)	ROM_TABLE_OPS(X) ROM_OWN_OPS(X)
#define ROM_NR_OPS	40	/* in ABI 1.0: each one required */

/* ABI 1.1: the local APIC's registers, as the table has them (u32
 * apic_read(u32 reg), void apic_write(u32 reg, u32 value); the page is at
 * APIC_VIRT_BASE, asm/apic.h).  Optional: a 1.0 ROM has none. */
#define ROM_MINOR1_OPS(X)						\
	X(40, apic_read)	X(41, apic_write)

/* flush_tlb_others has no number in any minor: the kernel's glue
 * (backends/rom.c) does it as the native backend does, IPIs through the
 * table's APIC ops and a wait, as it does set_pte_at.  A ROM is a
 * native machine's table, and a shootdown is kernel code, not an
 * instruction a ROM could hold. */
#define ROM_ALL_OPS(X)	ROM_OPS(X) ROM_MINOR1_OPS(X)
#define ROM_NR_KNOWN_OPS	42	/* every op of every minor this kernel knows */

#ifndef __ASSEMBLER__

#include <types.h>

#define ROM_OP_NUMBER(nr, op)	ROM_OP_##op = nr,
enum rom_op { ROM_ALL_OPS(ROM_OP_NUMBER) };

struct rom_header {
	u32 magic;		/* ROM_MAGIC */
	u16 abi_major;		/* ROM_ABI_MAJOR, or refused */
	u16 abi_minor;		/* any: see above */
	u32 size;		/* bytes of the image, header included */
	u32 checksum;		/* CRC-32 of the image, this field zero */
	u32 fixups_start;	/* offset of the fixup table */
	u32 fixups_end;		/* its end, where the code begins */
	char vendor[16];	/* a name, NUL-padded */
	u32 nr_entries;		/* entries that follow */
	u32 entry[];		/* offset of op n's code, by number */
};

/* If the instruction at insn faults, continue at fixup (offsets). */
struct rom_fixup {
	u32 insn, fixup;
};

/* What the validator found: ROM_OK, or the first thing wrong. */
enum rom_verdict {
	ROM_OK,
	ROM_TRUNCATED,	/* shorter than its header and entry table */
	ROM_BAD_MAGIC,
	ROM_BAD_MAJOR,
	ROM_BAD_SIZE,		/* size field: below its tables or too big */
	ROM_SIZE_PAST_MODULE,	/* size field larger than the module */
	ROM_BAD_CHECKSUM,
	ROM_MISSING_ENTRY,	/* an op of ABI 1.0 without code */
	ROM_ENTRY_OUT_OF_BOUNDS,
	ROM_BAD_FIXUPS,	/* the fixup table misplaced or misshapen */
	ROM_FIXUP_OUT_OF_BOUNDS,
};

struct rom_check {
	enum rom_verdict verdict;
	u32 index;		/* the entry or fixup at fault */
};

/*
 * Is rom[0, len) a ROM this kernel can install?  Pure C over the buffer,
 * reading nothing outside it: the kernel, the native tests and the fuzzer
 * run the same file.  On ROM_OK the header's size, entries and fixups
 * are all within the image.
 */
struct rom_check rom_validate(const void *rom, u32 len);
bool rom_has_magic(const void *rom, u32 len);	/* a ROM, good or bad */
const char *rom_verdict_text(enum rom_verdict v);
const char *rom_op_name(u32 nr);		/* "?" beyond the ops known */
/* Whether a validated ROM gives op nr: always for ABI 1.0's; for a later
 * minor's, if the ROM is of that minor or newer and its entry is not 0. */
bool rom_gives_op(const void *rom, u32 nr);
u32 rom_crc32(const void *rom, u32 len);	/* checksum field as zero */

/* The kernel's rom backend (arch/x86/paravirt/backends/rom.c): the installed
 * ROM's header, NULL if none is; whether addr is in its code's room. */
const struct rom_header *paravirt_rom_header(void);
bool paravirt_rom_contains(unsigned long addr);

#endif /* __ASSEMBLER__ */
#endif
