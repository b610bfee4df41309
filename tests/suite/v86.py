"""tests/suite/v86.py - the in-kernel suite and the guest suite in v86, the
browser page's PC, under Node (tools/run-v86).

  v86-gaps-selftest  gaps/v86.py's judge refuses an unknown failure, a
                   gap no longer seen and a left-out case the kernel did
                   not name (made-up runs); and each case gaps/v86.py
                   leaves out still stops v86 with the panic it quotes,
                   reported at once and by name (a case that no longer
                   does must come off the list and be tested).
  v86-ktest-y      The in-kernel suite of the PARAVIRT=y kernel in v86:
  v86-ktest-n      the same for the PARAVIRT=n kernel.  Each must fail
                   exactly where gaps/v86.py says v86 is not the CPU it
                   emulates, and leave out (notest=, each named) what
                   would stop v86 itself.
  v86-guest-y      The guest suite in v86: the kernel hosting itself at
                   ring 1 (guest=test guestexit, the kernel as its own
                   module, as guest-matrix-* run it under QEMU), judged
                   the same way on what the guest prints; the host must
                   start it with the notest= list and never panic.
"""

import re
import time

from .builds import N, Y
from .emulators import read_serial, run_emulator
from .gaps import run_problem
from .gaps import v86 as v86_gaps
from .harness import Failure, Test, fresh_log, need_file, need_tool
from .judge import log_details, panic_line

# tools/run-v86 answers as QEMU's isa-debug-exit does: the kernel's exit
# value V as (V << 1) | 1.  pv386 leaves with 0x10 when its suite (or
# its guest's) passed, 0x11 when some test failed: in v86 always, its
# gaps being real failures, which the judge then reads line by line.
RUN_V86 = "tools/run-v86"
V86_LIBRARY = "build/npm/node_modules/v86/build/libv86.mjs"
KERNEL_PASSED, KERNEL_FAILED = (0x10 << 1) | 1, (0x11 << 1) | 1
V86_PANICKED, V86_HALTED, V86_TIMED_OUT = 3, 4, 124
# A whole run takes 10-20 s alone (the y suite the longest), twice that
# beside another emulator on a shared CPU: the limit leaves room for both.
V86_TIMEOUT = 120
V86_WATCHDOG = 15       # beyond run-v86's own --timeout, in case it hangs
GUEST_PREFIX = "guest: "
# A left-out case run alone ends at the panic in a few seconds.
LEFT_OUT_TIMEOUT = 30
PANIC_REPORT_LIMIT = 20


def run_v86(log, build, append, timeout=V86_TIMEOUT, module=False):
    """tools/run-v86 booting build's kernel (with itself as its module if
    module) with the command line append, COM1 in log: (its Outcome,
    COM1's lines)."""
    need_tool("node", "web")
    need_file(V86_LIBRARY, "tools/ensure-deps web")
    need_file(build.elf, build.make("all"))
    fresh_log(log)
    cmd = [RUN_V86, "--kernel", build.elf, "--append", append, "--timeout", str(timeout),
           "--serial", log]
    if module:
        cmd += ["--initrd", build.elf]
    outcome = run_emulator(cmd, timeout + V86_WATCHDOG)
    return outcome, read_serial(log)


def run_v86_said(outcome):
    """What run-v86 said itself ("run-v86: ..." lines: why v86 stopped);
    COM1's bytes share its output, and may run into such a line."""
    return [m.group(0) for m in map(re.compile(r"run-v86: .*").search,
                                    outcome.output.splitlines()) if m]


def v86_end(outcome):
    """How a v86 run ended, as a phrase for a failure, or None when the
    kernel ended it with its suite's verdict (passed or failed)."""
    said = "; ".join(line[len("run-v86: "):] for line in run_v86_said(outcome))
    if outcome.timed_out:
        return "tools/run-v86 went on past its own --timeout: stopped from outside"
    if outcome.status in (KERNEL_PASSED, KERNEL_FAILED):
        return None
    if outcome.status == V86_PANICKED:
        return said or "v86 stopped (run-v86 status 3)"
    if outcome.status in (V86_HALTED, V86_TIMED_OUT):
        return said or f"run-v86 status {outcome.status}"
    return f"tools/run-v86 exited with status {outcome.status}" + (f": {said}" if said else "")


