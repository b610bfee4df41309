"""tests/suite/harness/frontend.py - the command line tests/run and tests/matrix share.

    -k SUBSTR     only the tests whose names contain SUBSTR (repeatable)
    --tier TIER   only the tests of that tier (tiers.py): fast (`make
                  test`), slow, or all (the default)
    --list        print the chosen tests' tiers and names and exit
    -j JOBS       tests run at once
    --failed      only the tests that failed the last time they ran
                  (last_failed.py keeps the record in build/test-logs/)
    --junit FILE  also write the results to FILE as JUnit XML

It prints one line per test in table order (runner.py), then the
slowest tests' seconds, then the totals, `N passed, M failed`.  Exit status: 0 all passed (or --failed
found nothing to rerun), 1 some failed, 2 no test matched, 130
interrupted.
"""

import argparse
import os
import sys

from . import history, junit, last_failed, runner
from . import LOG_DIR, ROOT

# One more row at once than the machine has cores.  An emulator keeps at
# most one core busy, and often less: its guest halts until a timer
# tick, its serial line waits for the harness, a session types with
# pauses.  On two cores, all rows of tests/run three at once took 532 s
# with 1.7 cores busy on average; two at once took 732 s (docs/tests.md).
DEFAULT_JOBS = (os.cpu_count() or 1) + 1


def parse_args(prog, description, argv):
    parser = argparse.ArgumentParser(prog=prog, description=description,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-k", dest="patterns", action="append", metavar="SUBSTR",
                        help="run only tests whose names contain SUBSTR "
                             "(repeat for more)")
    parser.add_argument("--tier", choices=("fast", "slow", "all"), default="all",
                        help="run only the tests of this tier (default all)")
    parser.add_argument("--list", action="store_true",
                        help="print the tests' tiers and names and exit")
    parser.add_argument("-j", "--jobs", type=int, default=DEFAULT_JOBS,
                        help=f"tests run at once (default {DEFAULT_JOBS})")
    parser.add_argument("--failed", action="store_true",
                        help="run only the tests that failed the last time they ran")
    parser.add_argument("--junit", metavar="FILE",
                        help="also write the results to FILE as JUnit XML")
    return parser.parse_args(argv)


def chosen(tests, patterns, only):
    """The tests, in table order, that match a pattern (if any) and are
    in only (if not None)."""
    return [t for t in tests
            if (not patterns or any(p in t.name for p in patterns)) and
            (only is None or t.name in only)]


def print_slowest(results, count=8):
    """Name the tests that took longest, so that whoever trims the
    suite's time knows where it goes (jobs run side by side: these are
    each test's own wall-clock seconds, not shares of the total)."""
    slowest = sorted(results, key=lambda r: r.seconds, reverse=True)[:count]
    if len(results) > 1:
        print("slowest: " + ", ".join(f"{r.test.name} {r.seconds:.0f} s" for r in slowest))


def main(prog, description, all_tests, record, after=None, argv=None, tier_of=None):
    """Run the chosen tests of all_tests() and report them; record: the
    file name, in LOG_DIR, of the --failed record; after(results): what
    to print before the totals; tier_of(name): (tier, why it is there)
    for --tier and --list.  Returns the exit status."""
    args = parse_args(prog, description, argv)
    junit_file = os.path.abspath(args.junit) if args.junit else None
    os.chdir(ROOT)
    record = os.path.join(LOG_DIR, record)
    table = all_tests()
    only = (last_failed.read(record) or set()) if args.failed else None
    tests = chosen(table, args.patterns, only)
    if tier_of and args.tier != "all":
        tests = [t for t in tests if tier_of(t.name)[0] == args.tier]
    if args.failed and not only:
        print(f"{prog}: no test failed when it last ran ({record})", file=sys.stderr)
        print("0 passed, 0 failed")
        return 0
    if args.list:
        for test in tests:
            tier, why = tier_of(test.name) if tier_of else ("", "")
            print(f"{tier:<5} {test.name}" + (f"  ({why})" if why else ""))
        return 0 if tests else 2
    os.makedirs(LOG_DIR, exist_ok=True)

    past = history.read()
    results = runner.run_tests(tests, args.jobs,
                               lambda name: history.seconds(name, past))
    if results is None:
        print("interrupted", file=sys.stderr)
        return 130
    if after:
        after(results)
    print_slowest(results)
    failed = sum(not r.passed for r in results)
    print(f"{len(results) - failed} passed, {failed} failed")
    last_failed.update(record, table, results)
    history.update(results)
    if junit_file:
        junit.write(junit_file, prog, results)
    if not tests:
        print(f"{prog}: no test matches " + " or ".join(args.patterns or []),
              file=sys.stderr)
        return 2
    return 1 if failed else 0
