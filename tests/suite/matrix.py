"""tests/suite/matrix.py - the rows of tests/matrix: every machine pv386 claims.

Where `make test` runs the suite on a few machines chosen to cover the
code, tests/matrix runs it on every machine pv386 claims to run on: the
CPU models of QEMU and Bochs, amounts of RAM from 4 MiB to 3.5 GiB, a
second CPU (which takes tasks too), the loaders (GRUB from an ISO, GRUB
from the same image as a hard disk, QEMU -kernel, pv386's own floppy
and disk, also in DOSBox's 386, 486 and Pentium) and each older
generation forced with cpu=.  Each row is a whole in-kernel suite that
must end in `ktest: N passed, 0 failed` - in DOSBox, with failures
exactly where gaps/dosbox.py says DOSBox is not a real CPU; the checks
are tests/run's (ktest.py, loader.py, dosbox.py), reused.

A row is (loader, machine, Test); the table printed after the rows
sets loader and machine against each result.

A row that runs what a row of tests/run already runs - the same check,
emulator, image and options (same_run) - is not run twice: it takes that
row's result from harness/history.py, when that result is newer than the
builds (as `make check` runs tests/run first), and runs that row's
check itself otherwise.  The tests/run row's checks are the matrix
row's and more (its `expect` lines, a superset).
"""

import functools
import glob
import inspect
import os

from .gaps import dosbox as dosbox_gaps
from .harness import history
from .builds import N, Y
from .dosbox import dosbox_ktest
from .harness import Failure, Test
from .ktest import bochs_ktest, qemu_ktest
from .loader import (FLOPPY_GEOMETRY, TEST_DISK, TEST_FLOPPY, loader_bochs_ktest,
                     loader_ktest)


def row_name(loader, machine):
    """The name a row must have, from its loader and machine."""
    return "matrix-" + "-".join(f"{loader} {machine}".replace("=", "").split())


def row(name, loader, machine, function, *args, **kwargs):
    """A matrix row: (loader, machine, Test).  Its name is written out
    whole so that grep finds it; this keeps it the one its columns make."""
    if name != row_name(loader, machine):
        raise ValueError(f"matrix row {name} is {row_name(loader, machine)}")
    return loader, machine, Test(name, function, args, kwargs)


