"""tests/suite/gaps/v86.py - where v86 is not the CPU it emulates, and
which in-kernel checks that makes fail (used by v86.py).

v86 (npm `v86`, an x86 emulator compiled to WebAssembly) is the PC of
the browser page (boot/web/), so the in-kernel suite and the guest suite
run on it too, under Node (tools/run-v86).  It was written to run
operating systems that behave: what a CPU refuses with an exception, v86
sometimes lets pass, refuses with another exception, or - for two kinds
of iret from ring 3 - does not survive at all (its Rust code panics and
the emulator stops).  Every such gap is written down here, once, with
what it breaks, read in v86's source (src/rust/cpu/ in
github.com/copy/v86; the functions are named, their line numbers move):

  LEFT_OUT   the cases the kernel must not run at all (notest=): each
             one stops v86 itself with a Rust panic, ending the run.
  GAPS       each difference, the runs it shows in, and the failed
             checks it explains: (test, regex over the line the check
             printed).

The two runs are the kernel's own suite at ring 0 (HOST) and the guest
suite, the kernel hosting itself at ring 1 (GUEST, judged on what the
guest prints).  A gap of the CPU shows in both, the guest's programs
running on the same emulated CPU at ring 3; one gap shows only through
the host (the interrupt window), and the checks that need ring 0 or a
ring above it differ.  gaps/__init__.py's judge accepts a run whose
failures are exactly these; docs/tests.md, "Emulator limits", lists them
for people (`make docs` writes them there from GAPS and LEFT_OUT).
"""

from . import Gap, GapList

# What the kernel is told to leave out, and why: v86 panics (the message
# is quoted, with the function that panics) where a CPU raises #GP.
LEFT_OUT = {
    "priv:iret_to_kernel":
        "an iret from ring 3 to the kernel's code segment (a selector of RPL 0) "
        "stops v86 ('rpl < cpl', a panic in cpu.rs iret) instead of #GP(0x08)",
    "crash:vm86_iret":
        "an iret from ring 3 with EFLAGS.VM set in its frame stops v86: it ignores "
        "VM at CPL 3, as a CPU does, then takes CS 0x1000, beyond the GDT's limit, "
        "for a protected-mode return ('Unimplemented: CS selector is invalid', a "
        "panic in cpu.rs iret) instead of #GP(0x1000)",
}

HOST = "host"       # test: the in-kernel suite, at ring 0
GUEST = "guest"     # guest=test: the guest suite, at ring 1 under the host
CONFIGS = (HOST, GUEST)

