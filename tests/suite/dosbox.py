"""tests/suite/dosbox.py - pv386's loader and the whole in-kernel suite in DOSBox.

  dosbox-gaps-selftest  gaps/dosbox.py's judge of DOSBox runs refuses
                   an unknown failure, a gap no longer seen and a left-out
                   test the kernel did not name (made-up runs); and a
                   DOSBox that dies before the summary is a failure at
                   once, with its signal named (a stand-in that crashes).
  loader-dosbox-386-y  The test floppy in DOSBox, a 386 without CPUID
                   (A20 off at power-on, memory by AH=88h), runs the whole
                   suite as cpu=386: it must fail exactly where
                   gaps/dosbox.py says DOSBox is not a real 386, and leave
                   out (notest=, each named) what would stop DOSBox itself.
"""

import os
import signal
import time

from .emulators import read_serial, run_emulator, serial_listener
from .harness import Failure, Test, fresh_log, need_tool
from .gaps import dosbox as dosbox_gaps
from .gaps import run_problem
from .judge import SUMMARY, log_details
from .loader import LOADER_NAME, TEST_FLOPPY, cmdline_patch, doctored_image

# DOSBox with cputype=386 is the one emulator here whose CPU has no CPUID
# (EFLAGS.ID stuck, cpuid raises #UD).  It boots the test floppy with
# `boot`; COM1 is a null modem that DOSBox connects to a TCP listener of
# ours.  Its firmware starts with A20 off, has no INT 15h A20 service and
# no E820 or E801, so the loader takes the keyboard controller and
# AH=88h paths there.  The guest cannot end DOSBox (no isa-debug-exit):
# the run ends at the suite's summary line.  The whole suite runs, less
# what stops DOSBox itself, and must fail exactly where DOSBox is not a
# real CPU: tests/suite/gaps/dosbox.py lists each gap and what it explains.
# A run that cannot reach the summary ends at once when DOSBox does (an
# E_Exit, a crash), or when COM1 has been silent for DOSBOX_SILENCE
# seconds (a stuck kernel: the longest silence of a good run,
# pv_switch_stress_short's backend switches, took 13 s alone and 110 s
# beside four busy loops a core).  As for every emulator row
# (harness/progress.py), silence is the limit, not total time: a loaded
# host stretches a good run six to ten times, and only a guest printing
# for MAX_RUN_FACTOR times DOSBOX_SILENCE is stopped for going on.
#
# The guest's clock is DOSBox's emulated time, and `cycles=fixed N` ties
# it to instructions, not to the host: N cycles in each emulated
# millisecond, whatever the host does.  In DOSBox 0.74's public source,
# TIMER_AddTick (src/hardware/pic.cpp) gives each emulated millisecond
# CPU_CycleMax cycles, which `fixed N` sets to N (CPU::Change_Config,
# src/cpu/cpu.cpp), and increaseticks (src/dosbox.cpp) hands out
# emulated milliseconds as host ones pass, at most 20 at a time: a host
# that cannot keep up makes emulated time run slow, unseen by the guest.
# `cycles=max` sets CPU_CycleAutoAdjust instead, and increaseticks then
# rescales CPU_CycleMax to the share of the host CPU that DOSBox got
# (cut to a third when the host ran it more than 15 ms late): on a busy
# host the guest ran far fewer instructions a tick, and tests whose
# deadlines are in ticks (the lock storms' 10 s) ran out of time with
# their work unfinished.  DOSBOX_CYCLES: a quiet run takes about as long
# as with `max` (the 486_slow row 103 s, against 101-117 s), the lock
# storms use at most a tenth of their deadline, and the longest silence
# is the shortest of the values tried side by side on one busy host
# (25000: 70 s, 50000: 40 s, 100000: 28 s).
# DOSBOX_MEMORY_MIB: the least RAM with which the suite skips and fails
# the same tests as with DOSBox's largest, 63 MiB (QEMU at 16 MiB skips
# the guest quota test, which needs room for a 16 MiB guest): the
# out-of-memory tests have half as much to fill.
DOSBOX = "dosbox"
DOSBOX_SILENCE = 240
DOSBOX_CYCLES = 100000
DOSBOX_MEMORY_MIB = 32
DOSBOX_CONF = """[dosbox]
memsize={memory}
[cpu]
core=normal
cputype={cputype}
cycles=fixed {cycles}
[serial]
serial1=nullmodem server:127.0.0.1 port:{port} transparent:1
serial2=disabled
[autoexec]
boot {image}
"""


def dosbox_ktest(log, config, expect=()):
    """Boot the test floppy in DOSBox, configuration config of
    gaps/dosbox.py (its cputype, then options for the kernel), with the
    in-kernel suite on its line: it must fail exactly where DOSBox has a
    known gap, and the lines expect must be there."""
    need_tool(DOSBOX, "dosbox")
    fresh_log(log)
    cputype, *options = config.split()
    line = " ".join(["test"] + options + [dosbox_gaps.notest_option()])
    image = doctored_image(log, TEST_FLOPPY, [cmdline_patch(line)])
    outcome, lines, end = run_dosbox(log, cputype, image)
    problem = dosbox_problem(config, lines, [
        f"pv386: booted by {LOADER_NAME}, command line '{line}'"] + list(expect))
    if problem and end:
        problem[0] += f" ({end})"
    if problem:
        raise Failure(problem[0], problem[1:] + log_details(log, lines, outcome.output))


