/*
 * guest_entry.S - the guest backend's ops that cannot be C functions
 * (backends/guest.c): iret and sysexit are jumped to with an interrupt
 * frame on the stack.
 */
#include <asm/processor-flags.h>
#include <generated/asm-offsets.h>

#define SHARED(field)	%ss:guest_shared + SHARED_##field

	.text

/*
 * At ring 1 iret does not load IF (CPL > IOPL): the frame's IF goes to
 * the flag word first (an interrupt that waits for it traps that store,
 * as at every way IF comes on: guest.c), then the real iret, the native
 * table's, whose exception-table entry sends a bad user frame to
 * iret_fault.  %ds may already hold a user selector: %ss: throughout.
 */
	.globl guest_iret
	.type guest_iret, @function
guest_iret:
	pushl %eax
	movl 12(%esp), %eax		/* the frame's EFLAGS, past EAX, EIP, CS */
	andl $X86_EFLAGS_IF, %eax
	movl %eax, SHARED(irq_enabled)
	popl %eax
	jmp *%ss:native_paravirt_ops + PV_iret
	.size guest_iret, . - guest_iret

/* Nothing calls it: cpuid hides sysenter from a guest (guest.c). */
	.globl guest_irq_enable_sysexit
	.type guest_irq_enable_sysexit, @function
guest_irq_enable_sysexit:
	call guest_no_sysexit
	.size guest_irq_enable_sysexit, . - guest_irq_enable_sysexit

/*
 * irq_disable, as the patcher puts it inline at the guest's sites
 * (paravirt_inline in guest.c): one store, like the cli it stands for.
 * IF is bit 9, so the shared word's second byte holds it (0x02 or 0);
 * %ss: because an entry path may still have a user's %ds.
 */
	.section .rodata.patch_templates, "a"
	.globl tpl_guest_irq_disable, tpl_guest_irq_disable_end
tpl_guest_irq_disable:
	movb $0, SHARED(irq_enabled) + 1
tpl_guest_irq_disable_end:

/* irq_enable the same way, one store like the sti it stands for; the
 * interrupt that waits for it is the host's to deliver, by trapping this
 * very store (arch/x86/host/irq_window.c). */
	.globl tpl_guest_irq_enable, tpl_guest_irq_enable_end
tpl_guest_irq_enable:
	movb $(X86_EFLAGS_IF >> 8), SHARED(irq_enabled) + 1
tpl_guest_irq_enable_end:


/*
 * The flag ops as their sites hold them (guest.c; asm/patch.h gives
 * the sites room): EFLAGS as pushf shows it at ring 1, IF always set,
 * with IF replaced by the shared word's (bit 9 is the second byte's
 * bit 1); restore_fl keeps EAX, as its sites expect.  Like pushf and
 * popf, they leave the arithmetic flags as they found them (save) or
 * as asked (restore): a popf last, which at ring 1 leaves IF alone.
 * Their sites are C code's, where %ds is the kernel's.
 */
#define IF_BYTE		guest_shared + SHARED_irq_enabled + 1
#define IF_IN_BYTE	(X86_EFLAGS_IF >> 8)

/* EFLAGS into EAX, with the shared flag word's IF, flags unchanged. */
.macro SAVE_FL_INTO_EAX
	pushfl
	popl %eax
	andb $~IF_IN_BYTE, %ah
	orb IF_BYTE, %ah
	pushl %eax
	popfl
.endm

	.section .rodata.patch_templates, "a"
	.globl tpl_guest_save_fl, tpl_guest_save_fl_end
tpl_guest_save_fl:
	SAVE_FL_INTO_EAX
tpl_guest_save_fl_end:

	.globl tpl_guest_save_fl_irq_disable, tpl_guest_save_fl_irq_disable_end
tpl_guest_save_fl_irq_disable:
	SAVE_FL_INTO_EAX
	movb $0, IF_BYTE
tpl_guest_save_fl_irq_disable_end:

	.globl tpl_guest_restore_fl, tpl_guest_restore_fl_end
tpl_guest_restore_fl:
	pushl %eax
	andb $IF_IN_BYTE, %ah
	movb %ah, IF_BYTE
	popl %eax
	pushl %eax
	popfl
tpl_guest_restore_fl_end:

/*
 * The lazy CPU mode's two ops have callee-save sites (asm/paravirt.h):
 * they keep every register.  The start is one store; the end keeps
 * EAX, ECX and EDX around guest.c's body.  Called from arch_switch_to
 * only, where %ds is the kernel's.
 */
	.text
	.globl guest_start_context_switch
	.type guest_start_context_switch, @function
guest_start_context_switch:
	movb $1, guest_in_context_switch
	ret
	.size guest_start_context_switch, . - guest_start_context_switch

	.globl guest_end_context_switch
	.type guest_end_context_switch, @function
guest_end_context_switch:
	pushl %eax
	pushl %ecx
	pushl %edx
	call guest_end_context_switch_body
	popl %edx
	popl %ecx
	popl %eax
	ret
	.size guest_end_context_switch, . - guest_end_context_switch
