"""tests/suite/gaps/dosbox.py - where DOSBox is not the CPU it emulates,
and which in-kernel checks that makes fail (used by dosbox.py).

DOSBox 0.74 is the one emulator here whose 386 has no CPUID, so the whole
in-kernel suite runs on it.  But DOSBox was written to run DOS games, not
protected-mode kernels: some exceptions never come, some come as another
vector, and a few guest actions stop DOSBox itself.  Every such gap is
written down here, once, with what it breaks:

  LEFT_OUT   the tests and cases the kernel must not run at all (notest=):
             each one stops DOSBox (an internal E_Exit, or a crash),
             ending the run.
  GAPS       each difference, the DOSBox configurations it shows on, and
             the failed checks it explains: (test, regex over the line
             the check printed).

unexplained() accepts a run whose failures are exactly these: every line of
every failed test explained by a gap of this configuration, and every gap
of this configuration seen (one that DOSBox no longer shows must go);
the judge is gaps/__init__.py's, shared with gaps/v86.py.  docs/tests.md,
"Emulator limits", lists the same gaps for people: `make docs` writes
them there from GAPS and LEFT_OUT.
"""

from . import Gap, GapList

# What the kernel is told to leave out, and why: DOSBox stops (the
# message it stops with is quoted) where a real CPU raises an exception.
LEFT_OUT = {
    "return_to_user_with_freed_stack_segment_kills_task":
        "an iret to ring 3 with a stack segment no longer valid stops DOSBox "
        "('IRET:Outer level:Stack segment not writable') instead of #GP",
    "crash:null_ss":
        "a null selector loaded into %ss at ring 3 stops DOSBox "
        "('CPU_SetSegGeneral: Stack segment zero') instead of #GP",
    "crash:nested_task_iret":
        "an iret with EFLAGS.NT set and no busy TSS behind it stops DOSBox "
        "('TSS not busy for IRET') instead of #TS",
    "crash:vm86_iret":
        "an iret from ring 3 with EFLAGS.VM set in its frame stops DOSBox "
        "('IRET from pmode to v86 with CPL!=0') instead of #GP",
}

# The configurations: DOSBox's cputype, and the kernel's line beyond
# `test`.  On "386" DOSBox lets EFLAGS.AC toggle, which a real 386 does
# not: the kernel, which tells a 386 from a 486 by that bit (as Intel
# documents), sees a 486 without CPUID.  cpu=386 makes it take the 386
# path there too.  DOSBox's pentium_slow says "tsc" in CPUID but raises
# #UD for rdtsc, which the kernel (like Linux) trusts CPUID about: there
# the suite runs as cpu=486, without the TSC.
DETECTED_386 = "386"
FORCED_386 = "386 cpu=386"
I486 = "486_slow"
PENTIUM_AS_486 = "pentium_slow cpu=486"
CONFIGS = (DETECTED_386, FORCED_386, I486, PENTIUM_AS_486)
CORE_386 = (DETECTED_386, FORCED_386)
HAS_WP = (DETECTED_386, I486, PENTIUM_AS_486)     # the kernel sets CR0.WP


