/*
 * world_switch.S - the world switch between a host and its guest, in the
 * spirit of lguest's Switcher.
 *
 * This code runs at SWITCHER_ADDR (asm/switcher.h), where the host and
 * every guest map it: it is the one piece of code that runs while the
 * CPU changes from one world's GDT, IDT, TSS and page tables to the
 * other's, when neither world's paravirt_ops table is usable (the
 * guest's page tables do not map the host's kernel).  So it runs the
 * privileged instructions itself, and tools/audit-privileged admits it
 * by its section, .switcher.  It must stay position-independent: it is
 * linked where the kernel image holds it, and run at SWITCHER_ADDR.
 *
 * Going in, switch_to_guest saves the host's registers on the host's
 * stack, loads the guest's GDT, IDT, TSS and page tables, and returns
 * into the guest from the registers in the regs page.  Coming out, each
 * of the 256 IDT gates of the guest leads to a stub that notes its
 * vector; trap_to_host saves the guest's registers in the regs page (the
 * trap's stack), loads the host's tables back and returns to the C code
 * that called switch_to_guest.  Interrupts are off on the host side
 * throughout; the guest always runs with the real IF set.
 *
 * Nothing masks an NMI (nor a machine check, nor a debug trap that a
 * MOV SS held back to the next instruction), so one may come at any
 * instruction here, through whichever IDT is loaded, and must find a
 * stack, a CS and an SS that work there (Intel SDM vol. 3, 6.7 and
 * 6.12.1: a trap at ring 0 pushes on the stack in use, and its iret
 * loads CS again from the GDT in use).  So, as in lguest's Switcher:
 *   - the Switcher runs on its own code segment, entered by a far call,
 *     and its CS and SS are at the same index in the host's GDT and the
 *     guest's (asm/segment.h): either GDT loads them back;
 *   - the stack is the host's only while the host's cr3 is loaded, and
 *     the regs page, mapped in both worlds, whenever the guest's is;
 *   - the host's IDT is loaded only while all else is the host's too:
 *     the guest's comes first on the way in and the host's last on the
 *     way out.  Between, the Switcher's own gates take the NMI, see a
 *     ring-0 frame (switcher_interrupted), note it for the host and go
 *     back to the instruction it came at; the host handles it as its
 *     own once back (switcher.c).  Before and after, the host's own
 *     handler takes it, as anywhere in the host's kernel.
 * A task gate (the classic i386 answer) was the other way: but a task
 * switch writes the outgoing TSS, which the guest's page tables map
 * read-only, and it would make NMIs in the host a task switch too.
 */
#include <asm/hypercall.h>
#include <asm/processor-flags.h>
#include <asm/segment.h>
#include <asm/switcher.h>
#include <generated/asm-offsets.h>

#define STATE(field)	(SWITCHER_STATE_PAGE + SWST_##field)
#define REGS_TOP	(SWITCHER_REGS_PAGE + 4096)
#define REGS_BOTTOM	(REGS_TOP - SWITCHER_REGS_SIZE)
#define TSS_BUSY	2	/* in a TSS descriptor's type, byte 5 */
/* ESP at trap_to_host after a whole trap from ring 1 or 3: the CPU's
 * frame, the error code and the stub's vector, at the top of the page. */
#define TRAP_FRAME	(REGS_BOTTOM + PT_vector)
/* Where trap_to_host finds the frame: the stub's vector, the error code,
 * then the CPU's EIP, CS, EFLAGS. */
#define FRAME_CS	12
#define FRAME_EFLAGS	16
/* The vectors that may interrupt the Switcher (asm/traps.h is C's). */
#define TRAP_DB		1
#define TRAP_NMI	2
#define TRAP_MC		18

/* The upper halves of two selector words cleared (DS is the Switcher's). */
.macro ZERO_EXTEND a, b
	movw $0, \a + 2
	movw $0, \b + 2
.endm

	.section .switcher, "ax"

/* Called far, to __SWITCHER_CS (switcher.c), interrupts off, the state
 * page filled in.  Memory is reached through the host's %ds, which stays
 * loaded (never reloaded) until the guest's registers are. */
	.globl switch_to_guest
