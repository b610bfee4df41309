/*
 * test_cpuregs.c - control and debug registers, clts, cpuid, wbinvd,
 * sync_core, set_iopl_mask and kernel_rpl.
 */
#include <ktest.h>
#include <string.h>
#include <asm/cpu.h>
#include <asm/debug_regs.h>
#include <asm/paging.h>
#include <asm/privileged.h>
#include <asm/processor-flags.h>
#include <asm/traps.h>

KTEST(cr0_has_pe_and_pg)
{
	unsigned long cr0 = read_cr0();

	KT_EXPECT(cr0 & X86_CR0_PE);	/* protected mode */
	KT_EXPECT(cr0 & X86_CR0_PG);	/* paging_init turned it on */
}

KTEST(clts_clears_ts)
{
	unsigned long cr0 = read_cr0();

	write_cr0(cr0 | X86_CR0_TS);
	KT_EXPECT(read_cr0() & X86_CR0_TS);
	clts();
	KT_EXPECT(!(read_cr0() & X86_CR0_TS));
	write_cr0(cr0);
}

KTEST(cr3_is_kernel_page_dir)
{
	KT_EXPECT_EQ(read_cr3(), (u32)kernel_page_dir);
	write_cr3(read_cr3());		/* a TLB flush; we must survive it */
	KT_EXPECT_EQ(read_cr3(), (u32)kernel_page_dir);
}

KTEST(cr2_round_trip)
{
	unsigned long saved = read_cr2();

	write_cr2(0x5a5a1000);
	KT_EXPECT_EQ(read_cr2(), 0x5a5a1000);
	write_cr2(saved);
}

KTEST(cr4_matches_safe_read)
{
	unsigned long cr4;

	if (!boot_cpu.has_cr4) {
		/* No CR4 that pv386 knows of: the safe read gives 0.  No
		 * 386 has one, so there it must survive the #UD.  A 486
		 * may have one that no CPUID feature shows (later 486s
		 * do, and so does DOSBox's): then nothing is raised and
		 * the read gives the firmware's 0.  Under cpu= the CPU
		 * has one and raises nothing. */
		unsigned long ud = trap_count(X86_TRAP_UD);

		KT_EXPECT_EQ(read_cr4_safe(), 0);
		if (boot_cpu.family == 3 && !boot_cpu.forced)
			KT_EXPECT_EQ(trap_count(X86_TRAP_UD), ud + 1);
		else if (boot_cpu.forced)
			KT_EXPECT_EQ(trap_count(X86_TRAP_UD), ud);
		else
			KT_EXPECT(trap_count(X86_TRAP_UD) - ud <= 1);
		return;
	}
	cr4 = read_cr4();
	KT_EXPECT_EQ(read_cr4_safe(), cr4);
	KT_EXPECT(!(cr4 & X86_CR4_PAE));	/* pv386 uses 2-level paging */
	write_cr4(cr4 | X86_CR4_TSD);		/* harmless: rdtsc at CPL 3 */
	KT_EXPECT(read_cr4() & X86_CR4_TSD);
	write_cr4(cr4);
	KT_EXPECT_EQ(read_cr4(), cr4);
}

KTEST(debugreg_round_trip)
{
	static const int regs[] = { 0, 1, 2, 3 };
	unsigned long saved[4];
	unsigned int i;

	for (i = 0; i < 4; i++) {
		saved[i] = get_debugreg(regs[i]);
		set_debugreg(regs[i], 0x00100000 + 0x40 * i);
	}
	for (i = 0; i < 4; i++) {
		KT_EXPECT_EQ(get_debugreg(regs[i]), 0x00100000 + 0x40 * i);
		set_debugreg(regs[i], saved[i]);
	}
}


/* The real effect of the debug registers: a data breakpoint on a
 * variable makes the next write to it raise #DB. */
#define WATCH_SLOT0	(DR7_LOCAL_ENABLE(0) | DR7_RW_WRITE(0) | DR7_LEN(0, DR7_LEN_4))
#define DR6_B0		0x1	/* slot 0 fired */

KTEST(debugreg_data_breakpoint_fires)
{
	static volatile u32 watched;
	unsigned long before = trap_count(X86_TRAP_DB);

	set_debugreg(6, 0);
	set_debugreg(0, (unsigned long)&watched);
	/* Exact data breakpoints: a 386 needs them to stop at the write. */
	set_debugreg(7, WATCH_SLOT0 | DR7_EXACT);
	KT_EXPECT_EQ(get_debugreg(7) & 0xffff0003, WATCH_SLOT0);
	watched = 1;
	set_debugreg(7, 0);
	KT_EXPECT_EQ(trap_count(X86_TRAP_DB), before + 1);
	KT_EXPECT(get_debugreg(6) & DR6_B0);
	set_debugreg(6, 0);
	set_debugreg(0, 0);
}

