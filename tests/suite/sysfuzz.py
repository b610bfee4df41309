"""tests/suite/sysfuzz.py - the system-call fuzzer, for longer than the suite runs it.

  sysfuzz-*        user/sysfuzz, the system-call fuzzer, for a longer
                   run than the suite's (test=sysfuzz with sysfuzz=seed=
                   S,calls=N: some 5 s each), in both builds, with
                   cpu=386 and with nosysenter: every result as the
                   kernel's rules say (its summary line, exact, with 0
                   mismatches and the calls split between int $0x80 and
                   sysenter as the CPU allows), every page and task slot
                   back, a fresh program still runs.  `make
                   fuzz-syscalls` runs it for FUZZ_TIME seconds.
                   sysfuzz checks after every 1000 calls that the kernel
                   still reaches its own stack and heap, and at the end
                   that a program it spawns is collected by a wait whose
                   status is on its stack.  sysfuzz-seed7-200k-y: 200,000
                   calls from seed 7, thread calls among them, on one
                   CPU; sysfuzz-seed7-smp-*: 25,000 from the same seed on
                   -smp 2 and 4, threads on other CPUs.
                   sysfuzz-wild-*: the same with `wild` threads (any
                   number alive, hostile entries and stacks, some killed
                   by a fault, collected by random waits), the end's
                   waits with the status on the stack.
"""

from .builds import BUILDS
from .cmdline import option_test
from .harness import Test
from .ktest import qemu_ktest

# user/sysfuzz for longer than the suite's own run (tests/kernel/
# test_sysfuzz.c), a seed of its own per row: (name, build, options,
# calls by sysenter too).  cpu=386 and nosysenter leave only int $0x80.
SYSFUZZ_CALLS = 25000
SYSFUZZ_RUNS = [
    ("sysfuzz-y", "y", "", True),
    ("sysfuzz-n", "n", "", True),
    ("sysfuzz-cpu386-y", "y", "cpu=386", False),
    ("sysfuzz-nosysenter-n", "n", "nosysenter", False),
]


def sysfuzz_check(name, build, options, sysenter):
    """A row of cmdline.py's shape for one sysfuzz run: its summary line whole."""
    seed = 1 + [row[0] for row in SYSFUZZ_RUNS].index(name)
    by_sysenter = SYSFUZZ_CALLS // 2 if sysenter else 0
    summary = (f"sysfuzz: seed {seed}, {SYSFUZZ_CALLS} calls "
               f"({SYSFUZZ_CALLS - by_sysenter} int80, {by_sysenter} sysenter), "
               "0 mismatches$")
    return {
        "name": name,
        "build": build,
        "append": " ".join(filter(None, [
            "test=sysfuzz", options, f"sysfuzz=seed={seed},calls={SYSFUZZ_CALLS}"])),
        "expect": [summary, "ktest: PASS sysfuzz_random_calls_leave_nothing_behind"],
    }



# Seed 7 for long: the run after which threads once left the kernel
# unable to reach the program's own stack (wait gave -EFAULT).  (name,
# build, sysfuzz's words before the seed, calls, CPUs, seconds allowed.)
SEED7_RUNS = [
    ("sysfuzz-seed7-200k-y", "y", "", 200000, 1, 900),
    ("sysfuzz-seed7-smp-2-n", "n", "", 25000, 2, 300),
    ("sysfuzz-seed7-smp-4-y", "y", "", 25000, 4, 300),
    ("sysfuzz-wild-seed7-200k-y", "y", "wild,", 200000, 1, 900),
    ("sysfuzz-wild-seed7-smp-4-n", "n", "wild,", 25000, 4, 300),
]


def seed7_test(name, build, words, calls, cpus, timeout):
    """A long sysfuzz run from seed 7: every result right, its summary whole."""
    by_sysenter = calls // 2
    summary = (f"sysfuzz: seed 7, {calls} calls ({calls - by_sysenter} int80, "
               f"{by_sysenter} sysenter), 0 mismatches$")
    return Test(name, qemu_ktest, (BUILDS[build], "qemu32"),
                {"append": f"test=sysfuzz sysfuzz={words}seed=7,calls={calls}",
                 "expect": [summary, "ktest: PASS sysfuzz_random_calls_leave_nothing_behind"],
                 "extra": ["-smp", str(cpus)], "timeout": timeout})


def tests():
    return ([option_test(sysfuzz_check(*row)) for row in SYSFUZZ_RUNS] +
            [seed7_test(*row) for row in SEED7_RUNS])