switch_to_guest:
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	pushl %ds
	pushl %es
	pushl %fs
	pushl %gs
	movl %esp, STATE(host_esp)
	/* From here an NMI goes through the Switcher's gates (the top of
	 * this file). */
	lidt STATE(guest_idt)
	lgdt STATE(guest_gdt)
	/* ltr marks the guest's TSS busy: a write to its GDT, which only
	 * the host's page tables map writable, so before the cr3 load. */
	movl $__TSS_SEL, %eax
	ltr %ax
	/* The guest's LDT, or none: the host's, still cached, is no
	 * business of the guest's. */
	movl STATE(guest_ldt_sel), %eax
	lldt %ax
	/* The regs page (SS and ESP in one instruction), before the cr3
	 * that does not map the host's stack. */
	lss STATE(switcher_esp), %esp
	movl STATE(guest_cr3), %eax
	movl %eax, %cr3
	/* The guest's watchpoints, if it has any: armed only from here,
	 * where nothing but the Switcher's own pages is touched until the
	 * iret (the host checked that none lies on them). */
	movl STATE(guest_dr7), %eax
	testl %eax, %eax
	jz 2f
	movl STATE(guest_dr), %ecx
	movl %ecx, %db0
	movl STATE(guest_dr) + 4, %ecx
	movl %ecx, %db1
	movl STATE(guest_dr) + 8, %ecx
	movl %ecx, %db2
	movl STATE(guest_dr) + 12, %ecx
	movl %ecx, %db3
	movl %eax, %db7
	/* ESP is REGS_BOTTOM: an NMI from here on pushes below what is
	 * still to pop, or over what was popped already. */
2:	popal
	popl %gs
	popl %fs
	popl %es
	popl %ds
	addl $8, %esp			/* vector, error code */
	iret

/*
 * The way back: the CPU has pushed the guest's frame on the regs page
 * (the guest TSS's esp0), the stub its vector.  %ds is still the guest's,
 * whatever its base: the stack's %ss is the Switcher's until the frame is
 * saved.
 *
 * Nothing in that frame is read before its ring and depth prove it whole.
 * A frame with CS at ring 0 (and not from virtual-8086 mode, whose CS is
 * a real-mode segment) is never the guest's, at any depth: it interrupted
 * the Switcher itself (switcher_interrupted).  The CPU pushed a guest's
 * frame from the top of the page, so where ESP stands says what it holds,
 * whatever the guest did.  From ring 1 or 3 it stands at TRAP_FRAME; from
 * virtual-8086 mode 16 bytes lower (four segments more).  Anywhere else a
 * word is missing - a software int through the gate of a vector whose
 * stub expects the CPU's error code, which the host's gates never admit
 * (interrupts.c) - and every word below EIP would be one slot off: the
 * guest's %ds read as the vector.  Such a frame is set at TRAP_FRAME with
 * the vector GUEST_TRAP_BAD_FRAME, and the host stops the guest rather
 * than read its registers.
 */
trap_to_host:
	testl $X86_EFLAGS_VM, FRAME_EFLAGS(%esp)
	jnz 4f
	testl $3, FRAME_CS(%esp)
	jz switcher_interrupted
4:	cmpl $TRAP_FRAME, %esp
	je 3f
	cmpl $TRAP_FRAME - 16, %esp
	je 3f
not_whole:
	movl $TRAP_FRAME, %esp
	movl $GUEST_TRAP_BAD_FRAME, (%esp)
3:	pushl %ds
	pushl %es
	pushl %fs
	pushl %gs
	pushal
	movl $__SWITCHER_DS, %eax
	movl %eax, %ds
	movl %eax, %es
	/* The guest's direction flag may be set: the host's C code, its
	 * memset among others, counts on it clear. */
	cld
	/* Disarmed before the host's memory is in reach: the guest's
	 * addresses are the host's too (the host thread that runs the
	 * guest has no watchpoints of its own: DR7 was 0). */
	cmpl $0, STATE(guest_dr7)
	je 2f
	xorl %eax, %eax
	movl %eax, %db7