KTEST(cpuid_vendor_matches_boot_cpu)
{
	u32 a, b, c, d;
	char vendor[13];

	if (!boot_cpu.has_cpuid)
		KT_SKIP("no cpuid on this CPU");
	cpuid(0, &a, &b, &c, &d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	KT_EXPECT(!strcmp(vendor, boot_cpu.vendor));
	/* A real vendor string, not one cpu.c and this test both got wrong
	 * (tests/run checks the whole signature per emulated model). */
	KT_EXPECT(!strcmp(vendor, "GenuineIntel") || !strcmp(vendor, "AuthenticAMD"));
	KT_EXPECT(a >= 1);
	cpuid(1, &a, &b, &c, &d);
	if (boot_cpu.forced)	/* cpu= reports less than the CPU says */
		KT_EXPECT(((a >> 8) & 0xf) > boot_cpu.family);
	else
		KT_EXPECT_EQ((a >> 8) & 0xf, boot_cpu.family > 15 ? 15 : boot_cpu.family);
}

/* wbinvd exists from the 486 on: on a 386 the native op's exception-table
 * entry must catch the #UD, elsewhere there must be none. */
KTEST(wbinvd_and_sync_core_return)
{
	unsigned long ud = trap_count(X86_TRAP_UD);
	volatile int x = 1;

	bool real_386 = boot_cpu.family == 3 && !boot_cpu.forced;

	wbinvd();
	KT_EXPECT_EQ(trap_count(X86_TRAP_UD) - ud, real_386);
	sync_core();
	KT_EXPECT_EQ(x, 1);
	KT_EXPECT_EQ(trap_count(X86_TRAP_UD) - ud, real_386);
}

/* The arithmetic flags (CF PF AF ZF SF OF) change with every instruction;
 * every other EFLAGS bit is set on purpose in these tests. */
#define ARITHMETIC_FLAGS	0x8d5ul

static unsigned long system_flags(void)
{
	return raw_local_save_flags() & ~ARITHMETIC_FLAGS;
}

/* set_iopl_mask(mask) with DF set around it (std and cld are not
 * privileged), and EFLAGS as it left them. */
static unsigned long iopl_with_df(unsigned long mask)
{
	unsigned long flags;

	asm volatile("std" : : : "memory");
	set_iopl_mask(mask);
	flags = system_flags();
	asm volatile("cld" : : : "memory");
	return flags;
}

/* Each IOPL level lands in bits 12-13 and nothing else moves: IF, DF,
 * NT and (from the 486 on) AC keep the values set before, each checked
 * against the whole expected EFLAGS. */
KTEST(set_iopl_mask_changes_only_iopl)
{
	unsigned long saved, level;

	KT_NOT_IN_GUEST("popf at ring 1 cannot change IOPL");
	saved = raw_local_irq_save();
	KT_EXPECT_EQ(system_flags(), 0x00000002);	/* bit 1 alone */
	for (level = 0; level < 4; level++) {
		set_iopl_mask(level << 12);
		KT_EXPECT_EQ(system_flags(), 0x00000002 | level << 12);
	}
	set_iopl_mask(0);
	KT_EXPECT_EQ(iopl_with_df(X86_EFLAGS_IOPL), 0x00003402);
	KT_EXPECT_EQ(iopl_with_df(0), 0x00000402);
	raw_local_irq_restore(X86_EFLAGS_FIXED | X86_EFLAGS_NT);
	set_iopl_mask(X86_EFLAGS_IOPL);
	KT_EXPECT_EQ(system_flags(), 0x00007002);
	set_iopl_mask(0);
	KT_EXPECT_EQ(system_flags(), 0x00004002);
	if (boot_cpu.family >= 4) {		/* AC is stuck at 0 on a 386 */
		raw_local_irq_restore(X86_EFLAGS_FIXED | X86_EFLAGS_AC);
		set_iopl_mask(X86_EFLAGS_IOPL);
		KT_EXPECT_EQ(system_flags(), 0x00043002);
		set_iopl_mask(0);
		KT_EXPECT_EQ(system_flags(), 0x00040002);
	}
	raw_local_irq_restore(X86_EFLAGS_FIXED);
	raw_local_irq_enable();
	set_iopl_mask(X86_EFLAGS_IOPL);
	KT_EXPECT_EQ(system_flags(), 0x00003202);
	set_iopl_mask(0);
	KT_EXPECT_EQ(system_flags(), 0x00000202);
	raw_local_irq_restore(saved);
}

KTEST(kernel_rpl_matches_cs)
{
	u32 cs;

	asm("mov %%cs, %0" : "=r" (cs));
	KT_EXPECT_EQ(cs & 3, get_kernel_rpl());
}
