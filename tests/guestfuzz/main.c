/*
 * main.c - one life of the guest fuzzer: its machine from the seed and
 * the life's number (its command line, report.h), a sweep of every
 * int n at ring 1 and at ring 3, then its batches of random probes,
 * counted in the report page, which the host reads to check itself
 * between batches.  At the end it asks to stop,
 * with 0x10 if it found nothing and 0x11 if it did; the report page
 * has the counts either way.
 */
#include "guestfuzz.h"

struct multiboot_block {
	u32 flags, mem_lower, mem_upper, boot_device, cmdline;
};
#define MB_INFO_CMDLINE	0x4

static void report_start(u32 seed, u32 life)
{
	memset(report, 0, sizeof(*report));
	report->magic = FUZZ_REPORT_MAGIC;
	report->seed = seed;
	report->life = life;
}

/* The end of a batch: the host sees the count move on the next time it
 * has the CPU (its scheduler takes it back at least once a tick), and
 * checks itself. */
static void end_batch(void)
{
	report->batches++;
}

void __attribute__((regparm(3), noreturn)) fuzz_main(const struct multiboot_block *mb)
{
	const char *cmdline = mb->flags & MB_INFO_CMDLINE ? (const char *)mb->cmdline : "";
	u32 seed = parse_number(cmdline, "seed", 1), life = parse_number(cmdline, "life", 0);
	u32 batches = parse_number(cmdline, "batches", 4), b, i;

	families = parse_number(cmdline, "families", families);

	report_start(seed, life);
	rng_seed(seed, life);
	machine_boot(mb);
	print("guestfuzz: seed %u life %u, %u batches of %u probes%s\n", seed, life, batches,
	      FUZZ_BATCH_PROBES, families == ~0u ? "" : " (not every family)");
	if (batches) {
		fuzz_int_sweep();
		end_batch();
	}
	for (b = 1; b < batches; b++) {
		for (i = 0; i < FUZZ_BATCH_PROBES; i++)
			fuzz_one();
		end_batch();
	}
	print("guestfuzz: life %u done: %u probes, %u interrupts, %u findings\n", life,
	      report->probes, report->irqs, report->findings);
	hcall(HCALL_exit, GUEST_EXIT_EMULATOR, report->findings ? 0x11 : 0x10, 0);
	for (;;)
		;
}
