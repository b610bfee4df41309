"""tests/suite/ktest.py - the in-kernel suite (boot option `test`) in QEMU and Bochs.

  ktest-qemu-*     The in-kernel suite under QEMU, on a matrix of builds,
                   CPU models and patcher modes (-nopatch, -pvdebug; none:
                   patched); the kernel must name each CPU model as its
                   emulator defines it.  -fpu=eager: the FPU switched
                   eagerly, as a guest switches it, where the native
                   kernel's own choice is lazy: every FPU test in the
                   other mode, and the boot line says it.  The kernel reports each test on
                   COM1 and leaves QEMU with status 33 (pass) or 35 (fail).
  ktest-bochs-*    The same suite booted from the test ISO in Bochs, whose
                   CPU models are stricter than QEMU's about what an old CPU
                   lacks.

qemu_ktest and bochs_ktest are the runs most other areas build on (a
ROM, a loader, options on the command line), and tests/matrix runs
them on every machine pv386 claims.
"""

from .builds import BUILDS
from .emulators import (KTEST_BOCHS_TIMEOUT, KTEST_QEMU_TIMEOUT, QEMU, QEMU_FAIL,
                        QEMU_MEMORY_MIB, QEMU_PASS, qemu_command, run_bochs,
                        run_emulator, read_serial)
from .harness import Failure, Test, fresh_log, need_file, need_tool
from .judge import ktest_problem, lockdep_problem, log_details, no_line_starting

# In-kernel suite under QEMU: (name, build, -cpu model, patcher mode).
# The models step through the CPU generations the kernel claims to
# support, so code that uses a feature without checking CPUID for it
# shows up as a failure.  The y kernel runs in the patcher's three modes:
# patched (the default), nopatch (every site an indirect call) and
# pvdebug (patched, with the registers each site says it clobbers
# spoiled); the n kernel has no sites at all.  Those are the four modes
# of the suite.
QEMU_KTEST_MATRIX = [
    ("ktest-qemu-y-qemu32", "y", "qemu32", ""),     # QEMU's default: sysenter, PGE, SSE2
    ("ktest-qemu-y-486", "y", "486", ""),           # no TSC, no MSRs, no sysenter, no PGE
    ("ktest-qemu-y-pentium", "y", "pentium", ""),   # TSC and MSRs, still no sysenter or PGE
    ("ktest-qemu-y-pentium3", "y", "pentium3", ""),  # P6: sysenter, PGE, cmov, SSE
    ("ktest-qemu-y-qemu32-nopatch", "y", "qemu32", "nopatch"),
    ("ktest-qemu-y-486-nopatch", "y", "486", "nopatch"),
    # pvdebug: long (0f 1f) NOPs between the poison on qemu32, generic
    # NOPs on a 486.
    ("ktest-qemu-y-qemu32-pvdebug", "y", "qemu32", "pvdebug"),
    ("ktest-qemu-y-486-pvdebug", "y", "486", "pvdebug"),
    # The inline build on both ends of the range.
    ("ktest-qemu-n-qemu32", "n", "qemu32", ""),
    ("ktest-qemu-n-486", "n", "486", ""),
    # cpu=: the CPU made to look older, so the fallbacks of generations
    # no emulator here has (a 386, a 486 without CPUID) run at all.
    ("ktest-qemu-y-qemu32-cpu=386", "y", "qemu32", "cpu=386"),
    ("ktest-qemu-y-qemu32-cpu=386-nopatch", "y", "qemu32", "cpu=386 nopatch"),
    ("ktest-qemu-y-qemu32-cpu=486", "y", "qemu32", "cpu=486"),
    ("ktest-qemu-y-qemu32-cpu=586", "y", "qemu32", "cpu=586"),
    ("ktest-qemu-n-qemu32-cpu=386", "n", "qemu32", "cpu=386"),
    # lockdebug: every spinlock checked (order, holders, sleeps) through
    # the whole suite; a report that no lock-debugger test planted fails
    # the row.
    ("ktest-qemu-y-qemu32-lockdebug", "y", "qemu32", "lockdebug"),
    # fpu=eager: the FPU handed over at each switch, not on #NM, in both
    # builds (a host's guest thread included: the suite starts guests).
    ("ktest-qemu-y-qemu32-fpu=eager", "y", "qemu32", "fpu=eager"),
    ("ktest-qemu-n-qemu32-fpu=eager", "n", "qemu32", "fpu=eager"),
]

# What each emulated CPU model is, by its emulator's definition (QEMU's
# and Bochs's CPU tables), as the kernel's cpu line must report it: a
# check of CPU detection against values that come from outside it.
CPU_LINES = {
    "qemu32": "cpu: GenuineIntel family 6 model 6 stepping 3, "
              "QEMU Virtual CPU version 2.5+",
    "486": "cpu: GenuineIntel family 4 model 8 stepping 0, i486 class",
    "pentium": "cpu: GenuineIntel family 5 model 4 stepping 3, i586 class",
    "pentium3": "cpu: GenuineIntel family 6 model 7 stepping 3, i686 class",
    "p3_katmai": "cpu: GenuineIntel family 6 model 7 stepping 3, i686 class",
}

# What the cpu line says when cpu= makes the CPU look older: a 386 or a
# 486 without CPUID cannot name a vendor or model, a Pentium keeps its
# vendor but no model.
FORCED_CPU_LINES = {
    "cpu=386": "cpu: unknown family 3 model 0 stepping 0, i386 class, forced by cpu=",
    "cpu=486": "cpu: unknown family 4 model 0 stepping 0, i486 class, forced by cpu=",
    "cpu=586": "cpu: GenuineIntel family 5 model 0 stepping 0, i586 class, forced by cpu=",
}


