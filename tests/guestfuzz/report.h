/*
 * report.h - what the guest fuzzer (tests/guestfuzz/) and the host that
 * runs it (tests/kernel/test_guest_fuzz.c) agree on: its command line,
 * and the page where the fuzzer keeps its count of what it did and
 * found, which the host reads from guest memory after every batch and
 * after the guest has stopped - even when the host stopped it in the
 * middle of a batch.
 *
 * The page is plain guest memory at a fixed guest-physical address, so
 * the host needs nothing from the guest but its memory; the fuzzer
 * never points its random stores or page-table edits at it.
 */
#ifndef TESTS_GUESTFUZZ_REPORT_H
#define TESTS_GUESTFUZZ_REPORT_H

#include <types.h>

/* Below 1 MiB, past the Multiboot block the host writes at 0x8000. */
#define FUZZ_REPORT_GPA		0x9000u
#define FUZZ_REPORT_MAGIC	0x7a7a7567u	/* "guzz" */

#define FUZZ_TEXT_LEN		200

/*
 * The fuzzer's command line: "seed=S life=L batches=B", each a decimal
 * number.  A life is one boot of the fuzzer: it runs B batches of
 * probes from the stream of (S, L), then asks to stop; a probe the host
 * answers by stopping the guest ends the life early.  The host starts
 * life L+1 next, so a run is a list of lives, and (S, L) replays one.
 */
#define FUZZ_BATCH_PROBES	400	/* random probes in a batch */

/* The fuzzer's families of probes (tests/guestfuzz/families.c). */
enum fuzz_family {
	F_INT, F_PRIV, F_IRET, F_SEG, F_HCALL, F_QUEUE, F_PTE, F_DR, F_FPU, F_EXIT,
	F_NR
};

struct fuzz_report {
	u32 magic;
	u32 seed, life;
	u32 batches;			/* done, the one running not counted */
	u32 probes;			/* launched, repeats included */
	u32 findings;			/* probes whose outcome no CPU gives */
	u32 irqs;			/* interrupts the host injected */
	char first[FUZZ_TEXT_LEN];	/* the first finding, in words */
	struct fuzz_probe_note {	/* the last probe begun, as launched */
		u32 family, ring, len;
		u8 code[32];		/* its bytes */
		u32 eax, ebx, ecx, edx, ds, es, fs, gs, eflags;
	} last;
};

#endif