# QEMU's CPU models, in both builds: (y name, n name, -cpu model).
QEMU_CPUS = [
    ("matrix-qemu--kernel-(y)-qemu-486", "matrix-qemu--kernel-(n)-qemu-486", "486"),
    ("matrix-qemu--kernel-(y)-qemu-pentium", "matrix-qemu--kernel-(n)-qemu-pentium",
     "pentium"),
    ("matrix-qemu--kernel-(y)-qemu-pentium2", "matrix-qemu--kernel-(n)-qemu-pentium2",
     "pentium2"),
    ("matrix-qemu--kernel-(y)-qemu-pentium3", "matrix-qemu--kernel-(n)-qemu-pentium3",
     "pentium3"),
    ("matrix-qemu--kernel-(y)-qemu-qemu32", "matrix-qemu--kernel-(n)-qemu-qemu32",
     "qemu32"),
    ("matrix-qemu--kernel-(y)-qemu-coreduo", "matrix-qemu--kernel-(n)-qemu-coreduo",
     "coreduo"),
    ("matrix-qemu--kernel-(y)-qemu-core2duo", "matrix-qemu--kernel-(n)-qemu-core2duo",
     "core2duo"),
    ("matrix-qemu--kernel-(y)-qemu-athlon", "matrix-qemu--kernel-(n)-qemu-athlon",
     "athlon"),
    ("matrix-qemu--kernel-(y)-qemu-n270", "matrix-qemu--kernel-(n)-qemu-n270", "n270"),
    ("matrix-qemu--kernel-(y)-qemu-max", "matrix-qemu--kernel-(n)-qemu-max", "max"),
]
# Bochs's CPU models, from the GRUB test ISO.
BOCHS_CPUS = [
    ("matrix-GRUB-ISO-bochs-pentium", "pentium"),
    ("matrix-GRUB-ISO-bochs-amd_k6_2_chomper", "amd_k6_2_chomper"),
    ("matrix-GRUB-ISO-bochs-p2_klamath", "p2_klamath"),
    ("matrix-GRUB-ISO-bochs-p3_katmai", "p3_katmai"),
    ("matrix-GRUB-ISO-bochs-core2_penryn_t9600", "core2_penryn_t9600"),
]
MEMORY_MIB = [
    ("matrix-qemu--kernel-(y)-qemu32-4-MiB", 4),
    ("matrix-qemu--kernel-(y)-qemu32-16-MiB", 16),
    ("matrix-qemu--kernel-(y)-qemu32-255-MiB", 255),
    ("matrix-qemu--kernel-(y)-qemu32-1024-MiB", 1024),
    ("matrix-qemu--kernel-(y)-qemu32-3584-MiB", 3584),
]
# DOSBox's CPUs, booted from pv386's floppy: the whole suite, which must
# fail exactly where gaps/dosbox.py says DOSBox is not a real CPU.  One
# row for each of gaps/dosbox.py's CONFIGS.
DOSBOX_CONFIGS = [
    ("matrix-pv386-floppy-dosbox-386", dosbox_gaps.DETECTED_386),
    ("matrix-pv386-floppy-dosbox-386-cpu386", dosbox_gaps.FORCED_386),
    ("matrix-pv386-floppy-dosbox-486_slow", dosbox_gaps.I486),
    ("matrix-pv386-floppy-dosbox-pentium_slow-cpu486", dosbox_gaps.PENTIUM_AS_486),
]
# Each older generation forced with cpu=, in both builds.
FORCED = [
    ("matrix-qemu--kernel-(y)-qemu32-cpu386", "matrix-qemu--kernel-(n)-qemu32-cpu386",
     "cpu=386"),
    ("matrix-qemu--kernel-(y)-qemu32-cpu486", "matrix-qemu--kernel-(n)-qemu32-cpu486",
     "cpu=486"),
    ("matrix-qemu--kernel-(y)-qemu32-cpu586", "matrix-qemu--kernel-(n)-qemu32-cpu586",
     "cpu=586"),
]


def rows():
    if sorted(config for _, config in DOSBOX_CONFIGS) != sorted(dosbox_gaps.CONFIGS):
        raise ValueError("DOSBOX_CONFIGS must have one row for each of gaps/dosbox.py's CONFIGS")
    table = []
    for build, which in ((Y, 0), (N, 1)):
        table += [row(names[which], f"qemu -kernel ({build.paravirt})", f"qemu {cpu}",
                      qemu_ktest, build, cpu) for *names, cpu in QEMU_CPUS]
    table += [row(name, "GRUB ISO", f"bochs {cpu}", bochs_ktest, Y, cpu)
              for name, cpu in BOCHS_CPUS]
    table += [row(name, "qemu -kernel (y)", f"qemu32 {mib} MiB", qemu_ktest,
                  Y, "qemu32", memory=mib) for name, mib in MEMORY_MIB]
    table.append(row("matrix-qemu--kernel-(y)-qemu32--smp-2", "qemu -kernel (y)",
                     "qemu32 -smp 2", qemu_ktest, Y, "qemu32", extra=("-smp", "2")))
    table.append(row("matrix-GRUB-ISO-qemu32", "GRUB ISO", "qemu32", qemu_ktest, Y,
                     "qemu32", boot=["-cdrom", Y.test_iso]))
    # The ISO is hybrid: the same image boots as a hard disk, through its
    # MBR, GRUB again.  snapshot=on: writes go elsewhere, and the image is
    # not locked against the other rows that read it at the same time.
    table.append(row("matrix-GRUB-hard-disk-qemu32", "GRUB hard disk", "qemu32",
                     qemu_ktest, Y, "qemu32",
                     boot=["-drive", f"file={Y.test_iso},format=raw,if=ide,snapshot=on"]))
    table.append(row("matrix-pv386-floppy-qemu32", "pv386 floppy", "qemu32", loader_ktest,
                     TEST_FLOPPY, [FLOPPY_GEOMETRY]))
    table.append(row("matrix-pv386-disk-qemu32", "pv386 disk", "qemu32", loader_ktest,
                     TEST_DISK, []))
    table.append(row("matrix-pv386-floppy-bochs-pentium", "pv386 floppy", "bochs pentium",
                     loader_bochs_ktest, "pentium", [FLOPPY_GEOMETRY]))
    table += [row(name, "pv386 floppy", f"dosbox {config}", dosbox_ktest, config)
              for name, config in DOSBOX_CONFIGS]
    for build, which in ((Y, 0), (N, 1)):
        table += [row(names[which], f"qemu -kernel ({build.paravirt})", f"qemu32 {mode}",
                      qemu_ktest, build, "qemu32", append=f"test {mode}")
                  for *names, mode in FORCED]
    return table