class Silence:
    """Whether a file has stopped growing for limit seconds."""

    def __init__(self, path, limit):
        self.path, self.limit = path, limit
        self.size, self.since, self.reached = -1, time.monotonic(), False

    def check(self):
        size = os.path.getsize(self.path) if os.path.exists(self.path) else 0
        if size != self.size:
            self.size, self.since = size, time.monotonic()
        self.reached = time.monotonic() - self.since > self.limit
        return self.reached


def run_dosbox(log, cputype, image, command=(DOSBOX,)):
    """DOSBox (command) of cputype booting image, COM1 in log, until the
    suite's summary line, a panic or a loader error; or until DOSBox
    ends by itself, COM1 stays silent or the time is up: (its Outcome,
    COM1's lines, how it ended - a phrase - if not at those lines)."""
    port, thread, stopping = serial_listener(log)
    conf = log[:-len(".log")] + ".conf"
    with open(conf, "w") as f:
        f.write(DOSBOX_CONF.format(memory=DOSBOX_MEMORY_MIB, port=port, cputype=cputype,
                                   cycles=DOSBOX_CYCLES, image=os.path.abspath(image)))
    silence = Silence(log, DOSBOX_SILENCE)

    def finished():
        return any(SUMMARY.match(line) or line.startswith("pv386 loader: error:") or
                   "KERNEL PANIC" in line for line in read_serial(log)) or silence.check()

    cmd = ["env", "SDL_VIDEODRIVER=dummy", "SDL_AUDIODRIVER=dummy",
           *command, "-conf", conf, "-exit"]
    try:
        outcome = run_emulator(cmd, DOSBOX_SILENCE, done=finished, hard_stop=True,
                               watch=log)
    finally:
        stopping.set()
        thread.join()
    return outcome, read_serial(log), dosbox_end(outcome, silence.reached)


def dosbox_end(outcome, silent):
    """How a DOSBox run ended, as a phrase for a failure's first line, or
    None when it was stopped at the line it waited for."""
    if outcome.timed_out:
        return f"DOSBox stopped: {outcome.why}"
    if silent:
        return f"DOSBox stopped: nothing on COM1 for {DOSBOX_SILENCE} s"
    if outcome.stopped_early:
        return None
    if outcome.status is not None and outcome.status < 0:
        return f"DOSBox was killed by {signal.Signals(-outcome.status).name}"
    return f"DOSBox exited by itself, status {outcome.status}"


def check_dosbox_gaps_judge(log):
    """tests/suite/gaps/dosbox.py's judge refuses what it must (made-up
    runs), and a DOSBox that crashes is a prompt failure that says so."""
    wrong = dosbox_gaps.self_test() + crash_problems(log)
    with open(log, "w") as f:
        f.write("\n".join(wrong or ["the judge refuses each made-up bad run, "
                                    "and a crashed DOSBox at once"]) + "\n")
    if wrong:
        raise Failure(wrong[0], wrong[1:])


# A stand-in for DOSBox that crashes at once, as DOSBox did on a guest's
# store to the Switcher's page (gaps/dosbox.py's LEFT_OUT).
CRASHING_DOSBOX = ("sh", "-c", "kill -SEGV $$", "crashing-dosbox")
CRASH_REPORT_LIMIT = 10       # seconds: no waiting for DOSBOX_SILENCE


def crash_problems(log):
    """What is wrong with the report of a DOSBox that crashes before the
    kernel prints anything: a list, empty when it is a prompt failure
    naming the signal."""
    crash_log = log[:-len(".log")] + "-crash.log"
    fresh_log(crash_log)
    start = time.monotonic()
    outcome, lines, end = run_dosbox(crash_log, "486_slow", "no-such-floppy.img",
                                     CRASHING_DOSBOX)
    took = time.monotonic() - start
    problem = dosbox_problem(dosbox_gaps.I486, lines, [])
    wrong = []
    if not problem:
        wrong.append("a DOSBox that crashed before any line passed")
    if end != "DOSBox was killed by SIGSEGV":
        wrong.append(f"a crashed DOSBox was reported as: {end}")
    if took > CRASH_REPORT_LIMIT:
        wrong.append(f"a crashed DOSBox was reported after {took:.0f} s")
    return wrong


def dosbox_problem(config, lines, expect):
    """Why the DOSBox run in lines did not pass, as a list of lines (the
    reason first), or None (gaps/__init__.py's verdict, by gaps/dosbox.py)."""
    return run_problem(dosbox_gaps.JUDGE, config, lines, expect)


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
