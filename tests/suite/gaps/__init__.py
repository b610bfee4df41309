"""tests/suite/gaps - where an emulator is not the CPU it emulates, and the
judge of the in-kernel suite's runs on it.  No test is here: the areas
that run those emulators use it (dosbox.py, v86.py, matrix.py's DOSBox
rows, web.py's check of the page's left-out tests), and tools/docs-fill
writes docs/tests.md's "Emulator limits" from it.

DOSBox and v86 each run the whole in-kernel suite, and each fails some
of its checks where the emulator, not the kernel, is wrong.  Each
emulator's module writes its differences down once, as Gaps (what
differs, where it shows, which failed checks it explains) and the tests
the kernel must leave out (notest=) because they stop the emulator
itself:

  dosbox     DOSBox's gaps and left-out tests, and its configurations
  v86        v86's, its two runs (the host's suite, the guest's), and
             the panic each left-out case stops v86 with

What both need, the judge, is here:

  Gap        one difference and the failed check lines it explains
  GapList    one emulator's gaps and left-out tests, and the judge:
             unexplained() names what a run shows beyond them, and
             self_test() shows on made-up runs that the judge can fail
  run_problem  the whole verdict on one run's lines: a panic, no
             summary, a summary that does not add up, a failure no gap
             explains, a gap not seen, a test gone missing

A run passes only if it fails exactly where the gaps say: every line of
every failed test explained by a gap of its configuration, every such
gap seen (one the emulator no longer shows must go), and every left-out
test named by the kernel as left out.
"""

import re
from dataclasses import dataclass

from ..judge import SUMMARY, count_problem, no_line_starting, panic_line


@dataclass
class Gap:
    """A way an emulator differs from a real CPU, the configurations it
    shows on, the failed checks it explains, and a line of a real run
    that its first check accepts (for self_test)."""
    what: str
    configs: tuple
    checks: tuple       # (in-kernel test, regex over its check's line)
    example: str


FAILED_TEST = re.compile(r"^ktest: FAIL (\S+)$")
RESULT = re.compile(r"^ktest: (PASS|SKIP) ")
# A check's line; user programs' output may run into it on one line.
CHECK = re.compile(r"ktest:   (\S.*)$")
# A failed test's lines that say what was not run, not what went wrong.
LEFT_OUT_NOTE = "left out by notest="
IN_GUEST_NOTE = re.compile(r"^vector \d+ left out in a guest: ")


def failed_checks(lines):
    """{failed test: [its checks' lines]}: the lines printed since the
    previous test's result.  Indented deeper, a line only goes on with
    the one before it ("expected ...")."""
    failed, pending = {}, []
    for line in lines:
        if RESULT.match(line):
            pending = []
        elif FAILED_TEST.match(line):
            failed[FAILED_TEST.match(line).group(1)] = pending
            pending = []
        elif CHECK.search(line):
            pending.append(CHECK.search(line).group(1))
    return failed


def is_note(check, guest_notes):
    """A failed test's line that is a note, not a failed check: a case
    left out by notest=, and (in a guest's run) a vector the guest's
    suite leaves out because the host owns it."""
    return check.endswith(LEFT_OUT_NOTE) or bool(guest_notes and IN_GUEST_NOTE.match(check))


class GapList:
    """One emulator's gaps (GAPS), the tests it must not run (LEFT_OUT,
    {name: why}), its configurations, and the file that lists them (for
    messages)."""

    def __init__(self, emulator, source, gaps, left_out, configs, guest_notes=False):
        self.emulator, self.source = emulator, source
        self.gaps, self.left_out, self.configs = gaps, left_out, configs
        self.guest_notes = guest_notes

    def notest_option(self):
        return "notest=" + ",".join(self.left_out)

    def unexplained(self, config, lines):
        """What the run in lines shows beyond this configuration's gaps: a
        list of problems, empty when each failure is a known gap and each
        gap was seen."""
        gaps = [gap for gap in self.gaps if config in gap.configs]
        seen, problems = set(), []
        for test, checks in failed_checks(lines).items():
            if not checks:
                problems.append(f"{test} failed with no check named")
            for check in checks:
                if is_note(check, self.guest_notes):
                    continue
                gap = next((g for g in gaps for t, rx in g.checks
                            if t == test and re.search(rx, check)), None)
                if gap is None:
                    problems.append(f"{test}: {check}")
                else:
                    seen.add(id(gap))
        problems += [f"{self.emulator} ({config}) no longer shows: {gap.what}"
                     for gap in gaps if id(gap) not in seen]
        for name in self.left_out:
            if not any(line.endswith(f"{name}: {LEFT_OUT_NOTE}") for line in lines):
                problems.append(f"the kernel did not say it left out {name}")
        return problems

    def self_test(self):
        """The judge must be able to fail: the problems it finds in made-up
        runs of each configuration, as a list (empty when it works)."""
        wrong = [f"the example of '{gap.what}' is not what its check accepts"
                 for gap in self.gaps if not re.search(gap.checks[0][1], gap.example)]
        for config in self.configs:
            wrong += self.judge_problems(config)
        return wrong

    def made_up_run(self, failures, left_out=None):
        """The lines of a run failing with failures, [(test, check line)]."""
        left_out = self.left_out if left_out is None else left_out
        lines = ["ktest: PASS something"]
        for test in dict.fromkeys(t for t, _ in failures):
            lines += [f"ktest:   {c}" for t, c in failures if t == test]
            lines.append(f"ktest: FAIL {test}")
        return lines + [f"ktest:   {name}: {LEFT_OUT_NOTE}" for name in left_out]

    def judge_problems(self, config):
        """Made-up runs of config the judge must accept or refuse, and
        what it got wrong about them."""
        known = [(gap.checks[0][0], gap.example) for gap in self.gaps
                 if config in gap.configs]
        wrong = []
        if self.unexplained(config, self.made_up_run(known)):
            wrong.append(f"{config}: a run failing only in known gaps was refused: "
                         + "; ".join(self.unexplained(config, self.made_up_run(known))))
        if not self.unexplained(config, self.made_up_run(
                known + [("cr2_round_trip", "expected x")])):
            wrong.append(f"{config}: an unknown failure was let through")
        if not self.unexplained(config, self.made_up_run(known[1:])):
            wrong.append(f"{config}: a gap no longer seen was not reported")
        if not self.unexplained(config, self.made_up_run(known, left_out=[])):
            wrong.append(f"{config}: a left-out test the kernel did not name was let through")
        return wrong


def run_problem(gap_list, config, lines, expect):
    """Why the run of configuration config in lines (the kernel's, a
    guest's without its prefix) did not pass, as a list of lines (the
    reason first), or None; expect: line starts that must be there."""
    if panic_line(lines):
        return [panic_line(lines).strip()]
    summary = next((SUMMARY.match(line) for line in lines if SUMMARY.match(line)), None)
    if not summary:
        return ["no final 'ktest: N passed, M failed' line: the run did not finish"]
    failed = sum(line.startswith("ktest: FAIL ") for line in lines)
    if int(summary.group(2)) != failed or int(summary.group(1)) < 1:
        return [f"the summary '{summary.group(0)}' does not match the "
                f"{failed} FAIL lines"]
    problems = gap_list.unexplained(config, lines)
    if problems:
        return [f"failures beyond {gap_list.emulator}'s known gaps ({gap_list.source})"] + [
            "  " + p for p in problems]
    count = count_problem(lines[:lines.index(summary.group(0)) + 1])
    if count:
        return [count]
    missing = no_line_starting(lines, expect)
    return [missing] if missing else None
