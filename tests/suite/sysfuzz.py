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
"""

from .cmdline import option_test

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



def tests():
    return [option_test(sysfuzz_check(*row)) for row in SYSFUZZ_RUNS]
