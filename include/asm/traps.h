/*
 * asm/traps.h - the saved CPU state of an interrupt or exception, and the
 * interface between the entry code and the C handlers.
 *
 * struct pt_regs is laid out exactly as arch/x86/entry/entry.S builds it on the
 * stack: pushal, then the segment registers, then the vector and error
 * code, then what the CPU pushed itself.
 */
#ifndef ASM_TRAPS_H
#define ASM_TRAPS_H

#include <types.h>
#include <asm/processor-flags.h>

struct pt_regs {
	u32 edi, esi, ebp, esp_unused, ebx, edx, ecx, eax;	/* pushal */
	u32 gs, fs, es, ds;	/* pushed as 32 bits; the upper half is junk */
	u32 vector;		/* pushed by the stub for this vector */
	u32 error_code;		/* by the CPU for some exceptions, else 0 */
	u32 eip, cs, eflags;	/* the CPU's interrupt frame */
	u32 esp, ss;		/* only present when coming from ring 3 */
};

/*
 * Whether a frame (its CS and EFLAGS) interrupted user mode: ring 3, or
 * virtual-8086 mode, whose CS is a real-mode segment number with any
 * low bits at all.  pv386 never runs a task in virtual-8086 mode, and a
 * CPU must ignore EFLAGS.VM in an iret from ring 3; QEMU's TCG does not,
 * so a task can get there anyway, and its frames must still count as a
 * user's.  This is the one test: traps, the iret fault path, register
 * dumps and backtraces all ask it.
 */
static inline bool user_mode_frame(u32 cs, u32 eflags)
{
	return (cs & 3) == 3 || (eflags & X86_EFLAGS_VM);
}

static inline bool user_mode(const struct pt_regs *regs)
{
	return user_mode_frame(regs->cs, regs->eflags);
}

/* CPU exception vectors. */
#define X86_TRAP_DE	0	/* divide error */
#define X86_TRAP_DB	1	/* debug */
#define X86_TRAP_NMI	2
#define X86_TRAP_BP	3	/* breakpoint (int3) */
#define X86_TRAP_OF	4
#define X86_TRAP_BR	5
#define X86_TRAP_UD	6	/* invalid opcode */
#define X86_TRAP_NM	7	/* device not available */
#define X86_TRAP_DF	8
#define X86_TRAP_TS	10
#define X86_TRAP_NP	11
#define X86_TRAP_SS	12
#define X86_TRAP_GP	13	/* general protection */
#define X86_TRAP_PF	14	/* page fault */
#define X86_TRAP_MF	16
#define X86_TRAP_AC	17
#define X86_TRAP_MC	18
#define X86_TRAP_XF	19

#define FIRST_EXTERNAL_VECTOR	32	/* the PIC's IRQs are remapped here */
#define SYSTEM_GATE_FIRST	48	/* first vector free for software use */
#define NR_VECTORS		256

typedef void (*trap_handler_t)(struct pt_regs *regs);

void trap_init(void);
void trap_dispatch(struct pt_regs *regs);
void set_system_gate(unsigned int vector, trap_handler_t handler);
void set_syscall_gate(unsigned int vector, trap_handler_t handler);
void set_intr_handler(unsigned int vector, trap_handler_t handler);	/* DPL 0 */
void show_regs(const struct pt_regs *regs);		/* dumpstack.c */
void show_current_regs(void);
void show_backtrace(u32 ebp);
void dump_stack(void);		/* the caller's frames, with function names */
unsigned long trap_count(unsigned int vector);
const char *trap_name(unsigned int vector);
void bad_iret(const u32 *frame) __noreturn;	/* from entry.S */

/* The way back to ring 3, for every entry from it (entry/common.c). */
void exit_to_user_mode(struct pt_regs *regs);
/* Why a task found in virtual-8086 mode dies, and where it was: CS:IP,
 * for EIP alone is no address there. */
const char *vm86_reason(const struct pt_regs *regs, char *buf, size_t size);

/* Labels in entry.S: where trap_dispatch returns (a new user task
 * starts there too) and where sysenter_dispatch does. */
void ret_from_trap(void);
void sysenter_dispatch_return(void);

/* Handlers for the 256 vectors, built by entry.S. */
extern const u32 trap_stubs[NR_VECTORS];

#endif
