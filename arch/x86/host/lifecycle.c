/*
 * lifecycle.c - a guest pv386 at ring 1: made from a kernel image,
 * stopped and released: the host's side of a guest's life (docs/guest.md).
 *
 * guest_start() puts the kernel image into fresh guest memory with a
 * Multiboot block (load.c), maps the Switcher (switcher.c), starts a
 * shadow of the guest's memory 1:1 (page_tables.c) and sets the
 * registers a Multiboot loader leaves: the guest boots through the same
 * _start as on a PC, and finds at its first instruction that it runs
 * at ring 1.  run.c runs it; whatever finds it broken calls
 * guest_stop(); what it prints comes out through console.c.
 *
 * One guest at a time: there is one Switcher state page.  Its life is
 * the state machine of asm/host.h (enum guest_state): a new guest only
 * once the last one's thread has released it.
 */
#include <kernel.h>
#include <string.h>
#include <asm/host_check.h>
#include <asm/paging.h>
#include <asm/processor-flags.h>
#include <asm/switcher.h>
#include <asm/timer.h>
#include <arch_door.h>
#include "host.h"

#define MULTIBOOT_LOADER_MAGIC	0x2badb002	/* EAX at a Multiboot kernel's entry */

static struct guest the_guest;
DEFINE_SPINLOCK(guest_lock, LOCK_RANK_GUEST);	/* host.h says what it guards */
static bool starting;		/* a start is loading the_guest (guest_lock) */

struct guest *guest_current(void)
{
	return the_guest.state == GUEST_NONE ? NULL : &the_guest;
}

/* What the rest of the kernel may read of a guest (asm/host.h). */
enum guest_state guest_state(const struct guest *g)
{
	return g->state;
}

bool guest_halted(const struct guest *g)
{
	return g->halted;
}

int guest_exit_value(const struct guest *g)
{
	return g->exit_value;
}

/* What a Multiboot loader leaves, at ring 1: the kernel's segments, the
 * magic in EAX, the block in EBX, interrupts on (the real IF: its own
 * flag, in the shared page, starts off). */
static void set_boot_registers(u32 entry)
{
	struct pt_regs *r = switcher_guest_regs();

	memset(r, 0, sizeof(*r));
	r->eip = entry;
	r->cs = __KERNEL_CS | GUEST_KERNEL_RPL;
	r->ss = r->ds = r->es = __KERNEL_DS | GUEST_KERNEL_RPL;
	r->esp = GUEST_BOOT_INFO;	/* below the block; _start sets its own */
	r->eflags = X86_EFLAGS_IF | X86_EFLAGS_FIXED;
	r->eax = MULTIBOOT_LOADER_MAGIC;
	r->ebx = GUEST_BOOT_INFO;
}

/* pv386's flat segments until the guest loads its GDT.  Its gates are
 * none until it loads its IDT (g->gates is zeroed): the Switcher's own
 * lead every trap to the host, which stops a guest that traps so soon. */
static void set_boot_tables(struct guest *g)
{
	static const struct { unsigned int index, dpl; u8 type; } segs[] = {
		{ GDT_ENTRY_KERNEL_CS, 0, DESC_CODE_R }, { GDT_ENTRY_KERNEL_DS, 0, DESC_DATA_W },
		{ GDT_ENTRY_USER_CS, 3, DESC_CODE_R }, { GDT_ENTRY_USER_DS, 3, DESC_DATA_W },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(segs); i++)
		guest_check_gdt_entry(segs[i].index, flat_segment(segs[i].dpl, segs[i].type),
				      &g->cpu->guest_gdt_table[segs[i].index]);
}

/* Memory, kernel, boot block and the first shadow for g: 0, or -errno
 * with nothing held (each step that fails holds nothing itself). */