def judge_v86_run(log, config, outcome, lines, judged, expect, host_expect=()):
    """The run passed: judged (the suite's lines: the kernel's, or the
    guest's) fails exactly in config's gaps, with each line of expect
    there; no panic anywhere in lines, and a line of them matching each
    regex of host_expect; v86 ended by the kernel's hand."""
    end = v86_end(outcome)
    problem = run_problem(v86_gaps.JUDGE, config, judged, expect)
    if not problem and panic_line(lines):
        problem = [f"host: {panic_line(lines).strip()}"]
    missing = [rx.pattern for rx in host_expect if not any(map(rx.match, lines))]
    if not problem and missing:
        problem = [f"no line matching {missing[0]!r}"]
    if problem and end:
        problem[0] += f" ({end})"
    if not problem and end:
        problem = [end]
    if problem:
        raise Failure(problem[0], problem[1:] + log_details(
            log, lines, "\n".join(run_v86_said(outcome))))


def v86_ktest(log, build):
    """The in-kernel suite of build in v86: exactly v86's gaps fail."""
    append = f"test {v86_gaps.JUDGE.notest_option()}"
    outcome, lines = run_v86(log, build, append)
    judge_v86_run(log, v86_gaps.HOST, outcome, lines, lines, [build.ready])


def v86_guest(log, build):
    """The guest suite in v86, the kernel as its own module: exactly
    v86's gaps fail in what the guest prints."""
    guest_line = f"test {v86_gaps.JUDGE.notest_option()}"
    append = f"guest={guest_line.replace(' ', '+')} guestexit"    # '+': a space
    outcome, lines = run_v86(log, build, append, module=True)
    guest = [line[len(GUEST_PREFIX):] for line in lines if line.startswith(GUEST_PREFIX)]
    judge_v86_run(log, v86_gaps.GUEST, outcome, lines, guest, ["pv386 ready: backend=guest"],
                  [re.compile(r"host: guest started: \d+ MiB, command line '"
                              + re.escape(guest_line) + "'$")])


# ---- the judge's own test -------------------------------------------------------

def check_v86_gaps_judge(log):
    """gaps/v86.py's judge refuses what it must (made-up runs), and each
    left-out case still stops v86, at once, with the panic quoted."""
    wrong = v86_gaps.JUDGE.self_test() + left_out_problems(log)
    with open(log, "w") as f:
        f.write("\n".join(wrong or ["the judge refuses each made-up bad run, and each "
                                    "left-out case stops v86 with its panic"]) + "\n")
    if wrong:
        raise Failure(wrong[0], wrong[1:])


def left_out_problems(log):
    """What is wrong with LEFT_OUT: a case that no longer stops v86 (it
    must come off the list), one whose panic is not the one its reason
    quotes, or a stop reported late or without the panic."""
    wrong = [f"{case}: left out, but gaps/v86.py's PANICS names no test and panic for it"
             for case in v86_gaps.LEFT_OUT if case not in v86_gaps.PANICS]
    for case, (test, panic) in v86_gaps.PANICS.items():
        if case not in v86_gaps.LEFT_OUT:
            wrong.append(f"{case}: in gaps/v86.py's PANICS, but LEFT_OUT does not leave it out")
        elif panic not in v86_gaps.LEFT_OUT[case]:
            wrong.append(f"{case}: its reason does not quote v86's panic '{panic}'")
        case_log = log[:-len(".log")] + f"-{case.replace(':', '-')}.log"
        start = time.monotonic()
        outcome, _ = run_v86(case_log, Y, f"test={test}", LEFT_OUT_TIMEOUT)
        took = time.monotonic() - start
        end = v86_end(outcome) or f"the kernel's exit, status {outcome.status}"
        if outcome.status != V86_PANICKED:
            wrong.append(f"{case} no longer stops v86 (run alone: {end}): take it off "
                         "gaps/v86.py's LEFT_OUT")
        elif panic not in end:
            wrong.append(f"{case} stopped v86, reported as '{end}', not with '{panic}'")
        elif took > PANIC_REPORT_LIMIT:
            wrong.append(f"{case}: v86's stop was reported after {took:.0f} s")
    return wrong


def judge_tests():
    return [Test("v86-gaps-selftest", check_v86_gaps_judge)]


def tests():
    return [Test("v86-ktest-y", v86_ktest, (Y,)),
            Test("v86-ktest-n", v86_ktest, (N,)),
            Test("v86-guest-y", v86_guest, (Y,))]