GAPS = [
    Gap("no #DB at all: data breakpoints in DR0-DR3/DR7 and EFLAGS.TF "
        "single-stepping never fire", CONFIGS, (
            ("debugreg_data_breakpoint_fires", r"expected trap_count\(X86_TRAP_DB\)"),
            ("debugreg_data_breakpoint_fires", r"expected get_debugreg\(6\) & DR6_B0"),
            ("user_watchpoints_are_per_task", r"expected captured_lines\(prefix\) == 3"),
            ("user_single_step_after_watchpoint_kills_the_task",
             r"expected status == EXIT_KILLED\(X86_TRAP_DB\)"),
            ("user_single_step_after_watchpoint_kills_the_task",
             r"expected captured_lines\(prefix\) == 1"),
            ("user_io_single_step_traps_after_the_in",
             r"expected status == EXIT_KILLED\(X86_TRAP_DB\)"),
            ("user_io_single_step_traps_after_the_in",
             r"expected captured_lines\(kill_line\) == 1"),
            ("user_faults_kill_only_the_task", r"^crash (int80_)?single_step: ")),
        'tests/kernel/test_cpuregs.c:114: expected trap_count(X86_TRAP_DB) == '
        'before + 1, got 0x0 and 0x1'),
    Gap("CR0.TS is ignored: no #NM, so lazy FPU switching never runs and "
        "all tasks share one x87 state", CONFIGS, (
            ("every_exception_vector_is_handled", r"^vector 7: vector 7 counted 0 times$"),
            ("user_fpu_state_is_per_task", r"expected [ab] == 0"),
            ("user_fpu_state_is_per_task", r"expected trap_count\(X86_TRAP_NM\) - nm >= ROUNDS"),
            ("user_fpu_state_survives_migration",
             r"expected finish_program\(pids\[i\]\) == 0"),
            ("tasks_end_with_their_own_status",
             r"expected finish_program\(pid\[i\]\) == want\[i\]"),
            ("user_x87_error_kills_only_the_task",
             r"^crash x87_error: the survivor beside it exited with: 3$"),
            ("fresh_task_after_a_dead_one", r'expected run_fresh\("check"\) == 0'),
            ("fresh_task_after_a_dead_one", r'expected captured_lines\("fresh: '),
            ("fresh_task_beside_a_live_one", r'expected run_fresh\("hold"\) == 0'),
            ("fresh_task_beside_a_live_one", r'expected captured_lines\("fresh: '),
            ("fpu_switching_kept_across_a_live_switch",
             r"expected finish_program\([ab]\) == 0")),
        'vector 7: vector 7 counted 0 times'),
    # DOSBox's 386 core sets a page's dirty bit on the read that maps it,
    # where a CPU sets it only at the first write (Intel SDM vol. 3, 4.8);
    # its 486 and Pentium cores do not.
    Gap("the 386 core sets a writable page's dirty bit on a read too, not "
        "only on a write", CORE_386, (
            ("page_access_sets_accessed_then_dirty",
             r"^tests/kernel/test_accessed_dirty\.c:\d+: expected !\(\*pte & PTE_DIRTY\)$"),),
        'tests/kernel/test_accessed_dirty.c:47: expected !(*pte & PTE_DIRTY)'),
    Gap("no #MF for an unmasked x87 error, although CR0.NE is set", CONFIGS, (
        ("user_x87_error_kills_only_the_task",
         r"^crash x87_error: (exit status: 100|not exactly one kill line|"
         r"exceptions counted on the vector: 0)$"),),
        'crash x87_error: exit status: 100'),
    Gap("no #BR from bound out of range, no #UD for a lock prefix on nop", CONFIGS, (
        ("user_faults_kill_only_the_task", r"^crash (bound|lock_nop): "),),
        'crash bound: exit status: 100'),
    Gap("clts at ring 3 raises #UD, not #GP", CONFIGS, (
        ("user_privileged_instructions_kill_only_the_task", r"^priv clts: "),),
        'priv clts: exit status: -1006'),
    Gap("an iret or a far jump from ring 3 to the kernel's code segment is "
        "not refused with #GP: it goes ahead and faults later (#PF)", CONFIGS, (
            ("user_privileged_instructions_kill_only_the_task",
             r"^priv (iret_to_kernel|ljmp_kernel): "),),
        'priv ljmp_kernel: exit status: -1014'),
    # kernel_write: a supervisor page the kernel itself used since the
    # last CR3 load (its own stack, say) is written from ring 3 without a
    # fault; which page that is moves with the kernel's size (the per-CPU
    # areas, for one, are part of it).
    Gap("the 386 core checks no page protection on data: ring 3 reads "
        "supervisor pages, writes read-only ones, and writes supervisor "
        "pages the kernel used last", CORE_386, (
            ("user_faults_kill_only_the_task",
             r"^crash (kernel_read|kernel_write|text_write): "),),
        'crash kernel_read: exit status: 100'),
    Gap("the 386 core reads CR0 with every reserved bit set (fffffffb), "
        "CR0.AM among them, but raises no #AC", CORE_386, (
            ("user_alignment_check_needs_cr0_am", r"^crash alignment: "),),
        'crash alignment: exit status: 100'),
    Gap("the 386 core raises #UD for wbinvd and invd, as a real 386 does, "
        "although EFLAGS.AC toggles as on a 486", CORE_386, (
            ("wbinvd_and_sync_core_return",
             r"expected trap_count\(X86_TRAP_UD\) - ud == real_386"),),
        'tests/kernel/test_cpuregs.c:154: expected trap_count(X86_TRAP_UD) - ud == '
        'real_386, got 0x1 and 0x0'),
    Gap("wbinvd and invd at ring 3 raise #UD, not #GP", HAS_WP, (
        ("user_newer_privileged_instructions_kill_only_the_task",
         r"^priv (wbinvd|invd): "),),
        'priv wbinvd: exit status: -1006'),
    # The kernel finds it out as paging comes on (write_protect_holds,
    # arch/x86/mm/paging.c): from then on a system call checks a user
    # page in software before it writes it, as on a 386, so a read-only
    # page handed to one is refused (badptr and sysfuzz see -EFAULT, as
    # under QEMU).  And the host runs no guest here: its guest kernel,
    # which the MMU counts as supervisor, would write the Switcher's
    # pages (it zeroed the host's saved cr3, and DOSBox crashed in its
    # page-fault code).  The guest tests skip ("no host here: no CR0.WP
    # that holds ...").  What is left is the kernel's own text.
    Gap("CR0.WP is ignored: ring 0 writes read-only pages (the kernel's "
        "text; the kernel sees it at boot and checks user pages in software)", HAS_WP, (
            ("kernel_text_is_read_only", r"^tests/kernel/test_kernel_text\.c:\d+: expected "),
            ("kernel_text_poke_changes_code", r"expected write_faults\(TARGET_IMMEDIATE, 7\)")),
        'tests/kernel/test_kernel_text.c:48: expected write_faults(TARGET_IMMEDIATE, 7)'),
    # DOSBox 0.74 (src/cpu/paging.cpp) raises a #PF found in a page walk
    # by running the guest's handler in a nested loop (PAGING_PageFault,
    # PageFaultCore), which it leaves only once the page is present and
    # CS:EIP is back at the faulting instruction; then it finishes that
    # instruction's access, to the address of the fault.  A fault the
    # kernel answers with -EFAULT (an exception-table fixup, EIP moved
    # on) leaves that loop waiting: when the page is mapped later and the
    # same instruction (an inlined get_user_u8) next runs, for any
    # address, DOSBox completes the old access in its place.  That read
    # takes no #PF, so a heap page first touched there stays unmapped.
    # Shown with a probe program: write(brk + 16) = -EFAULT, sbrk, store
    # 'Z' there, then write("A") printed "Z" (QEMU: "A"); uptime() on a
    # fresh heap page gave -EFAULT, its get_user_u8 returning 0 with the
    # page not present.  Every cputype has the loop (486_slow printed "Z"
    # too); cpu=386 shows it because copy_to_user reads each page first.
    # Seed 1 here (when this was written), with cpu=386: uptime on a fresh
    # heap page gave -EFAULT; spawn of the too-long name (-EINVAL) read a
    # stale NUL in it and went on to the bad argument (-EFAULT); and the
    # line naming that second mismatch was lost, its write having read a
    # stale NUL as its first byte.  Where the kernel wrote user pages
    # without reading them first (before it checked them in software
    # wherever CR0.WP does not hold), the stale access was a write:
    # getarg's copy and wait's status landed at the old address, and the
    # new one kept what it held.
    Gap("a #PF that the guest does not resolve (an exception-table fixup) "
        "leaves DOSBox waiting in its nested page-fault loop: once the page "
        "is mapped, the next run of the same instruction completes the old "
        "access instead of its own, without a #PF", CONFIGS, (
            # The probe, made a test: write(page + 16) = -EFAULT, the page
            # mapped and 'Z' stored there, then one write() of the line
            # "badptr: refault A", whose first byte DOSBox reads from the
            # old address ("Zadptr: refault A", seen with cpu=386).  It
            # shows the gap on every run.
            ("system_call_after_efault_reads_its_own_argument",
             r'expected captured_lines\("badptr: refault A"\) == 1'),
            # And sysfuzz's signature, where a seed happens on the gap (which
            # seed does moves with any change to sysfuzz, its table of calls
            # or the kernel's layout), not the calls of one: a call answered -EFAULT
            # where the rules give another answer, what the kernel wrote not
            # where it was asked to, and a mismatch line lost.  The same
            # runs under QEMU (the sysfuzz-* rows) are held to the exact
            # answers.
            ("sysfuzz_random_calls_leave_nothing_behind",
             r"^sysfuzz: call \d+ by (int80|sysenter): \w+\([0-9a-f, ]*\) "
             r"\[nr [0-9a-f]+\] = -14: expected -?\d+$"),
            ("sysfuzz_random_calls_leave_nothing_behind",
             r"^sysfuzz: call \d+ by (int80|sysenter): \w+\([0-9a-f, ]*\) "
             r"\[nr [0-9a-f]+\] = -?\d+: (the argument read back differs|"
             r"status [0-9a-f]+, expected 0)$"),
            # A spawn of a too-long name (-EINVAL) that read a stale NUL
            # inside it: a shorter name, no such program (-ENOENT; seen
            # after sysfuzz learned the thread call, seed 1).
            ("sysfuzz_random_calls_leave_nothing_behind",
             r"^sysfuzz: call \d+ by (int80|sysenter): spawn\([0-9a-f, ]*\) "
             r"\[nr 5\] = -2: expected -22$"),
            ("sysfuzz_random_calls_leave_nothing_behind",
             r"^tests/kernel/test_sysfuzz\.c:\d+: expected status == named, "
             r"got 0x[0-9a-f]+ and 0x[0-9a-f]+$")),
        'tests/kernel/test_tasks.c:107: expected captured_lines("badptr: refault A") '
        '== 1, got 0x0 and 0x1'),
]

# The judge of DOSBox runs (gaps/__init__.py), and its parts as dosbox.py calls them.
JUDGE = GapList("DOSBox", "tests/suite/gaps/dosbox.py", GAPS, LEFT_OUT, CONFIGS)
notest_option = JUDGE.notest_option
unexplained = JUDGE.unexplained
self_test = JUDGE.self_test
