"""tests/suite/harness/progress.py - when a run counts as hung: no progress, not a long wall time.

A machine shared with other work runs an emulator two, five, ten times
slower than a quiet one, and a row that fails on a fixed total wall time
fails there although nothing is wrong.  What a hung guest does not do is
make progress: it prints nothing more.  So every wait of the suite on an
emulator is a Silence: its limit is the longest the guest may go without
a new byte on its serial port (a file that grows, or bytes received on a
socket), however long the whole run takes.  A guest that spins forever
printing nothing, or stops in `cli; hlt`, is still caught, after limit
seconds of silence.

One guard stays on total time, MAX_RUN_FACTOR times the limit: a guest
that prints forever (a panic loop, a test that never ends its output) is
a hang too, and must end some time.  With limits of 30-240 s it is far
beyond any run on a loaded machine (a 37-minute `make test` at load 15
was 3 times a quiet one).
"""

import os
import time

MAX_RUN_FACTOR = 20


class Silence:
    """The clock of one wait: expired() once nothing new has come for
    limit seconds (or the run has lasted MAX_RUN_FACTOR times that).

    measure(), if given, returns how much output there is so far (a
    file's size, say); any growth is progress.  Without it, the caller
    reports progress itself with heard()."""

    def __init__(self, limit, measure=None):
        self.limit = limit
        self.measure = measure
        now = time.monotonic()
        self.start = now
        self.last_progress = now
        self.last_amount = measure() if measure else None

    def heard(self):
        """Progress now: the guest said something new."""
        self.last_progress = time.monotonic()

    def expired(self):
        if self.measure is not None:
            amount = self.measure()
            if amount != self.last_amount:
                self.last_amount = amount
                self.heard()
        now = time.monotonic()
        return (now - self.last_progress > self.limit or
                now - self.start > self.limit * MAX_RUN_FACTOR)

    def why(self, what="the guest"):
        """The reason to give once expired()."""
        if time.monotonic() - self.start > self.limit * MAX_RUN_FACTOR:
            return (f"{what} still running after {self.limit * MAX_RUN_FACTOR} s "
                    f"({MAX_RUN_FACTOR} times its {self.limit} s silence limit)")
        return f"{what} printed nothing new for {self.limit} s (hung?)"


def file_size(path):
    """A measure for Silence: the size of path (0 while it does not exist)."""
    def size():
        try:
            return os.path.getsize(path)
        except OSError:
            return 0
    return size
