/*
 * asm/bench.h - the x86 half of the `bench` option (kernel/bench.c): the
 * loops that must be assembly (arch/x86/entry/bench_entry.S), and the two x86
 * events the kernel workload is made of, as inline helpers so that each
 * costs exactly its instructions and no call.
 */
#ifndef ASM_BENCH_H
#define ASM_BENCH_H

#include <types.h>
#include <asm/extable.h>

#define BENCH_VECTOR		0xf2	/* the workload's software interrupt */
#define BENCH_UNMAPPED_ADDR	"0x40"	/* in page 0, which paging leaves unmapped */

/* arch/x86/entry/bench_entry.S: n trips through INTERRUPT_RETURN to the next
 * instruction, and the same loop without them, for the difference. */
void bench_iret_loop(u32 n, u32 eflags);
void bench_empty_asm_loop(u32 n);

/* A trip through the IDT: int, the entry code, the handler set with
 * set_system_gate(BENCH_VECTOR, ...), and back through INTERRUPT_RETURN. */
static inline void bench_raise_interrupt(void)
{
	asm volatile("int %0" : : "i" (BENCH_VECTOR) : "memory");
}

/* A load that page-faults, resolved by the exception table: the fault
 * entry, the handler's table search, and a return past the load. */
static inline void bench_fault_and_fixup(void)
{
	u32 value = 0;

	asm volatile("1: movl " BENCH_UNMAPPED_ADDR ", %0\n"
		     "2:\n\t"
		     _ASM_EXTABLE(1b, 2b)
		     : "+r" (value) : : "memory");
}

/*
 * The padding instructions the native backend's patched sites would have
 * run so far - each site's calls, counted by the trace backend, times
 * the one instruction of padding the patcher gives it natively, if any
 * (paravirt/backends/trace.c) - in *count: 0, or -ENODEV under any other
 * backend and in the PARAVIRT=n kernel, which has no sites.  make bench
 * reads it around what it times, to tell the NOPs from the rest.
 */
#ifdef CONFIG_PARAVIRT
int paravirt_trace_padding(u32 *count);
static inline int bench_padding_count(u32 *count)
{
	return paravirt_trace_padding(count);
}
#else
static inline int bench_padding_count(u32 *count)
{
	(void)count;
	return -ENODEV;
}
#endif

#endif
