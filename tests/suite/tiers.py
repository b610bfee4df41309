"""tests/suite/tiers.py - which rows `make test` runs (fast) and which only `make check` (slow).

`make test` is what a developer runs after every change: the fast tier,
every area's fastest faithful row, a few minutes on two cores, builds
included (docs/tests.md has the measured times).  `make check` runs
both tiers and tests/matrix; CI runs it (.ci/run).  A row is slow
because of what it must do (Bochs interprets every instruction, a
fuzzer needs time to find anything, a session types with pauses), not
because it is less important: a slow row still runs in every `make
check`, and a change to its area is checked by `tests/run -k` with its
name.

FAST names the fast rows, an area at a time; every other row of
tests/run is slow, and must match a pattern of SLOW, which says why
(tests/run --list prints it; a slow row with no reason is refused).
"""

import re

# Every area's fastest faithful row (the table of docs/tests.md).
FAST = (
    # the built files and the suite itself: no emulator
    "suite-names", "multiboot-y", "multiboot-n", "symbols-y", "symbols-n",
    "audit-y", "audit-selftest", "audit-sites-y", "audit-sites-selftest",
    "audit-natives-y", "audit-calls",
    # the emulator rows' limits: a hang is still caught
    "hang-caught",
    # the native tests, and the fuzzers for their short fixed budgets
    "native-patch-engine", "native-multiboot", "native-multiboot-fuzz", "native-guest-check",
    "native-guest-check-fuzz", "native-shadow-frames", "native-cpu-tables",
    "native-cpu-tables-fuzz", "native-rom", "native-rom-fuzz",
    # the judge of DOSBox's known gaps, and make bench's reading of its
    # counting lines, on made-up runs
    "dosbox-gaps-selftest", "bench-parse-selftest",
    # the docs checks that need no bench: every source filled, README
    "docs-source-y", "readme",
    # the in-kernel suite on QEMU: both builds, all patch modes, a 486, cpu=386
    "ktest-qemu-y-qemu32", "ktest-qemu-y-qemu32-nopatch", "ktest-qemu-y-qemu32-pvdebug",
    "ktest-qemu-n-qemu32", "ktest-qemu-y-486", "ktest-qemu-y-qemu32-cpu=386",
    # a boot through GRUB to the ready line; boot options (a guest's
    # cures' too, which make bench relies on); user programs with the
    # least RAM; the system-call fuzzer's short run; the bench's suites run
    "boot-qemu-y", "cmdline-qemu-y", "cmdline-cures-off-y", "mem-4mib-y", "sysfuzz-y",
    "bench-runs-y",
    # the shell, over COM1
    "shell-general-y",
    # the trace backend, the ops ROM, the kernel hosting itself
    "trace-ktest-qemu-y-qemu32", "ktest-qemu-y-qemu32-rom", "guest-ktest-y",
    # more than one CPU: two booted, and the whole suite on four
    "smp-2-y", "ktest-smp-4-y",
)

# Why each slow row is slow: (pattern, reason), the first that matches.
SLOW = (
    (r"^(ktest|boot|loader|guest|guest-fuzz)-bochs-|^ktest-bochs-rom-|^loader-bochs-",
     "Bochs interprets every instruction: a suite takes 45-180 s"),
    (r"^guest-fuzz-", "a fuzzer: it runs for a fixed time to find anything"),
    (r"^v86-gaps-selftest$", "boots each case gaps/v86.py leaves out in v86, under Node"),
    (r"^(loader-dosbox|v86-|dosbox-)", "DOSBox or v86: emulators many times slower than QEMU"),
    (r"^web-", "Chromium and the page's v86: the browser starts for each check"),
    (r"^docs-y$", "needs `make docs`, whose bench figures boot the kernels many times "
     "(docs-source-y checks the rest in the fast tier)"),
    (r"^bench-runs-", "runs tools/bench's suites of timed boots"),
    (r"^sysfuzz-", "the system-call fuzzer's long runs: 200,000 calls, more CPUs"),
    (r"^native-check-mutants$", "builds and runs the native tests once per deleted clause"),
    (r"^audit-(natives|calls)-selftest$",
     "plants each fault in a copy of the kernels or the source, and audits each copy"),
    (r"^(hammer|shootdown-typing|tlb-)", "SMP stress: many CPUs, many switches or shootdowns"),
    (r"^session-", "a whole student's session, typed step by step, with GRUB's menu"),
    (r"^(smp|ktest-smp|rom-smp|rom-minor-0-smp|guest-smp)-",
     "more CPUs, each a QEMU thread sharing two cores; the fast tier keeps -smp 2 and 4"),
    (r"^trace-switch-stress", "switches the backend thousands of times"),
    (r"^(shell|trace|rom|guest|ktest-qemu|ktest-smp|op-coverage|cmdline|nofpu|vm86|nomem|"
     r"mem|user|module|loader|boot|bad|dirty|panic|ktest-grub|rom|trace-boot)",
     "another machine, build or option for an area the fast tier already covers"),
)


def tier_of(name):
    """(tier, why) of a row of tests/run: ("fast", "") or ("slow", reason)."""
    if name in FAST:
        return "fast", ""
    for pattern, why in SLOW:
        if re.search(pattern, name):
            return "slow", why
    raise ValueError(f"{name}: a slow row with no reason in tiers.SLOW")


def check(tests):
    """Every FAST name is a row, and every row has a tier."""
    names = {t.name for t in tests}
    unknown = [name for name in FAST if name not in names]
    if unknown:
        raise ValueError(f"tiers.FAST names no row: {', '.join(unknown)}")
    for name in names:
        tier_of(name)
