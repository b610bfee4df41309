"""tests/suite/harness/history.py - what each row gave the last time it ran, and how long it took.

The record is build/test-logs/history.json: for each test name its last
result (passed, the reason if not), its seconds and when it finished.
Two readers:

  - the runner starts the longest rows first (their last seconds), so
    that two jobs do not end with one long row running alone; the lines
    still come out in table order;
  - tests/matrix takes the result of a tests/run row that runs the same
    configuration instead of running it again (matrix.py), if that
    result is newer than every file the builds made.

Each run updates the rows it ran and leaves the others as they were.
"""

import json
import os
import time

from . import LOG_DIR

PATH = f"{LOG_DIR}/history.json"


def read(path=PATH):
    """{name: {"passed", "reason", "seconds", "finished"}}; {} if none."""
    try:
        with open(path) as f:
            return json.load(f)
    except (FileNotFoundError, ValueError):
        return {}


def update(results, path=PATH):
    record = read(path)
    now = time.time()
    for r in results:
        record[r.test.name] = {"passed": r.passed, "reason": r.reason,
                               "seconds": round(r.seconds, 1), "finished": now}
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(record, f, indent=0, sort_keys=True)
    os.replace(path + ".tmp", path)


def seconds(name, record, unknown=60.0):
    """How long name took last time (unknown: long, so it starts early)."""
    entry = record.get(name)
    return entry["seconds"] if entry else unknown