def expected_cpu_line(cpu, mode):
    """The cpu line a boot on model cpu with options mode must print."""
    forced = [w for w in mode.split() if w.startswith("cpu=")]
    return FORCED_CPU_LINES[forced[0]] if forced else CPU_LINES[cpu]


# The fpu line of a boot whose fpu= chose the mode (arch/x86/kernel/fpu.c),
# on a CPU with FXSR (every QEMU_KTEST_MATRIX model that has fpu=).
FPU_LINES = {
    "fpu=eager": "fpu: present, switched eagerly with fxsave/fxrstor (fpu=eager)$",
    "fpu=lazy": "fpu: present, switched lazily with fxsave/fxrstor (fpu=lazy)$",
}


def expected_lines(cpu, mode):
    """The lines a boot on model cpu with options mode must print."""
    return [expected_cpu_line(cpu, mode)] + [FPU_LINES[w] for w in mode.split()
                                             if w in FPU_LINES]


# In-kernel suite under Bochs, booted by GRUB from the test ISO:
# (name, build, Bochs cpu model).
BOCHS_KTEST_MATRIX = [
    ("ktest-bochs-y-pentium", "y", "pentium"),      # a P5: no sysenter, no long NOPs
    ("ktest-bochs-y-p3_katmai", "y", "p3_katmai"),  # a P6 with sysenter
    ("ktest-bochs-n-p3_katmai", "n", "p3_katmai"),
]

# Bochs's RAM for the suite: the least with which it skips no more tests
# than with QEMU's 64 MiB (at 16 MiB the guest quota test finds no room
# for its 16 MiB guest).  Less RAM is less for the out-of-memory tests
# to fill, page by page, in an emulator that interprets every instruction.
BOCHS_KTEST_MEMORY_MIB = 32

# Bochs 2.7 sets no hypervisor bit in CPUID.1:ECX (QEMU's TCG does: the
# shell-general tests check its signature).
BOCHS_HYPERVISOR_LINE = "cpu: hypervisor: none (CPUID.1:ECX bit 31 clear)$"


def qemu_ktest(log, build, cpu, append="test", expect=(), memory=QEMU_MEMORY_MIB,
               boot=None, extra=(), timeout=KTEST_QEMU_TIMEOUT):
    """Boot the ELF directly with the given options (or from boot, e.g.
    a test ISO, whose loader passes `test` itself) and judge the run
    (given timeout seconds: more for a machine of several CPUs, whose
    QEMU threads share the host's cores with the other tests)."""
    need_tool(QEMU, "qemu")
    need_file(build.elf, build.make("all"))
    fresh_log(log)
    boot = boot or ["-kernel", build.elf, "-append", append]
    cmd = qemu_command(log, cpu, [*boot, *extra], memory)
    judge_qemu_ktest(log, cmd, expect, timeout=timeout)


def judge_qemu_ktest(log, cmd, expect=(), outcome=None, timeout=KTEST_QEMU_TIMEOUT):
    """Run the in-kernel suite with QEMU command cmd (unless outcome says
    how a run already ended) and judge the run: a pass status, a clean
    suite, and a line starting with each of expect."""
    if outcome is None:
        outcome = run_emulator(cmd, timeout)
    lines = read_serial(log)

    if outcome.timed_out:
        problem = outcome.why
    elif outcome.status not in (QEMU_PASS, QEMU_FAIL):
        problem = (f"QEMU exited with status {outcome.status}, which the kernel "
                   f"never asks for (it uses {QEMU_PASS} and {QEMU_FAIL})")
    else:
        problem = ktest_problem(lines)
    if problem is None and "lockdebug" in cmd_append(cmd):
        problem = lockdep_problem(lines)
    if problem is None and outcome.status != QEMU_PASS:
        problem = f"QEMU exit status {outcome.status}, expected {QEMU_PASS}"
    if problem is None:
        problem = no_line_starting(lines, expect)
    if problem:
        raise Failure(problem, log_details(log, lines, outcome.output))


def cmd_append(cmd):
    """The kernel command line a QEMU command passes (-append), or ""."""
    return next((cmd[i + 1] for i, arg in enumerate(cmd[:-1]) if arg == "-append"), "")


def bochs_ktest(log, build, cpu, expect=(), iso=None):
    iso = iso or build.test_iso
    need_file(iso, build.make("iso"))
    outcome, problem = run_bochs(log, iso, cpu, KTEST_BOCHS_TIMEOUT,
                                 memory=BOCHS_KTEST_MEMORY_MIB)
    lines = read_serial(log)
    problem = problem or ktest_problem(lines)
    if problem is None:
        problem = no_line_starting(lines, expect)
    if problem:
        raise Failure(problem, log_details(log, lines, outcome.output))


def qemu_row_name(build, cpu, mode):
    """The name a QEMU_KTEST_MATRIX row must have, from what it runs."""
    return "-".join(filter(None, ["ktest-qemu", build, cpu, *mode.split()]))


def qemu_tests():
    for name, b, cpu, mode in QEMU_KTEST_MATRIX:
        # Written out whole so that grep finds each; this keeps them true.
        if name != qemu_row_name(b, cpu, mode):
            raise ValueError(f"QEMU_KTEST_MATRIX: {name} runs "
                             f"{qemu_row_name(b, cpu, mode)}")
    return [Test(name, qemu_ktest, (BUILDS[b], cpu),
                 {"append": f"test {mode}".strip(),
                  "expect": expected_lines(cpu, mode)})
            for name, b, cpu, mode in QEMU_KTEST_MATRIX]


def bochs_tests():
    return [Test(name, bochs_ktest, (BUILDS[b], cpu),
                 {"expect": [CPU_LINES[cpu], BOCHS_HYPERVISOR_LINE]})
            for name, b, cpu in BOCHS_KTEST_MATRIX]
