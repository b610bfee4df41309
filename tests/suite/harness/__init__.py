"""tests/suite/harness - what every test of the suite is made of, and what runs them.

A test is a name and a function: Test(name, function, args, kwargs)
calls function(log, *args, **kwargs), where log is the path of the
test's own log, build/test-logs/NAME.log.  The function returns if the
test passed and raises Failure (a one-line reason, detail lines) if it
did not.  The helpers here are the ones tests of every area use: a
missing file or program fails the test with the command that provides
it, never passes it.
"""

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
LOG_DIR = "build/test-logs"

LOG_TAIL_LINES = 25
DETAIL_WIDTH = 160         # GRUB's menu screen arrives as one very long line


class Failure(Exception):
    """A test did not pass: a one-line reason and optional detail lines."""

    def __init__(self, reason, details=()):
        super().__init__(reason)
        self.reason = reason
        self.details = list(details)


@dataclass
class Test:
    """A named check: function(log, *args, **kwargs) raises Failure or
    returns."""
    name: str
    function: Callable
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)

    @property
    def log(self):
        return f"{LOG_DIR}/{self.name}.log"

    def run(self):
        self.function(self.log, *self.args, **self.kwargs)


def judge_problems(log, problems, fine):
    """A check's verdict: its problems, or the line fine when there are
    none, written to log; the first problem fails the test."""
    with open(log, "w") as f:
        f.write("\n".join(problems or [fine]) + "\n")
    if problems:
        raise Failure(problems[0], problems[1:])


def need_file(path, make_command):
    if not os.path.isfile(path):
        raise Failure(f"{path} is missing; build it with `{make_command}`")


def need_tool(program, deps_stage):
    if shutil.which(program) is None:
        raise Failure(f"{program} not found; install it with "
                      f"`tools/ensure-deps {deps_stage}`")


def fresh_log(log):
    """Remove a log left by an earlier run, so it cannot be misread."""
    if os.path.exists(log):
        os.remove(log)


def last_lines(text, count=LOG_TAIL_LINES):
    """The last count non-blank lines of text, each cut to DETAIL_WIDTH."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    return [line if len(line) <= DETAIL_WIDTH else line[:DETAIL_WIDTH] + " ..."
            for line in lines[-count:]]


def run_command(cmd, log):
    """Run a short host command, keep its output in log, return its status
    and output."""
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, errors="replace")
    output = proc.stdout + proc.stderr
    with open(log, "w") as f:
        f.write(output)
    return proc.returncode, output
