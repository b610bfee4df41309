"""tests/suite/judge.py - reading a serial log for a verdict.

The kernel reports on COM1 in lines meant for machines as much as for
people: `ktest: PASS|FAIL|SKIP name`, indented `ktest:   ` lines for a
failed check, `ktest: running X of N tests (A only when named)`, the
final `ktest: N passed, M failed`, `pv386 ready: backend=...` after a
plain boot, `KERNEL PANIC` when it dies.  The functions here turn those
lines into the reason a run did not pass (None when it did), and a
failed run into detail lines for the report.
"""

import re

from .harness import last_lines

MAX_FAILED_CHECK_LINES = 40

SUMMARY = re.compile(r"^ktest: (\d+) passed, (\d+) failed$")


def panic_line(lines):
    return next((line for line in lines if "KERNEL PANIC" in line), None)


def ktest_problem(lines):
    """Why the in-kernel run in lines did not pass, or None if it did."""
    text = [line for line in lines if line.strip()]
    if not text:
        return "the serial log is empty: the kernel printed nothing"
    panic = panic_line(text)
    if panic:
        return panic.strip()
    failed = [line.split(None, 2)[2] for line in text
              if line.startswith("ktest: FAIL ")]
    if failed:
        return f"{len(failed)} in-kernel test(s) failed: {', '.join(failed)}"
    summary = SUMMARY.match(text[-1])
    if not summary:
        if any(SUMMARY.match(line) for line in text):
            return "the log goes on after the 'ktest: N passed, M failed' line"
        return "no final 'ktest: N passed, M failed' line: the run did not finish"
    passed, failed_count = int(summary.group(1)), int(summary.group(2))
    if failed_count:
        return f"the kernel reports {failed_count} failed"
    if passed < 1:
        return "no in-kernel test ran and passed (need at least 1)"
    # A cross-check on the report itself: one PASS line per passed test.
    pass_lines = sum(line.startswith("ktest: PASS ") for line in text)
    if pass_lines != passed:
        return f"the summary says {passed} passed, but {pass_lines} PASS lines were printed"
    return count_problem(text)


RUNNING = re.compile(r"^ktest: running (\d+) of (\d+) tests "
                     r"\((\d+) only when named\)( matching .*)?$")


def count_problem(text):
    """Every chosen test must report PASS, FAIL or SKIP, and an unfiltered
    run must choose them all but those that run only when named
    (KTEST_ALONE): no test may vanish without a line."""
    running = next((RUNNING.match(line) for line in text if RUNNING.match(line)), None)
    if not running:
        return "no 'ktest: running X of N tests (A only when named)' line"
    chosen, total, alone = (int(running.group(i)) for i in (1, 2, 3))
    filtered = running.group(4)
    reported = sum(line.startswith(("ktest: PASS ", "ktest: FAIL ", "ktest: SKIP "))
                   for line in text)
    if reported != chosen:
        return f"{chosen} tests were chosen but {reported} reported a result"
    if not filtered and chosen + alone != total:
        return (f"an unfiltered run chose {chosen} of {total} tests, "
                f"{alone} of them to run only when named")
    return None


def missing_lines(lines, prefixes):
    """The prefixes no line starts with; one ending in $ must be a whole
    line."""
    def found(p):
        if p.endswith("$"):
            return any(line.rstrip() == p[:-1] for line in lines)
        return any(line.startswith(p) for line in lines)
    return [p for p in prefixes if not found(p)]


def boot_problem(lines, build):
    """Why a normal boot in lines did not reach the right ready line, or
    None if it did."""
    for line in lines:
        if "KERNEL PANIC" in line or line.startswith("trap:"):
            return f"before the ready line: {line.strip()}"
        if line.startswith("pv386 ready:"):
            if line.startswith(build.ready):
                return None
            return f"wrong backend: {line!r} does not start with {build.ready!r}"
    return "no 'pv386 ready:' line"


def line_has(line, expected):
    """expected is part of line; with a final $, the whole line."""
    if expected.endswith("$"):
        return line.rstrip() == expected[:-1]
    return expected in line


def log_details(log, lines, emulator_output=""):
    """Detail lines for a failed emulator run: what the emulator said,
    which in-kernel checks failed, and how the serial log ends."""
    details = []
    # QEMU reports the SIGTERM we sent it; that is no news to the reader.
    said = "\n".join(line for line in emulator_output.splitlines()
                     if "terminating on signal" not in line)
    if said.strip():
        details.append("emulator output:")
        details += ["  " + line for line in last_lines(said)]
    failed_checks = [line for line in lines
                     if line.startswith(("ktest:   ", "ktest: FAIL"))]
    if failed_checks:
        details.append("failed in-kernel checks:")
        details += ["  " + line for line in failed_checks[:MAX_FAILED_CHECK_LINES]]
    tail = last_lines("\n".join(lines))
    if tail:
        details.append(f"last {len(tail)} lines of {log}:")
        details += ["  " + line for line in tail]
    else:
        details.append(f"{log} is empty: the kernel printed nothing")
    return details



def no_line_starting(lines, prefixes):
    """'no line starting ...' naming the prefixes no line starts with (see
    missing_lines), or None if every one is there."""
    missing = missing_lines(lines, prefixes)
    if not missing:
        return None
    return "no line starting " + ", ".join(repr(p) for p in missing)


# The in-kernel tests whose `lockdep:` reports are what they check: the
# planted lock bugs (tests/kernel/test_lockdep.c) and the probes of which
# lock each subsystem takes (tests/kernel/test_locks.c).
PLANTED_LOCKDEP_TESTS = ("lockdep_", "locks_probe_")


def stray_lockdep_reports(lines):
    """The `lockdep:` report lines of a run booted with `lockdebug` that
    no lock-debugger test planted: each in-kernel test's lines come
    before its `ktest: PASS|FAIL|SKIP name` line, so a report belongs to
    the next such line, and only tests named lockdep_* or locks_probe_* may have one.
    Reports after the last test line (none planted them) are stray too."""
    stray, pending = [], []
    for line in lines:
        if line.startswith("lockdep:"):
            pending.append(line.rstrip())
            continue
        verdict = re.match(r"^ktest: (PASS|FAIL|SKIP) (\S+)", line)
        if verdict:
            if not verdict.group(2).startswith(PLANTED_LOCKDEP_TESTS):
                stray += pending
            pending = []
    return stray + pending


def lockdep_problem(lines):
    """Why a `lockdebug` run is not clean (the first stray report), or
    None."""
    stray = stray_lockdep_reports(lines)
    if not stray:
        return None
    return f"{len(stray)} lockdep report(s) no test planted, the first: {stray[0]}"
