"""tests/suite/smp.py - finding and starting the CPUs (docs/smp.md): the
firmware's tables parsed natively, and the kernel on QEMU -smp N.

  native-cpu-tables  The CPU-table parser's unit tests
                   (tests/native/cpu_tables/: ACPI MADT and MP tables built
                   by hand and captured from QEMU -smp 4; checksums,
                   lengths and entries that lie, pointers to nothing,
                   too many and disabled CPUs), built by `make native-tests`.
  native-cpu-tables-fuzz  Its libFuzzer target for a fixed number of runs
                   from a fixed seed, starting from its seed corpus: no
                   crash, no broken invariant.  `make fuzz-cpu-tables`
                   fuzzes longer.
  smp-*            The kernel booted to its shell on QEMU -smp 1, 2, 4
                   and 8 (and 4 in the PARAVIRT=n build): the boot line
                   counts the CPUs the ACPI MADT lists, the APs are
                   started (`smp: N CPUs running`, the ready line ends
                   ` cpus=N`) and `cpus` lists them, APIC ids 0..N-1,
                   each to use "running"; `nosmp` and `smp=2` cap what is
                   used (the rest "not started"), `smp=9` is refused;
                   with -no-acpi the MP table is used; a 486 (no local
                   APIC) is one CPU and no table is read (-smp 1: QEMU's
                   486 takes no timer interrupt with -smp 2, with or
                   without this kernel's tables).
                   Where more than one CPU is to be used (-smp 2 and 4,
                   not nosmp) the boot CPU's local APIC is set up and its
                   timer, calibrated against the PIT, gives the scheduler
                   tick: the boot says so.
  ktest-smp-*      The in-kernel suite on QEMU -smp 2, under pv=trace
                   with nopatch: every test passes with the APIC timer
                   ticking beside the PIT, test_apic's tests run (id,
                   self-IPIs and their EOI, the timer at HZ, trace
                   counting the APIC ops) and every op is reached
                   ("op coverage: 57/57"); and the whole suite on -smp 4
                   and -smp 2 in both builds, the APs taking user tasks
                   and kernel threads from the one run queue: tasks move
                   between CPUs with their FPU state, kills and wake-ups
                   reach other CPUs by IPI (and a storm of IPIs between
                   all of them), the TLB shootdown's tests pass (a heap
                   page given back by one thread faults at once for a
                   reader thread on another CPU, threads outlive their
                   creator, every page comes back, flush_tlb_others
                   returns only once each CPU asked has flushed), and
                   (PARAVIRT=y) the live backend switches stop the other
                   CPUs at a safe point.  -fpu=eager: the -smp 4 suite
                   with the FPU switched eagerly, each task's registers
                   given back as it leaves a CPU and loaded by the
                   switch wherever it runs next.
  smp-left-out-*   A CPU that never answers its start-up (the ktest
                   scenario apic2_never_answers sends APIC id 2 no
                   STARTUP; smp-ktest-late's smpboot_apic2_answers_late
                   holds it in the trampoline until the boot CPU gave up
                   on it and starts the next CPU, when it must halt
                   uncounted, harming nobody: tests/kernel/
                   boot_scenarios.c) is named in the boot log and "left
                   out" in `cpus`; the others run and the kernel goes on
                   to its shell.
  smp-8-loaded-n   -smp 8 booted to the ready line five times beside busy
                   loops (three per host core): every boot gets there,
                   with 8 CPUs running or with each CPU that answered too
                   late named left out and the others running.
  smp-ktest-*      The in-kernel test smpboot_each_ap_says_who_it_is
                   (tests/kernel/test_smpboot.c) on -smp 4 and 8, with
                   and without a CPU left out: each AP online wrote its
                   own APIC id and cpu number where expected.
"""

import os
import re
import subprocess

from .builds import N, Y
from .emulators import KTEST_QEMU_TIMEOUT, QEMU, qemu_command, read_serial, run_emulator
from .harness import Failure, Test, fresh_log, need_file, need_tool
from .native import check_native_tests, run_fuzzer
from .ktest import FPU_LINES, qemu_ktest
from .shell_session import shell_dialogue

CPU_TABLES_TEST = "build/native/test_cpu_tables"
CPU_TABLES_FUZZER = "build/native/fuzz_cpu_tables"
CPU_TABLES_SEEDS = "tests/native/cpu_tables/fuzz/corpus"
# About 15 s: each run searches the BIOS areas four times (as given and
# repaired, each twice), some 600 runs a second with the sanitizers.
CPU_TABLES_FUZZ_RUNS = 8000
CPU_TABLES_FUZZ_SCRATCH = "build/native/cpu-tables-fuzz-run"