static int load_guest(struct guest *g, const void *image, u32 size, const char *cmdline,
		      unsigned int mib)
{
	u32 entry;
	int err;

	g->cpu = switcher_setup();
	if (!g->cpu)
		return -ENODEV;
	err = guest_memory_alloc(&g->mem, mib);
	if (err)
		return err;
	err = guest_load_kernel(&g->mem, image, size, &entry);
	if (!err)
		err = guest_write_boot_info(&g->mem, cmdline);
	if (!err)
		err = shadow_cache_init(&g->shadows, &g->mem);
	if (err) {
		guest_memory_free(&g->mem);
		return err;
	}
	shadow_cures_choose(&g->shadows);
	g->cpu->guest_cr3 = (u32)g->shadows.active->pgd;
	set_boot_tables(g);
	set_boot_registers(entry);
	return 0;
}

/* A guest made from the kernel image at image (an ELF file of size
 * bytes): 0, or -ENODEV (a 386 cannot host, nor can a guest), -EBUSY
 * (one is running, or stopped and not yet released by its thread),
 * -EINVAL (a bad image, guestmem, cmdline), -ENOMEM. */
int guest_start_image(const void *image, u32 size, const char *cmdline, unsigned int mib)
{
	struct guest *g = &the_guest;
	unsigned long flags;
	int err;

	/* Claimed under the lock, loaded outside it (megabytes cleared and
	 * copied: too long to hold a spinlock), made running under it. */
	spin_lock_irqsave_call(&guest_lock, &flags);
	if (starting || g->state == GUEST_RUNNING || g->state == GUEST_STOPPED) {
		spin_unlock_irqrestore_call(&guest_lock, flags);
		return -EBUSY;
	}
	starting = true;
	spin_unlock_irqrestore_call(&guest_lock, flags);

	memset(g, 0, sizeof(*g));	/* GUEST_NONE: the last one's record goes */
	g->exit_value = -1;
	err = load_guest(g, image, size, cmdline, mib);

	spin_lock_irqsave_call(&guest_lock, &flags);
	if (!err) {
		g->last_tick = timer_ticks();
		g->state = GUEST_RUNNING;
	}
	starting = false;
	spin_unlock_irqrestore_call(&guest_lock, flags);
	return err;
}

/* The same from the kernel module (-ENOENT if there is none). */
int guest_start(const char *cmdline, unsigned int mib)
{
	const struct boot_module *kernel = guest_kernel_module();

	if (!kernel)
		return -ENOENT;
	return guest_start_image((const void *)kernel->start, kernel->end - kernel->start,
				 cmdline, mib);
}

/* A stopped guest's memory and shadows back to the host, by what ran
 * it, once it will not run it again; what it did (its stats, why it
 * stopped) stays for `guest stats`.  Nothing in any other state. */
void guest_release(void)
{
	struct guest *g = &the_guest;
	unsigned long flags;

	spin_lock_irqsave_call(&guest_lock, &flags);
	if (g->state == GUEST_STOPPED) {
		shadow_cache_free(&g->shadows);
		guest_memory_free(&g->mem);
		g->shared = NULL;
		g->state = GUEST_RELEASED;
	}
	spin_unlock_irqrestore_call(&guest_lock, flags);
}

/* Stopped, by its own thread (a fault, a bad hypercall) or by the host's
 * shell: once, under guest_lock, whichever comes first. */
void guest_stop(struct guest *g, const char *fmt, ...)
{
	unsigned long flags;
	va_list ap;

	spin_lock_irqsave_call(&guest_lock, &flags);
	if (g->state != GUEST_RUNNING) {
		spin_unlock_irqrestore_call(&guest_lock, flags);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(g->stop_reason, sizeof(g->stop_reason), fmt, ap);
	va_end(ap);
	g->state = GUEST_STOPPED;
	guest_console_output_locked(g, "\n", g->line_len ? 1 : 0);	/* its last words */
	printk("host: guest stopped: %s\n", g->stop_reason);
	spin_unlock_irqrestore_call(&guest_lock, flags);
}

/* A shadow got no frame (page_tables.c): the guest stops, with the
 * limit it met - its quota, or the host's memory - as the refusal noted
 * it (a new directory's frame given back since has moved the count). */
void guest_stop_no_frame(struct guest *g)
{
	if (g->mem.quota_refused)
		guest_stop(g, "its page tables reached their quota of %lu host frames",
			   g->mem.shadow_quota);
	else
		guest_stop(g, "the host is out of memory for its page tables");
}