2:	movl %cr3, %edx			/* the guest's, as the CPU ran it */
	movl STATE(host_cr3), %eax
	movl %eax, %cr3
	movl %edx, STATE(guest_cr3)
	/*
	 * From virtual-8086 mode (QEMU's TCG lets ring 3 in, a CPU does not)
	 * the CPU pushed ES, DS, FS and GS above the frame, so it starts 16
	 * bytes lower; that frame's EFLAGS, VM set, lies where an ordinary
	 * frame holds the vector.  The four go to the state page, and the
	 * frame up where the host reads its registers (the copy runs from
	 * the top down: the two overlap).  The state page is read-only in
	 * the guest's page tables: this comes after the cr3 load.
	 */
	testl $X86_EFLAGS_VM, REGS_TOP - 28
	jz 1f
	movl $REGS_TOP - 16, %esi
	movl $STATE(guest_vm86_es), %edi
	movl $4, %ecx
	rep movsl
	std
	movl $REGS_TOP - 20, %esi
	movl $REGS_TOP - 4, %edi
	movl $SWITCHER_REGS_SIZE / 4, %ecx
	rep movsl
	cld
	ZERO_EXTEND STATE(guest_vm86_es), STATE(guest_vm86_es) + 4
	ZERO_EXTEND STATE(guest_vm86_es) + 8, STATE(guest_vm86_es) + 12
1:	/* Selectors zero-extended: a CPU may push one with a 16-bit store
	 * (Intel's P6 and later, Bochs), leaving its upper half as the guest
	 * left the regs page, and the host reads them as 32-bit words. */
	ZERO_EXTEND REGS_BOTTOM + PT_gs, REGS_BOTTOM + PT_fs
	ZERO_EXTEND REGS_BOTTOM + PT_es, REGS_BOTTOM + PT_ds
	ZERO_EXTEND REGS_BOTTOM + PT_cs, REGS_BOTTOM + PT_ss
	/* Neither TSS may stay busy, or the next ltr of it faults. */
	andb $~TSS_BUSY, STATE(guest_gdt_table) + 8 * GDT_ENTRY_TSS + 5
	movl STATE(host_gdt) + 2, %eax
	andb $~TSS_BUSY, 8 * GDT_ENTRY_TSS + 5(%eax)
	lgdt STATE(host_gdt)
	movl $__TSS_SEL, %eax
	ltr %ax
	movl $__LDT_SEL, %eax
	lldt %ax
	/* The host's stack and stack segment, in one instruction. */
	lss STATE(host_esp), %esp
	popl %gs
	popl %fs
	popl %es
	popl %ds
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	/* Last, when every register but CS is the host's again: from here
	 * an NMI is the host's own handler's. */
	lidt STATE(host_idt)
	lret				/* to the host's code segment, as called */

/*
 * The context-switch hypercall, done here when it can be, without
 * leaving the guest's page tables: a world switch and the host's
 * dispatch for what is one cr3 load and one word of the TSS.  Xen's PV
 * and PVM switch a guest's page tables in the same way.
 *
 * Only the guest kernel reaches this gate (its DPL is 1), and only from
 * ring 1, so a whole frame stands at TRAP_FRAME; anything else, or any
 * doubt, goes the usual way, to the host, which does the same switch
 * with every check.  Taken only if:
 *   - the call is context_switch and the guest says nothing is queued
 *     (EDX 0): the host runs a queue first, the fast path does not;
 *   - the host allows it now (fast_switch_on: it does not while it
 *     watches the guest's interrupt window on the active shadow, or
 *     before the guest has a ring-1 stack);
 *   - the stack (ECX) is one the host would take, and the directory
 *     (EBX) 0 (kept) or one of the shadows the host listed, whose
 *     guest_cr3 are page-aligned guest pages, so never 0 or garbage.
 * The guest's %ds is its own: %ss (the Switcher's) reaches the state
 * page.  Its registers stay as they were but EAX, the answer (0), so a
 * miss restores EDX (0) before it goes on to trap_to_host.  The TSS and
 * the active cr3 are written under the host's cr3, the only tables that
 * map the state page writable (as switcher_interrupted does); the host
 * finds the new cr3 at the next exit, where trap_to_host saves the
 * CPU's own.  An NMI here finds a ring-0 frame, as anywhere in the
 * Switcher.
 */