def check_cpu_tables_fuzz(log):
    run_fuzzer(log, CPU_TABLES_FUZZER, CPU_TABLES_SEEDS, CPU_TABLES_FUZZ_RUNS,
               CPU_TABLES_FUZZ_SCRATCH, 4096, "native-cpu-tables-fuzz")


def cpu_row(index, apic_id, state):
    """The line of `cpus` for one enabled CPU (its ACPI id is its index
    in QEMU's MADT; the boot CPU is index 0)."""
    boot = "yes" if index == 0 else "no "
    # A running CPU's row goes on with the task it runs (the boot CPU:
    # the shell, in the boot thread; an AP: its idle task, or a task it
    # took) and the reschedule IPIs it received.
    work = r" +\d+ \S+ +\d+" if state == "running" else ""
    return re.compile(rf"^  {index} +{apic_id} +{index} +{boot}   yes      {state}{work}$")


def found(n, source, to_use, running, cap=""):
    """The boot line and `cpus`'s first line for n CPUs from source, of
    which to_use are to be used and running run."""
    by = f" ({cap})" if cap else ""
    boot_line = (f"smp: {n} CPU{'s' if n > 1 else ''} found ({source}), local APIC at "
                 f"fee00000, boot CPU APIC id 0; {to_use} to use{by}, 1 running "
                 f"(APs not started yet)$")
    by = f" by {cap}" if cap else ""
    first = (f"cpus: {n} enabled of {n} listed ({source}), local APIC at fee00000, "
             f"{to_use} to use{by}, {running} running$")
    return boot_line, first


# `cpus`'s last line: the boot CPU's APIC where a second CPU is to be
# used (its timer has ticked by the time the shell answers), else none.
APIC_IN_USE = re.compile(r"^apic: this CPU's id 0, version 0x14; timer [1-9]\d* kHz, "
                         r"count [1-9]\d*; local timer ticks [1-9]\d*, spurious 0$")
APIC_NOT_SET_UP = "apic: not set up (one CPU to use: the PIC and the PIT)$"


def cpu_state(index, to_use, left_out):
    """What `cpus` says CPU index is doing."""
    if index >= to_use:
        return "not started"
    return "left out" if index in left_out else "running"


# The qemu32 CPU as the ready line names it, before ` cpus=N`.
QEMU32_READY = "cpu=GenuineIntel family 6 model 6 (QEMU Virtual CPU version 2.5+)"


def smp_dialogue(build, n, source="ACPI MADT", to_use=None, cap="", left_out=()):
    """`cpus` on a machine of n CPUs all listed in the table, and the boot
    lines: the start-up's (each CPU left out named) and the ready line."""
    to_use = n if to_use is None else to_use
    running = to_use - len(left_out)
    boot_line, first = found(n, source, to_use, running, cap)
    rows = [cpu_row(i, i, cpu_state(i, to_use, left_out)) for i in range(n)]
    said = [boot_line]
    said += [f"smp: CPU {i} (APIC id {i}) did not answer the start-up; left out$"
             for i in left_out]
    if to_use > 1:
        said.append(f"smp: {running} CPUs running$")
    said.append(f"{build.ready} {QEMU32_READY} cpus={running}$")
    apic = APIC_IN_USE if to_use > 1 else APIC_NOT_SET_UP
    return [("cpus", [first] + rows + [apic])], said


# The four CPUs in one host thread, taking turns (QEMU's round-robin
# TCG).  With a thread each, two such machines on CI's two cores spend
# minutes where one alone takes 12 s: a CPU spins on a ticket lock whose
# holder's thread the host has put aside, and the tickets behind it wait
# in a queue (the lock-holder preemption that pv spinlocks exist for,
# docs/smp.md).  ktest-smp-2-y and the smp-* rows keep a thread per CPU.
SMP_SUITE_MACHINE = ["-smp", "4", "-accel", "tcg,thread=single"]
SMP_SUITE_TIMEOUT = 120

# What the whole in-kernel suite on four CPUs must show besides passing:
# the APs in the scheduler, the APIC's tests, tasks moving between CPUs
# with their FPU state, the IPIs, and live switches with the others
# stopped (PARAVIRT=y only).
SMP_SUITE_SAYS = ["smp: 4 CPUs running",
                  "ktest: PASS apic_id_matches_cpuid", "ktest: PASS apic_self_ipi",
                  "ktest: PASS apic_timer_ticks_at_hz",
                  "ktest: PASS user_fpu_state_survives_migration",
                  "ktest: PASS smp_kill_reaches_a_task_on_another_cpu",
                  "ktest: PASS smp_wake_up_kicks_an_idle_cpu",
                  "ktest: PASS smp_ipi_storm_between_every_cpu",
                  "ktest: PASS tlb_page_given_back_faults_on_every_cpu",
                  "ktest: PASS tlb_thread_outlives_its_creator",
                  "ktest: PASS tlb_flush_others_returns_after_every_answer",
                  "ktest: PASS pv_switch_round_trip_restores_every_site",
                  "ktest: PASS pv_switch_stops_the_other_cpus"]


