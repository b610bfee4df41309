"""tests/suite/bench.py - the `bench` boot option runs to its end.

  bench-runs-*     The `bench` boot option prints every figure make bench
                   reads (no figure is judged here), for every path of
                   tools/bench's PATHS.
  bench-runs-y-trace  The same under the trace backend (`bench pv=trace`,
                   make bench's padding run), with the padding of every
                   op, workload and path.
  bench-runs-guest-y  The same in a guest (`guest=bench guestexit`), with
                   the exits and hypercalls of each path it has, their
                   totals, and the names of the host's counts by reason.
  bench-runs-smp-* `bench benchsmp` (kernel/bench_smp.c) on QEMU -smp 4
                   under -icount, as make bench boots it: every figure of
                   more than one CPU is printed (the TSC check, the IPI's
                   round trip, the parallel workload, the lock taken on
                   every CPU, whose count the kernel checks is exact).
"""

import ast
import os
import re

from .builds import N, Y
from .emulators import (KTEST_QEMU_TIMEOUT, QEMU, QEMU_PASS, qemu_command, read_serial,
                        run_emulator)
from .harness import ROOT, Failure, Test, fresh_log, need_file, need_tool
from .judge import log_details, missing_lines

BENCH_OPS = ("irq_disable", "irq_enable", "save_fl", "restore_fl",
             "save_fl_irq_disable", "read_cr0", "read_cr2", "read_cr3",
             "write_cr3", "write_cr0", "clts", "read_tsc", "spin_lock_unlock",
             "iret")


def bench_paths():
    """The paths timed from ring 3 by user/bench_*.c (a count, or "absent"
    where the CPU cannot take the path: sysenter without SEP): make bench's
    own list, tools/bench's PATHS, so that a path added there is checked
    here too."""
    with open(os.path.join(ROOT, "tools/bench")) as f:
        m = re.search(r"^PATHS = (\[[^\]]*\])", f.read(), re.M)
    if not m:
        raise Failure("tools/bench has no PATHS list")
    return tuple(ast.literal_eval(m.group(1)))


# A guest has no sysenter (it enters its kernel at ring 1 by int $0x80).
NOT_IN_GUEST = ("syscall_sysenter",)


def bench_runs(log, build, append, guest=False, padding=False):
    """The `bench` option (make bench) works: every figure is printed and
    the kernel leaves QEMU with a pass; in a guest, each of its paths
    with the host's counts too; under the trace backend, the padding of
    every figure.  No figure is judged: timing is for make bench, not
    for tests."""
    need_tool(QEMU, "qemu")
    need_file(build.elf, build.make("all"))
    fresh_log(log)
    paths = bench_paths()
    guest_paths = [p for p in paths if p not in NOT_IN_GUEST]
    boot = ["-kernel", build.elf, "-append", append]
    cmd = qemu_command(log, "qemu32", boot + (["-initrd", build.elf] if guest else []))
    outcome = run_emulator(cmd, KTEST_QEMU_TIMEOUT)
    lines = read_serial(log)
    expect = [f"bench: op {op} " for op in BENCH_OPS] + [
        "bench: workload hotpath ", "bench: workload kernel "] + [
        f"bench: path {path} " for path in paths] + ["bench: done"]
    if padding:
        expect += [f"bench: padding op {op} " for op in BENCH_OPS] + [
            "bench: padding workload hotpath ", "bench: padding workload kernel "] + [
            f"bench: padding path {path} " for path in paths]
    if guest:
        expect = [f"guest: {line}" for line in expect] + [
            f"guest: bench: exits {path} " for path in guest_paths] + [
            f"guest: bench: host totals {path} " for path in guest_paths] + [
            "guest: bench: host count name 0 hypercall "]
    missing = missing_lines(lines, expect)
    if outcome.status != QEMU_PASS or missing:
        raise Failure(f"QEMU status {outcome.status}; missing: {missing}",
                      log_details(log, lines, outcome.output))


# kernel/bench_smp.c's "bench: smp NAME COUNT" lines on more than one CPU.
BENCH_SMP = ("cpus", "tsc_own_loop", "tsc_while_another_loops", "ipi_round_trip",
             "workload_copies", "workload_total", "workload_per_cpu", "workload_contended",
             "lock_total",
             "lock_takes", "lock_contended")


def bench_smp_runs(log, build):
    """`bench benchsmp` on four CPUs under -icount (tools/bench's
    smp_figures): every figure printed, the kernel passing."""
    need_tool(QEMU, "qemu")
    need_file(build.elf, build.make("all"))
    fresh_log(log)
    cmd = qemu_command(log, "qemu32", ["-kernel", build.elf, "-append", "bench benchsmp",
                                       "-icount", "shift=0", "-smp", "4"])
    outcome = run_emulator(cmd, KTEST_QEMU_TIMEOUT)
    lines = read_serial(log)
    missing = missing_lines(lines, [f"bench: smp {name} " for name in BENCH_SMP] +
                            ["bench: smp done"])
    if outcome.status != QEMU_PASS or missing:
        raise Failure(f"QEMU status {outcome.status}; missing: {missing}",
                      log_details(log, lines, outcome.output))


def tests():
    return [Test("bench-runs-y", bench_runs, (Y, "bench")),
            Test("bench-runs-y-nopatch", bench_runs, (Y, "bench nopatch")),
            Test("bench-runs-y-trace", bench_runs, (Y, "bench pv=trace"), {"padding": True}),
            Test("bench-runs-n", bench_runs, (N, "bench")),
            Test("bench-runs-guest-y", bench_runs, (Y, "guest=bench guestexit"),
                 {"guest": True}),
            Test("bench-runs-smp-y", bench_smp_runs, (Y,)),
            Test("bench-runs-smp-n", bench_smp_runs, (N,))]
