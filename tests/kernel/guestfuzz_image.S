/*
 * guestfuzz_image.S - the guest fuzzer (tests/guestfuzz/, a Multiboot
 * kernel of its own), packed into this kernel's read-only data for the
 * host's ktest guest_fuzz (test_guest_fuzz.c), which starts it with
 * guest_start_image(): any host can run it, under any emulator and boot
 * loader, with no module to hand over.  Data, never this kernel's code.
 */
	.section .rodata
	.balign 4
	.globl guestfuzz_image, guestfuzz_image_end
guestfuzz_image:
	.incbin GUESTFUZZ_IMAGE
guestfuzz_image_end:
	.section .note.GNU-stack, "", @progbits