def smp_test(name, smp, n, append="", extra=(), said=(), build=Y, **kwargs):
    """A row: QEMU -smp smp with n CPUs listed; said: more boot lines."""
    dialogue, in_log = smp_dialogue(build, n, **kwargs)
    return Test(name, shell_dialogue, (build, dialogue),
                {"append": append, "in_log": in_log + list(said),
                 "extra": ["-smp", str(smp), *extra]})


def smp_ktest(name, smp, build=Y, skip=None, scenario=None, late=False):
    """The start-up's in-kernel tests on QEMU -smp smp, every CPU started
    but APIC id skip, which must be named left out: the ktest scenario
    (tests/kernel/boot_scenarios.c) sends it no STARTUP, or, late, holds
    it in the trampoline until the boot CPU gave up on it and starts the
    next CPU, when it must halt uncounted and harm nobody
    (smpboot_a_late_ap_halts_and_harms_nobody)."""
    running = smp - (skip is not None)
    expect = ["ktest: PASS smpboot_each_ap_says_who_it_is", f"smp: {running} CPUs running"]
    if late:
        expect.append("ktest: PASS smpboot_a_late_ap_halts_and_harms_nobody")
    append = f"test={scenario or 'smpboot'}"
    if skip is not None:
        expect.append(f"smp: CPU {skip} (APIC id {skip}) did not answer the start-up; "
                      "left out")
    return Test(name, qemu_ktest, (build, "qemu32"),
                {"append": append, "expect": expect, "extra": ["-smp", str(smp)]})


# smp-8-loaded: boots of -smp 8 beside busy loops, BUSY_LOOPS_PER_CORE
# of them for each host core: the vCPU threads then wait for the host's
# cores as on an overcommitted hypervisor.
LOADED_BOOTS = 5
BUSY_LOOPS_PER_CORE = 3
LEFT_OUT = re.compile(r"^smp: CPU (\d+) \(APIC id \1\) did not answer the start-up; left out$")


def busy_loops(n):
    """n processes that only spin, for the host's scheduler to share its
    cores with."""
    return [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(n)]


def loaded_boot_problem(build, smp, lines, outcome, timeout):
    """What is wrong with one boot of smp CPUs under load, or None: it
    must reach the ready line with every CPU running, or with fewer,
    each CPU not running named left out."""
    if not any(line.startswith(build.ready) for line in lines):
        if outcome.timed_out:
            return f"no ready line: {outcome.why}"
        return f"QEMU ended (status {outcome.status}) before the ready line"
    left_out = [m.group(1) for m in map(LEFT_OUT.match, lines) if m]
    running = smp - len(left_out)
    ready = f"{build.ready} {QEMU32_READY} cpus={running}"
    if f"smp: {running} CPUs running" not in lines or ready not in lines:
        return (f"{len(left_out)} CPU(s) named left out ({', '.join(left_out) or 'none'}), "
                f"but not '{ready}' after 'smp: {running} CPUs running'")
    return None


def check_boots_under_load(log, build, smp, boots=LOADED_BOOTS, timeout=KTEST_QEMU_TIMEOUT):
    """Boot -smp smp to the ready line boots times beside busy loops
    (a boot with no `test` is the shortest way to the ready line)."""
    need_tool(QEMU, "qemu")
    need_file(build.elf, build.make("all"))
    loops = busy_loops(BUSY_LOOPS_PER_CORE * (os.cpu_count() or 1))
    try:
        for boot in range(1, boots + 1):
            fresh_log(log)
            cmd = qemu_command(log, "qemu32", ["-kernel", build.elf, "-smp", str(smp)])
            # Stopped once the ready line is whole (the last piece of
            # the log may be a line still being written).
            outcome = run_emulator(
                cmd, timeout, done=lambda: any(line.startswith(build.ready)
                                               for line in read_serial(log)[:-1]))
            lines = read_serial(log)
            problem = loaded_boot_problem(build, smp, lines, outcome, timeout)
            if problem:
                raise Failure(f"boot {boot} of {boots}: {problem}",
                              [line for line in lines if line][-25:])
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


