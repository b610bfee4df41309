/*
 * dumpstack.c - prints CPU state for post-mortems: the registers of an
 * interrupted context (show_regs), the registers where we are now
 * (show_current_regs, for panic) and a frame-pointer backtrace, as
 * addresses (show_backtrace) or with function names (dump_stack).
 *
 * The kernel is built with frame pointers: each frame starts with the
 * caller's EBP followed by the return address.  _start sets EBP to 0,
 * which ends the chain on the boot stack; on a task's kernel stack it
 * ends at the entry from user mode, beyond which the saved EBP is the
 * user's: any value at all, a kernel stack address included.
 */
#include <kernel.h>
#include <ksyms.h>
#include <task.h>
#include <asm/privileged.h>
#include <asm/traps.h>

extern char boot_stack[], boot_stack_top[];

void show_regs(const struct pt_regs *regs)
{
	bool user = user_mode(regs);

	printk("  EIP: %04x:%08x  EFLAGS: %08x  error: %08x\n",
	       regs->cs & 0xffff, regs->eip, regs->eflags, regs->error_code);
	printk("  EAX: %08x EBX: %08x ECX: %08x EDX: %08x\n",
	       regs->eax, regs->ebx, regs->ecx, regs->edx);
	/* A kernel-mode frame has no saved ESP: the stack went on from it. */
	printk("  ESI: %08x EDI: %08x EBP: %08x ESP: %08x\n",
	       regs->esi, regs->edi, regs->ebp, user ? regs->esp : (u32)&regs->esp);
	printk("  DS: %04x ES: %04x FS: %04x GS: %04x\n",
	       regs->ds & 0xffff, regs->es & 0xffff, regs->fs & 0xffff,
	       regs->gs & 0xffff);
	printk("  CR0: %08lx CR2: %08lx CR3: %08lx CR4: %08lx\n",
	       read_cr0(), read_cr2(), read_cr3(), read_cr4_safe());
}

/* A frame of the running task's kernel stack (the boot stack before
 * there are tasks): the chain is followed only as far as it stays there,
 * so a corrupt EBP cannot send the dump into the weeds. */
static bool on_current_stack(u32 addr)
{
	u32 low = (u32)boot_stack, high = (u32)boot_stack_top;

	if (current) {
		low = current->kstack;
		high = current->kstack + current->kstack_size;
	}
	return addr >= low && addr + 8 <= high;
}

/*
 * Whether frame is the C handler's frame of an entry from user mode: it
 * returns into the entry code, and the struct pt_regs the entry saved
 * lies just above it (above the saved EBP and the return address).
 */
static bool entered_from_user(const u32 *frame)
{
	if (frame[1] == (u32)sysenter_dispatch_return)
		return true;
	return frame[1] == (u32)ret_from_trap &&
	       user_mode((const struct pt_regs *)(frame + 2));
}

void show_backtrace(u32 ebp)
{
	int depth;

	printk("  backtrace:");
	for (depth = 0; depth < 16 && ebp && on_current_stack(ebp); depth++) {
		u32 *frame = (u32 *)ebp;
		printk(" %08x", frame[1]);
		if (entered_from_user(frame)) {
			printk(" (user mode)");
			break;
		}
		ebp = frame[0];
	}
	printk("\n");
}

/* The frames of whoever called this, one a line, each return address
 * named by the function it returns into. */
void dump_stack(void)
{
	u32 ebp = (u32)__builtin_frame_address(0), offset;
	const char *name;
	int depth;

	for (depth = 0; depth < 16 && ebp && on_current_stack(ebp); depth++) {
		u32 *frame = (u32 *)ebp;

		/* The call is the byte before: a call that ends a function
		 * (to a noreturn one) returns into the next function. */
		name = ksym_lookup(frame[1] - 1, &offset);
		printk("  #%-2d %08x  %s+0x%x\n", depth, frame[1], name ? name : "?",
		       name ? offset + 1 : 0);
		if (entered_from_user(frame)) {
			printk("  (user mode)\n");
			break;
		}
		ebp = frame[0];
	}
}

/*
 * The caller-saved registers (EAX, ECX, EDX) mean nothing after a call,
 * so the dump shows the callee-saved ones, the stack and the flags.
 */
void show_current_regs(void)
{
	struct pt_regs r = { 0 };

	asm volatile("movl %%ebx, %0\n\t"
		     "movl %%esi, %1\n\t"
		     "movl %%edi, %2\n\t"
		     "movl %%ebp, %3\n\t"
		     "movl %%esp, %4"
		     : "=m" (r.ebx), "=m" (r.esi), "=m" (r.edi), "=m" (r.ebp),
		       "=m" (r.esp));
	asm volatile("mov %%cs, %0" : "=r" (r.cs));
	asm volatile("mov %%ds, %0" : "=r" (r.ds));
	asm volatile("mov %%es, %0" : "=r" (r.es));
	r.eip = (u32)__builtin_return_address(0);
	r.eflags = raw_local_save_flags();
	printk("  EIP: %08x (caller)  EFLAGS: %08x  CS: %04x DS: %04x ES: %04x\n",
	       r.eip, r.eflags, r.cs & 0xffff, r.ds & 0xffff, r.es & 0xffff);
	printk("  EBX: %08x ESI: %08x EDI: %08x EBP: %08x ESP: %08x\n",
	       r.ebx, r.esi, r.edi, r.ebp, r.esp);
	printk("  CR0: %08lx CR2: %08lx CR3: %08lx CR4: %08lx\n",
	       read_cr0(), read_cr2(), read_cr3(), read_cr4_safe());
	show_backtrace(r.ebp);
}
