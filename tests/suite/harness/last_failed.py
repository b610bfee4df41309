"""tests/suite/harness/last_failed.py - which tests failed the last time they ran (--failed).

The record is a file of test names, one a line, in build/test-logs/.
Each run updates it for the tests it ran: a failed one is added, a
passed one taken off, and a test this run left out keeps what it had.
So `tests/run -k loader` after a failing full run leaves the others'
failures recorded, and `tests/run --failed` reruns just those.
"""

import os


def read(path):
    """The names recorded as failed, or None if there is no record."""
    try:
        with open(path) as f:
            return {line.strip() for line in f if line.strip()}
    except FileNotFoundError:
        return None


def update(path, table, results):
    """Record results: table (every test, in order) orders the file."""
    failed = (read(path) or set()) - {r.test.name for r in results}
    failed |= {r.test.name for r in results if not r.passed}
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.writelines(f"{test.name}\n" for test in table if test.name in failed)