NO_APIC = "no local APIC on this CPU: tables not read"
# The boot CPU's APIC, set up where more than one CPU is to be used, in
# two parts around the rate (QEMU's 1 GHz APIC clock / 16, about 62500
# kHz as the PIT measures it, a few per cent less on a busy host) and the
# count it gives a tick; test_apic checks the rate.
APIC_LINES = ["apic: local APIC id 0 version 0x14 at fee00000, timer ",
              " kHz (bus/16, calibrated against the PIT), scheduler tick from the APIC timer "
              "(count "]


def native_tests():
    return [
        Test("native-cpu-tables", check_native_tests, (CPU_TABLES_TEST,)),
        Test("native-cpu-tables-fuzz", check_cpu_tables_fuzz),
    ]


def qemu_tests():
    return [
        smp_test("smp-1-y", 1, 1),
        smp_test("smp-2-y", 2, 2, said=APIC_LINES),
        smp_test("smp-4-y", 4, 4, said=APIC_LINES),
        smp_test("smp-4-n", 4, 4, build=N, said=APIC_LINES),
        # Not APIC_LINES: the rate measured with eight vCPU threads on a
        # loaded host can fall below "6..." (seen: 52322 kHz).
        smp_test("smp-8-y", 8, 8),
        smp_test("smp-nosmp-y", 4, 4, append="nosmp", to_use=1, cap="nosmp"),
        smp_test("smp-cap-y", 4, 4, append="smp=9 smp=0 smp=2", to_use=2, cap="smp=2",
                 said=[f"cmdline: bad value '{v}' for 'smp' ignored (use at most N CPUs (1-8))$"
                       for v in (9, 0)]),
        # SeaBIOS (QEMU 7.2) lists only the boot CPU in its MP table.
        smp_test("smp-mp-table-y", 2, 1, extra=["-no-acpi"], source="MP table"),
        smp_test("smp-left-out-y", 4, 4, append="test=apic2_never_answers", left_out=(2,)),
        smp_ktest("smp-ktest-4-y", 4),
        smp_ktest("smp-ktest-8-n", 8, build=N, skip=5, scenario="smpboot_apic5_never_answers"),
        smp_ktest("smp-ktest-late-4-y", 4, skip=2, scenario="smpboot_apic2_answers_late",
                  late=True),
        Test("smp-8-loaded-n", check_boots_under_load, (N, 8)),
        Test("smp-486-y", shell_dialogue, (Y, [
            ("cpus", [f"cpus: 1 ({NO_APIC})$", "  cpu 0: boot, no APIC, running$"])]),
             {"cpu": "486",
              "in_log": [f"smp: 1 CPU ({NO_APIC}); using 1$",
                         f"{Y.ready} cpu=GenuineIntel family 4 model 8 (i486 class) cpus=1$"]}),
        Test("ktest-smp-2-y", qemu_ktest, (Y, "qemu32"),
             {"append": "test pv=trace nopatch", "extra": ["-smp", "2"],
              "expect": ["pv386 ready: backend=trace ", "op coverage: 57/57",
                         "ktest: PASS apic_id_matches_cpuid", "ktest: PASS apic_self_ipi",
                         "ktest: PASS apic_timer_ticks_at_hz", "ktest: PASS apic_ops_counted"]}),
        # Two CPUs in the PARAVIRT=n kernel, a QEMU thread each: the
        # inline instructions under true parallelism (the 4-CPU rows run
        # in one thread, see SMP_SUITE_MACHINE).
        Test("ktest-smp-2-n", qemu_ktest, (N, "qemu32"),
             {"append": "test", "extra": ["-smp", "2"],
              "expect": [s.replace("smp: 4", "smp: 2") for s in SMP_SUITE_SAYS
                         if "pv_switch" not in s],
              "timeout": SMP_SUITE_TIMEOUT}),
        Test("ktest-smp-4-y", qemu_ktest, (Y, "qemu32"),
             {"append": "test", "extra": SMP_SUITE_MACHINE, "expect": SMP_SUITE_SAYS,
              "timeout": SMP_SUITE_TIMEOUT}),
        Test("ktest-smp-4-n", qemu_ktest, (N, "qemu32"),
             {"append": "test", "extra": SMP_SUITE_MACHINE,
              "expect": [s for s in SMP_SUITE_SAYS if "pv_switch" not in s],
              "timeout": SMP_SUITE_TIMEOUT}),
        Test("ktest-smp-4-y-fpu=eager", qemu_ktest, (Y, "qemu32"),
             {"append": "test fpu=eager", "extra": SMP_SUITE_MACHINE,
              "expect": SMP_SUITE_SAYS + [FPU_LINES["fpu=eager"]],
              "timeout": SMP_SUITE_TIMEOUT}),
    ]
