"""tests/suite/harness/runner.py - running tests side by side, reporting them in table order.

Tests run JOBS at a time (each emulator keeps about one core busy), the
longest first (as long as they took last time, history.py: a long row
started last would run alone at the end), but their lines come out in
the order of the table: each as soon as it and every test before it
are done.  A test that raises anything but Failure
is a bug in the suite; it is reported as a failure all the same, never
left out.
"""

import concurrent.futures
import sys
import time
from dataclasses import dataclass

from . import Failure, Test


@dataclass
class Result:
    """How one test went: reason None for a pass."""
    test: Test
    reason: str
    details: list
    seconds: float
    crashed: bool = False   # the suite's own code failed, not the check

    @property
    def passed(self):
        return self.reason is None


def run_one(test):
    start = time.monotonic()
    try:
        test.run()
    except Failure as failure:
        return Result(test, failure.reason, failure.details, time.monotonic() - start)
    except Exception as error:  # a bug in the suite must not hide a result
        return Result(test, f"the suite's own code failed: {error!r}", [],
                      time.monotonic() - start, crashed=True)
    return Result(test, None, [], time.monotonic() - start)


def report(result):
    if result.passed:
        print(f"PASS {result.test.name}", flush=True)
        return
    print(f"FAIL {result.test.name}: {result.reason}")
    for line in result.details:
        print(f"    {line}")
    sys.stdout.flush()


def run_tests(tests, jobs, expected_seconds=lambda name: 0):
    """Run tests, jobs at a time, longest (by expected_seconds) first,
    reporting each in table order; their Results, or None if
    interrupted (Ctrl-C)."""
    results = []
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        started = {}
        for test in sorted(tests, key=lambda t: -expected_seconds(t.name)):
            started[test.name] = pool.submit(run_one, test)
        futures = [started[test.name] for test in tests]
        try:
            for future in futures:
                results.append(future.result())
                report(results[-1])
        except KeyboardInterrupt:
            # Ctrl-C already reached the emulators; start no new ones.
            pool.shutdown(wait=False, cancel_futures=True)
            return None
    return results
