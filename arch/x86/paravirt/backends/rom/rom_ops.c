/*
 * rom_ops.c - the ops ROM's code and header: what a hypervisor vendor
 * would ship as its "ROM" under VMI, here doing what bare hardware does.
 *
 * This is not kernel code.  It is compiled position-independent into a
 * binary of its own (rom/rom.ld, build/pvrom.bin) that the kernel finds
 * among its Multiboot modules and reaches only through the header below
 * (the ABI: asm/rom.h).  The instructions are the native backend's
 * (asm/native.h), taken by address so each is emitted out of line here;
 * their exception-table entries land in the ROM's fixup table
 * (rom/rom.ld), as offsets; iret and sysexit are the kernel's
 * native_entry.S, assembled in; the APIC ops of ABI 1.1 are the native
 * load and store at the APIC page's fixed address.  The three ops the ABI defines for
 * itself are spelled out below.  Privileged instructions are the ROM's business:
 * the kernel's audit never sees this file, which is not in its ELF.
 */
#define PV386_NATIVE_BACKEND
/* The kernel's native_sync_core returns through an iret to an absolute
 * address, which would not survive the copy: the ROM's own, under that
 * name, is in rom_entry.S (tools/rom-seal caught this one). */
#define native_sync_core native_sync_core_absolute
#include <asm/native.h>
#undef native_sync_core
#include <asm/rom.h>

void native_iret(void);			/* arch/x86/paravirt/backends/native_entry.S */
void native_irq_enable_sysexit(void);
void native_sync_core(void);		/* rom_entry.S */
extern const char __rom_end[], __rom_fixups[], __rom_fixups_end[];

static void rom_load_tr(u16 selector)
{
	asm volatile("ltr %0" : : "rm" (selector));
}

static void rom_load_ldt(u16 selector)
{
	asm volatile("lldt %0" : : "rm" (selector));
}

/* The ring-0 stack pointer is at offset 4 of the CPU's 32-bit TSS. */
static void rom_load_esp0(void *tss, u32 esp0)
{
	((volatile u32 *)tss)[1] = esp0;
}

/* Linked at address 0, every address below is an offset in the image,
 * as the ABI wants; tools/rom-seal fills in the checksum. */
#define ENTRY(nr, op)	[nr] = (u32)native_##op,
#define OWN_ENTRY(nr, op)	[nr] = (u32)rom_##op,

static const struct {
	struct rom_header h;
	u32 entry[ROM_NR_KNOWN_OPS];
} rom __used __section(".rom.header") = {
	.h = {
		.magic		= ROM_MAGIC,
		.abi_major	= ROM_ABI_MAJOR,
		.abi_minor	= ROM_ABI_MINOR,
		.size		= (u32)__rom_end,
		.fixups_start	= (u32)__rom_fixups,
		.fixups_end	= (u32)__rom_fixups_end,
		.vendor		= "pv386 native",
		.nr_entries	= ROM_NR_KNOWN_OPS,
	},
	.entry = {
		ROM_TABLE_OPS(ENTRY)
		ROM_OWN_OPS(OWN_ENTRY)
		ROM_MINOR1_OPS(ENTRY)
	},
};
