"""tests/suite/dosbox.py - pv386's loader and the whole in-kernel suite in DOSBox.

  dosbox-gaps-selftest  dosbox_gaps.py's judge of DOSBox runs refuses
                   an unknown failure, a gap no longer seen and a left-out
                   test the kernel did not name (made-up runs).
  loader-dosbox-386-y  The test floppy in DOSBox, a 386 without CPUID
                   (A20 off at power-on, memory by AH=88h), runs the whole
                   suite as cpu=386: it must fail exactly where
                   dosbox_gaps.py says DOSBox is not a real 386, and leave
                   out (notest=, each named) what would stop DOSBox itself.
"""

import os

from . import dosbox_gaps
from .emulators import read_serial, run_emulator, serial_listener
from .harness import Failure, Test, fresh_log, need_tool
from .judge import SUMMARY, count_problem, log_details, no_line_starting, panic_line
from .loader import LOADER_NAME, TEST_FLOPPY, cmdline_patch, doctored_image

# DOSBox with cputype=386 is the one emulator here whose CPU has no CPUID
# (EFLAGS.ID stuck, cpuid raises #UD).  It boots the test floppy with
# `boot`; COM1 is a null modem that DOSBox connects to a TCP listener of
# ours.  Its firmware starts with A20 off, has no INT 15h A20 service and
# no E820 or E801, so the loader takes the keyboard controller and
# AH=88h paths there.  The guest cannot end DOSBox (no isa-debug-exit):
# the run ends at the suite's summary line.  The whole suite runs, less
# what stops DOSBox itself, and must fail exactly where DOSBox is not a
# real CPU: tests/suite/dosbox_gaps.py lists each gap and what it explains.
DOSBOX = "dosbox"
DOSBOX_TIMEOUT = 120
DOSBOX_MEMORY_MIB = 63                # DOSBox's largest memsize
DOSBOX_CONF = """[dosbox]
memsize={memory}
[cpu]
core=normal
cputype={cputype}
cycles=max
[serial]
serial1=nullmodem server:127.0.0.1 port:{port} transparent:1
serial2=disabled
[autoexec]
boot {image}
"""


def dosbox_ktest(log, config, expect=()):
    """Boot the test floppy in DOSBox, configuration config of
    dosbox_gaps (its cputype, then options for the kernel), with the
    in-kernel suite on its line: it must fail exactly where DOSBox has a
    known gap, and the lines expect must be there."""
    need_tool(DOSBOX, "dosbox")
    fresh_log(log)
    cputype, *options = config.split()
    line = " ".join(["test"] + options + [dosbox_gaps.notest_option()])
    image = doctored_image(log, TEST_FLOPPY, [cmdline_patch(line)])
    port, thread, stopping = serial_listener(log)
    conf = log[:-len(".log")] + ".conf"
    with open(conf, "w") as f:
        f.write(DOSBOX_CONF.format(memory=DOSBOX_MEMORY_MIB, port=port,
                                   cputype=cputype, image=os.path.abspath(image)))

    def finished():
        return any(SUMMARY.match(line) or line.startswith("pv386 loader: error:") or
                   "KERNEL PANIC" in line for line in read_serial(log))

    cmd = ["env", "SDL_VIDEODRIVER=dummy", "SDL_AUDIODRIVER=dummy",
           DOSBOX, "-conf", conf, "-exit"]
    try:
        outcome = run_emulator(cmd, DOSBOX_TIMEOUT, done=finished, hard_stop=True)
    finally:
        stopping.set()
        thread.join()
    lines = read_serial(log)
    problem = dosbox_problem(config, lines, [
        f"pv386: booted by {LOADER_NAME}, command line '{line}'"] + list(expect))
    if problem and outcome.timed_out:
        problem += f" (DOSBox stopped after {DOSBOX_TIMEOUT} s)"
    if problem:
        raise Failure(problem[0], problem[1:] + log_details(log, lines, outcome.output))


def check_dosbox_gaps_judge(log):
    """tests/suite/dosbox_gaps.py's judge refuses what it must (made-up runs)."""
    wrong = dosbox_gaps.self_test()
    with open(log, "w") as f:
        f.write("\n".join(wrong or ["the judge refuses each made-up bad run"]) + "\n")
    if wrong:
        raise Failure(wrong[0], wrong[1:])


def dosbox_problem(config, lines, expect):
    """Why the DOSBox run in lines did not pass, as a list of lines (the
    reason first), or None."""
    if panic_line(lines):
        return [panic_line(lines).strip()]
    summary = next((SUMMARY.match(line) for line in lines if SUMMARY.match(line)), None)
    if not summary:
        return ["no final 'ktest: N passed, M failed' line: the run did not finish"]
    failed = sum(line.startswith("ktest: FAIL ") for line in lines)
    if int(summary.group(2)) != failed or int(summary.group(1)) < 1:
        return [f"the summary '{summary.group(0)}' does not match the "
                f"{failed} FAIL lines"]
    problems = dosbox_gaps.unexplained(config, lines)
    if problems:
        return ["failures beyond DOSBox's known gaps (tests/suite/dosbox_gaps.py)"] + [
            "  " + p for p in problems]
    count = count_problem(lines[:lines.index(summary.group(0)) + 1])
    if count:
        return [count]
    missing = no_line_starting(lines, expect)
    return [missing] if missing else None



def judge_tests():
    return [Test("dosbox-gaps-selftest", check_dosbox_gaps_judge)]


def tests():
    return [Test("loader-dosbox-386-y", dosbox_ktest, (dosbox_gaps.FORCED_386, [
        "a20: off, on by the keyboard controller",
        f"mem: 640 KiB low, {(DOSBOX_MEMORY_MIB - 1) * 1024} KiB from 1 MiB "
        "(int 15h ah=88h)",
        "cpu: features: (no cpuid)",
        "cpu: unknown family 3 model 0 stepping 0, i386 class, forced by cpu=",
        "timer: PIT at 100 Hz (divisor 11932), clock: PIT ticks (no TSC)",
        "syscall: int $0x80 only (no sysenter on this CPU)"]))]