hypercall_entry:
	cmpl $TRAP_FRAME, %esp
	jne trap_to_host
	cmpl $HCALL_CONTEXT_SWITCH, %eax
	jne trap_to_host
	testl %edx, %edx
	jnz trap_to_host
	cmpl $0, %ss:STATE(fast_switch_on)
	je trap_to_host
	cmpl %ss:STATE(fast_stack_min), %ecx
	jbe trap_to_host
	cmpl %ss:STATE(fast_stack_max), %ecx
	ja trap_to_host
	movl %cr3, %eax			/* kept, if EBX is 0 */
	testl %ebx, %ebx
	jz 2f
1:	cmpl %ss:STATE(fast_shadows)(,%edx,8), %ebx
	je 3f
	incl %edx
	cmpl $SWITCHER_FAST_SHADOWS, %edx
	jb 1b
	xorl %edx, %edx			/* not listed: the host builds it */
	movl $HCALL_CONTEXT_SWITCH, %eax
	jmp trap_to_host
3:	movl %ss:STATE(fast_shadows) + 4(,%edx,8), %eax
2:	movl %ss:STATE(host_cr3), %edx
	movl %edx, %cr3
	movl %ecx, %ss:STATE(guest_esp1)
	movl %eax, %ss:STATE(guest_cr3)
	incl %ss:STATE(fast_switches)
	movl %eax, %cr3
	xorl %eax, %eax
	xorl %edx, %edx
	addl $8, %esp			/* vector, error code */
	iret

/*
 * A trap whose frame is at ring 0 came at an instruction of the Switcher:
 * the machine's NMI or machine check, or a debug trap that the guest's
 * MOV SS or POP SS held back to the first instruction of a stub (SDM
 * vol. 3, 6.8.3).  None is the guest's, and its frame is never read as
 * the guest's registers.  It is noted in the state page - writable only
 * in the host's page tables, so under the host's cr3 for the moment -
 * and the Switcher goes on where it was: its CS, SS and stack are valid
 * in both worlds.  The host handles it once back (switcher.c).  Any other
 * vector at ring 0 is a fault of the Switcher's own, which would only
 * fault again there: the host is told of a frame not whole, and stops
 * the guest.  Registers and flags come back as they were (iret).
 */
switcher_interrupted:
	cmpl $TRAP_NMI, (%esp)
	je 1f
	cmpl $TRAP_MC, (%esp)
	je 1f
	cmpl $TRAP_DB, (%esp)
	jne not_whole
1:	pushl %eax
	pushl %ecx
	movl %cr3, %ecx
	movl %ss:STATE(host_cr3), %eax
	movl %eax, %cr3
	movl 8(%esp), %eax		/* the vector */
	cmpl $TRAP_NMI, %eax
	jne 2f
	incl %ss:STATE(nmis_in_switcher)
	jmp 3f
2:	btsl %eax, %ss:STATE(traps_in_switcher)
3:	movl %ecx, %cr3
	popl %ecx
	popl %eax
	addl $8, %esp			/* vector, error code */
	iret

/* One stub per vector, SWITCHER_STUB_SIZE apart: the CPU pushes an error
 * code for 8, 10-14 and 17; the others push a 0 in its place. */
	.balign SWITCHER_STUB_SIZE
	.globl switcher_stubs
switcher_stubs:
vector = 0
	.rept 256
	.balign SWITCHER_STUB_SIZE
	.if !(vector == 8 || (vector >= 10 && vector <= 14) || vector == 17)
	pushl $0
	.endif
	pushl $vector
	.if vector == HYPERCALL_VECTOR
	jmp hypercall_entry
	.else
	jmp trap_to_host
	.endif
vector = vector + 1
	.endr

/* The hypercall's gate instead of its stub above when the host booted
 * with nofastswitch (switcher.c): straight to the host, as every other
 * vector goes, without the fast path's tests. */
	.balign SWITCHER_STUB_SIZE
	.globl switcher_hypercall_to_host
switcher_hypercall_to_host:
	pushl $0
	pushl $HYPERCALL_VECTOR
	jmp trap_to_host
