/*
 * memops.S - memcpy and memset for stage 2, in assembly because they
 * must reach any address in unreal mode: gcc -m16 compiles a C copy loop
 * to `movsb` with 16-bit SI/DI, which wraps at 64 KiB (it copied the
 * interrupt vectors instead of the track buffer at 0x10000).  Here the
 * addr32 prefix makes rep movsb/stosb use ESI/EDI.  regparm(3): the
 * arguments are in EAX, EDX, ECX.
 */
	.code16
	.text
	.globl memcpy
	.type memcpy, @function
/* void *memcpy(void *dst [EAX], const void *src [EDX], u32 n [ECX]) */
memcpy:
	pushl %esi
	pushl %edi
	movl %eax, %edi
	movl %edx, %esi
	cld
	addr32 rep movsb
	popl %edi
	popl %esi
	retl
	.size memcpy, . - memcpy

	.globl memset
	.type memset, @function
/* void *memset(void *dst [EAX], int c [EDX], u32 n [ECX]) */
memset:
	pushl %edi
	movl %eax, %edi
	xchgl %eax, %edx		/* AL = c; EDX keeps dst to return */
	cld
	addr32 rep stosb
	movl %edx, %eax
	popl %edi
	retl
	.size memset, . - memset
