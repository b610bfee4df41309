"""tests/suite/guest.py - pv386 hosting pv386 at ring 1 (docs/guest.md).

  guest-ktest-y    A host booted with guest=test, the kernel as its
                   Multiboot module: the guest boots on the guest
                   backend and runs its whole in-kernel suite with 0
                   failed (judged as ktest-qemu-* judge theirs, on the
                   lines the host prints as "guest: ..."), while the host
                   switches its own backend live and back; the host's
                   shell answers all along and after the guest has
                   stopped, whose stats show it ran through the host.
"""

import re
import time

from .builds import Y
from .harness import Failure, Test
from .judge import ktest_problem, panic_line
from .shell_session import ShellSession, expect_answer

GUEST_PREFIX = "guest: "
PROMPTS = re.compile(r"^(pv386> )+")
GUEST_READY = b"guest: pv386 ready: backend=guest cpu="
GUEST_SUMMARY = re.compile(rb"guest: ktest: \d+ passed, \d+ failed")
GUEST_PASSED = b"host: guest stopped: it asked to stop: emulator exit (value 0x10)"
GUEST_TIMEOUT = 120     # its suite takes about 10 s under TCG


def session_lines(session):
    """COM1's lines; a guest's line may follow the host's prompt."""
    text = session.received.decode("utf-8", "replace").split("\n")
    return [PROMPTS.sub("", line.strip("\r")) for line in text]


def guest_lines(session):
    """What the guest printed, as it printed it (the host's prefix off)."""
    return [line[len(GUEST_PREFIX):] for line in session_lines(session)
            if line.startswith(GUEST_PREFIX)]


def host_lines(session):
    return [line for line in session_lines(session) if not line.startswith(GUEST_PREFIX)]


def wait_summary(session):
    """Until the guest's ktest summary has come (the Failure if never)."""
    deadline = time.monotonic() + GUEST_TIMEOUT
    while not GUEST_SUMMARY.search(session.received):
        if time.monotonic() > deadline or session.receive() is None:
            raise Failure("the guest never printed 'ktest: N passed, M failed'",
                          session.details())


def guest_ktest(log, build):
    """The guest's suite, with live switches of the host's backend under
    it; then the host still answers, and has the guest's stats."""
    session = ShellSession(log, build, "guest=test", extra=["-initrd", build.elf])
    try:
        session.wait_for(GUEST_READY, GUEST_TIMEOUT)
        if GUEST_READY not in session.received:
            raise Failure("no 'guest: pv386 ready: backend=guest'", session.details())
        expect_answer(session, "pv use trace", ["pv: switched from native to trace"])
        expect_answer(session, "pv use native", ["pv: switched from trace to native"])
        switched_while_running = not GUEST_SUMMARY.search(session.received)
        wait_summary(session)
        problem = ktest_problem(guest_lines(session))
        if problem:
            raise Failure(f"guest: {problem}", session.details())
        if not switched_while_running:
            raise Failure("the guest's suite ended before the host's backend "
                          "switches: they were not tested under a running guest",
                          session.details())
        session.wait_for(GUEST_PASSED, GUEST_TIMEOUT)
        expect_answer(session, "guest stats", [
            "guest: stopped: it asked to stop: emulator exit (value 0x10)",
            re.compile(r"^  world switches [1-9]\d*, traps reflected [1-9]"),
            re.compile(r"^  hypercall write_cr3 +[1-9]"),
            re.compile(r"^  hypercall load_ldt +[1-9]")])
        problem = panic_line(host_lines(session))
        if problem:
            raise Failure(f"host: {problem}", session.details())
    finally:
        session.close()


def tests():
    return [Test("guest-ktest-y", guest_ktest, (Y,))]