# Which arguments make a configuration: not the lines a run must print
# (expect: the checks, compared apart) nor how long it may be silent.
NOT_CONFIGURATION = ("log", "expect", "timeout")


def configuration(test):
    """What test runs, as comparable values: its function and every
    argument but NOT_CONFIGURATION (defaults filled in), and its expect
    lines apart; None if its function does not take them so."""
    try:
        bound = inspect.signature(test.function).bind(test.log, *test.args, **test.kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    frozen = tuple((k, tuple(v) if isinstance(v, list) else v)
                   for k, v in bound.arguments.items() if k not in NOT_CONFIGURATION)
    return (test.function, frozen), set(bound.arguments.get("expect", ()) or ())


def same_run(test, run_tests):
    """The tests/run row that runs test's configuration with at least its
    checks, or None."""
    mine = configuration(test)
    if mine is None:
        return None
    for other in run_tests:
        theirs = configuration(other)
        if theirs and theirs[0] == mine[0] and theirs[1] >= mine[1]:
            return other
    return None


# What the builds made: a tests/run result older than any of them is
# not this build's.
BUILT = ["build/pv386.elf", "build/nopv/pv386.elf", "build/pvrom.bin",
         "build/*.iso", "build/nopv/*.iso", "build/*.img"]


def built_at():
    paths = [p for pattern in BUILT for p in glob.glob(pattern)]
    return max((os.path.getmtime(p) for p in paths), default=0)


def reuse(log, run_test):
    """The result tests/run's run_test had on this build; run_test's
    check, here, if it has none."""
    entry = history.read().get(run_test.name)
    if entry is None or entry["finished"] - entry["seconds"] < built_at():
        run_test.function(log, *run_test.args, **run_test.kwargs)
        return
    with open(log, "w") as f:
        f.write(f"the same run as tests/run's {run_test.name}, which "
                f"{'passed' if entry['passed'] else 'failed'} on this build: "
                f"its log is {run_test.log}\n")
    if not entry["passed"]:
        raise Failure(f"as tests/run's {run_test.name}: {entry['reason']}",
                      [f"log: {run_test.log}"])


def tests():
    from .table import all_tests     # table lists this module's tests too
    run_tests = all_tests()
    table = []
    for _, _, test in rows():
        same = same_run(test, run_tests)
        table.append(Test(test.name, reuse, (same,)) if same else test)
    return table


@functools.lru_cache(maxsize=None)
def reused():
    """{matrix row name: the tests/run row whose result it takes}."""
    return {t.name: t.args[0].name for t in tests() if t.function is reuse}


def tier_of(name):
    """For --list: every row is of tests/matrix's own tier, and one that
    reuses a tests/run row says which."""
    same = reused().get(name)
    return "matrix", (f"the result of tests/run's {same}" if same else "")


def print_table(results):
    """Loader and machine against each result, after the rows' lines."""
    where = {test.name: (loader, machine) for loader, machine, test in rows()}
    cells = [(*where[r.test.name], r.reason) for r in results]
    if not cells:
        return
    width = max(len(loader) for loader, _, _ in cells)
    machine_width = max(len(machine) for _, machine, _ in cells)
    print()
    print(f"{'loader':<{width}}  {'machine':<{machine_width}}  result")
    for loader, machine, reason in cells:
        print(f"{loader:<{width}}  {machine:<{machine_width}}  "
              f"{'pass' if reason is None else 'FAIL: ' + reason}")
