"""tests/suite/hang.py - a hang is still caught when runs are judged by progress.

  hang-caught      The limits of harness/progress.py hold both ways.  A guest that
                   spins forever - a Multiboot kernel of two instructions,
                   `jmp .` after one byte on COM1, made here - run by
                   qemu_ktest as the in-kernel suite is, fails with "printed
                   nothing new" within its silence limit and a few seconds;
                   so does a process that spins printing nothing; a wait
                   whose guest has printed all along expires at
                   MAX_RUN_FACTOR times its limit (its clock set back, not
                   waited for); while a process that goes on printing for
                   three times its limit and then ends is not stopped: a
                   long run that makes progress passes.
"""

import os
import struct
import time

from .builds import Y
from .emulators import run_emulator
from .harness import Failure, Test
from .ktest import qemu_ktest
from .harness.progress import MAX_RUN_FACTOR, Silence

LIMIT = 2               # seconds of silence the hung runs get
LOAD_ADDRESS = 0x100000

# Multiboot header with the address fields (flags bit 16), so QEMU's
# -kernel loads the flat file as it is; then the code: one '.' to COM1,
# and a jump to itself, forever.
MULTIBOOT_MAGIC, MULTIBOOT_AOUT_KLUDGE = 0x1BADB002, 1 << 16
SPIN_CODE = bytes([0x66, 0xBA, 0xF8, 0x03,     # mov $0x3f8, %dx
                   0xB0, 0x2E,                 # mov $'.', %al
                   0xEE,                       # out %al, (%dx)
                   0xEB, 0xFE])                # jmp .


def spinning_kernel(path):
    """Write the two-instruction Multiboot kernel that hangs to path."""
    header_size = 32
    size = header_size + len(SPIN_CODE)
    flags = MULTIBOOT_AOUT_KLUDGE
    header = struct.pack("<8I", MULTIBOOT_MAGIC, flags,
                         (-(MULTIBOOT_MAGIC + flags)) & 0xFFFFFFFF,
                         LOAD_ADDRESS, LOAD_ADDRESS, LOAD_ADDRESS + size,
                         LOAD_ADDRESS + size, LOAD_ADDRESS + header_size)
    with open(path, "wb") as f:
        f.write(header + SPIN_CODE)


def timed(run):
    start = time.monotonic()
    result = run()
    return result, time.monotonic() - start


def check_hang_caught(log):
    problems = []
    kernel = log + ".spin.bin"
    spinning_kernel(kernel)

    def spin_in_qemu():
        try:
            qemu_ktest(log, Y, "qemu32", boot=["-kernel", kernel], timeout=LIMIT)
        except Failure as failure:
            return failure.reason
        return None
    reason, took = timed(spin_in_qemu)
    if reason is None or "printed nothing new" not in reason or took > LIMIT + 15:
        problems.append(f"a kernel spinning in QEMU: {reason!r} after {took:.0f} s")

    def shell(script, limit):
        return run_emulator(["sh", "-c", script], limit)
    outcome, took = timed(lambda: shell("echo one; while :; do :; done", LIMIT))
    if not outcome.timed_out or "printed nothing new" not in outcome.why:
        problems.append(f"a silent spinning process was not caught ({outcome})")
    printed = iter(range(10 ** 9))        # a guest printing at every look
    forever = Silence(LIMIT, lambda: next(printed))
    fresh = forever.expired()
    forever.start -= LIMIT * MAX_RUN_FACTOR + 1
    if fresh or not forever.expired() or "times its" not in forever.why():
        problems.append(f"a guest printing forever: expired {fresh} at first, "
                        f"then {forever.why()!r}")
    outcome, took = timed(lambda: shell(
        "for i in $(seq 15); do echo $i; sleep 0.4; done", LIMIT))
    if outcome.timed_out or outcome.status != 0:
        problems.append(f"a process printing for {took:.0f} s with a {LIMIT} s limit "
                        f"was stopped: {outcome.why}")
    os.remove(kernel)
    with open(log, "a") as f:
        f.write("\n" + "\n".join(problems or ["every hang caught, the long run left to end"]) + "\n")
    if problems:
        raise Failure(problems[0], problems[1:])


def tests():
    return [Test("hang-caught", check_hang_caught)]