GAPS = [
    # cpu.rs update_eflags, through which popf, iret and every task
    # switch set EFLAGS, clears FLAG_TRAP ("Not supported: trap flag").
    Gap("EFLAGS.TF is dropped: no single-step #DB ever comes (cpu.rs update_eflags "
        "clears the flag)", CONFIGS, (
            ("user_io_single_step_traps_after_the_in",
             r"expected status == EXIT_KILLED\(X86_TRAP_DB\)"),
            ("user_io_single_step_traps_after_the_in",
             r"expected captured_lines\(kill_line\) == 1"),
            ("user_single_step_after_watchpoint_kills_the_task",
             r"expected status == EXIT_KILLED\(X86_TRAP_DB\)"),
            ("user_single_step_after_watchpoint_kills_the_task",
             r"expected captured_lines\(prefix\) == 1"),
            ("user_faults_kill_only_the_task", r"^crash (int80_)?single_step: ")),
        "tests/kernel/test_user_state.c:111: expected status == EXIT_KILLED(X86_TRAP_DB), "
        "got 0x5 and 0xfffffffffffffc17"),
    # The host's interrupt window (arch/x86/host/irq_window.c): with a
    # tick held back by the guest's IF, the store that turns IF on
    # faults; the host sets TF over it and delivers the tick at the
    # #DB after.  v86 drops TF on the way back into the guest, so the
    # #DB never comes and the tick waits for the next exit - after the
    # guest has looked for it.
    Gap("the host's interrupt window single-steps the guest's store that turns IF "
        "on; with TF dropped, a held tick comes at the next exit, late", (GUEST,), (
            ("irq_disable_holds_off_timer", r"expected timer_ticks\(\) != start$"),
            ("irq_restore_takes_pending_timer", r"expected timer_ticks\(\) != start$")),
        "tests/kernel/test_irqflags.c:121: expected timer_ticks() != start"),
    # DR0-DR7 are plain storage (instructions_0f.rs instr_0F21 and
    # instr_0F23 move them); nothing in the CPU compares an access
    # with them.
    Gap("the debug registers hold what is written to them but never fire: no data "
        "breakpoint #DB (instructions_0f.rs instr_0F23 only stores DR7)", CONFIGS, (
            ("debugreg_data_breakpoint_fires", r"expected trap_count\(X86_TRAP_DB\)"),
            ("debugreg_data_breakpoint_fires", r"expected get_debugreg\(6\) & DR6_B0"),
            ("user_watchpoints_are_per_task", r"expected captured_lines\(prefix\) == 3")),
        "tests/kernel/test_cpuregs.c:114: expected trap_count(X86_TRAP_DB) == before + 1, "
        "got 0x0 and 0x1"),
    Gap("bound never raises #BR: it does nothing (instructions.rs instr_62_mem, "
        "'Unimplemented BOUND instruction')", CONFIGS, (
            ("every_exception_vector_is_handled", r"^vector 5: vector 5 counted 0 times$"),
            ("user_faults_kill_only_the_task", r"^crash bound: ")),
        "vector 5: vector 5 counted 0 times"),
    Gap("a lock prefix never raises #UD, even on an instruction that writes no "
        "memory (instructions.rs instr_F0 runs what follows it)", CONFIGS, (
            ("user_faults_kill_only_the_task", r"^crash lock_nop: "),),
        "crash lock_nop: exit status: 100"),
    Gap("invd raises #UD at every ring (instructions_0f.rs instr_0F08); a CPU "
        "raises #GP at CPL 3", CONFIGS, (
            ("user_newer_privileged_instructions_kill_only_the_task", r"^priv invd: "),),
        "priv invd: exit status: -1006"),
    # The CPU v86 reports is a P6 (family 6), which has rdpmc: above
    # ring 0 without CR4.PCE it raises #GP, as the kernel expects.
    Gap("rdpmc raises #UD at every ring (instructions_0f.rs instr_0F33), though the "
        "CPU says family 6, whose rdpmc raises #GP above ring 0 without CR4.PCE",
        CONFIGS, (
            ("rdpmc_above_ring_0_only_with_this_kernels_pce", r"^priv rdpmc: "),
            # the host runs a guest at ring 1 with its own CR4.PCE set
            ("guest_runs_without_the_hosts_cpu_state",
             r"expected v == X86_TRAP_GP \|\| \(!p6 && v == X86_TRAP_UD\)$"),
            # the guest's kernel itself, at ring 1
            ("rdpmc_above_ring_0_only_with_this_kernels_pce",
             r"expected v == X86_TRAP_GP \|\| \(!has_rdpmc\(\) && v == X86_TRAP_UD\)$")),
        "priv rdpmc: exit status: -1006"),
    Gap("no #MF for an unmasked x87 error: fwait does nothing (fpu.rs fwait) and "
        "cpu.rs never raises CPU_EXCEPTION_MF, although CR0.NE is set", CONFIGS, (
            ("user_x87_error_kills_only_the_task",
             r"^crash x87_error: (exit status: 100|not exactly one kill line|"
             r"exceptions counted on the vector: 0)$"),),
        "crash x87_error: exit status: 100"),
    Gap("no #XM for an unmasked SSE error: MXCSR's masks are stored, not obeyed "
        "(cpu.rs set_mxcsr: 'Unimplemented MXCSR exception mask')", CONFIGS, (
            ("user_simd_error_kills_only_the_task",
             r"^crash simd_error: (exit status: 100|not exactly one kill line|"
             r"exceptions counted on the vector: 0)$"),),
        "crash simd_error: exit status: 100"),
    # A CPU reads the back-link as a system access, whatever the CPL, and
    # refuses a selector that is no busy TSS with #TS.  v86 raises no #TS
    # at all: past that read, cpu.rs do_task_switch panics ("#TS
    # handler") on a return to a TSS that is not busy.
    Gap("an iret with EFLAGS.NT reads the TSS's back-link with the rights of the "
        "ring it runs at (cpu.rs iret: safe_read16 of TR's base), so at ring 3 it "
        "takes a #PF on the kernel's TSS instead of #TS", CONFIGS, (
            ("user_faults_kill_only_the_task", r"^crash nested_task_iret: "),),
        "crash nested_task_iret: exit status: -1014"),
]

# The judge of v86 runs (gaps/__init__.py).  A guest's run prints notes in a
# failed test for the vectors its suite leaves to the host.
JUDGE = GapList("v86", "tests/suite/gaps/v86.py", GAPS, LEFT_OUT, CONFIGS,
                guest_notes=True)

# Each left-out case, the one test that runs it (test=NAME runs it
# alone), and the panic it stops v86 with: v86.py's selftest runs each
# and expects that panic, so a case v86 no longer dies on is noticed.
PANICS = {
    "priv:iret_to_kernel": ("user_privileged_instructions_kill_only_the_task", "rpl < cpl"),
    "crash:vm86_iret": ("user_iret_to_vm86_kills_only_the_task",
                        "Unimplemented: CS selector is invalid"),
}
