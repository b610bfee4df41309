"""tests/suite/shell_session.py - a conversation with the kernel shell over COM1.

The shell's tests (shell.py) and the student's sessions (session.py)
boot a kernel to its `pv386>` prompt in QEMU, with COM1 a TCP connection
to the test and QEMU's monitor a unix socket for typing on the PS/2
keyboard (sendkey).  A session sends a line, reads the answer up to the
next prompt, and checks each answer for the lines it must hold.
"""

import os
import re
import socket
import subprocess
import tempfile
import time

from .emulators import POLL_INTERVAL, QEMU, QEMU_BASE, QEMU_MEMORY_MIB, stop
from .harness import Failure, fresh_log, need_file, need_tool
from .judge import line_has, log_details, panic_line
from .harness.progress import Silence

SHELL_PROMPT = b"pv386> "
SHELL_ANSWER_TIMEOUT = 30    # seconds for one answer (a whole ktest run: ~15)
SHELL_BOOT_TIMEOUT = 30
GRUB_MENU_LAST = b"pv386 test suite, ops ROM backend"   # boot/grub.cfg's last entry


class ShellSession:
    """A kernel booted to its shell in QEMU, COM1 a TCP connection to us
    and QEMU's monitor a unix socket (for sendkey).  command() sends a
    line and returns the answer up to the next prompt.
    Everything COM1 says goes to log."""

    def __init__(self, log, build, append="", cpu="qemu32", extra=(), boot=None,
                 menu_keys=()):
        """boot: QEMU's boot options instead of -kernel (e.g. -cdrom and
        the ISO); menu_keys: keys typed (sendkey) at GRUB's menu."""
        need_tool(QEMU, "qemu")
        need_file(build.elf, build.make("all"))
        if boot is None:        # else e.g. ["-cdrom", build.iso]: GRUB's menu
            boot = ["-kernel", build.elf, "-append", append]
        fresh_log(log)
        self.log = open(log, "wb")
        self.received = b""
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.settimeout(SHELL_BOOT_TIMEOUT)
        self.monitor_path = tempfile.mktemp(prefix="pv386-monitor-")
        at = QEMU_BASE.index("-monitor")     # ours instead of none
        base = QEMU_BASE[:at] + QEMU_BASE[at + 2:]
        cmd = base + ["-m", str(QEMU_MEMORY_MIB), "-cpu", cpu,
                      "-serial", f"tcp:127.0.0.1:{listener.getsockname()[1]}",
                      "-monitor", f"unix:{self.monitor_path},server=on,wait=off",
                      *boot, *extra]
        self.output = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                     stdout=self.output, stderr=subprocess.STDOUT)
        try:
            self.conn, _ = listener.accept()
        except socket.timeout:
            self.close()
            raise Failure("QEMU never connected its COM1 to the test")
        finally:
            listener.close()
        self.conn.settimeout(POLL_INTERVAL)
        if menu_keys:
            self.wait_for(GRUB_MENU_LAST, SHELL_BOOT_TIMEOUT)
            self.monitor([f"sendkey {k}" for k in menu_keys])
        self.answer_from(0, SHELL_BOOT_TIMEOUT, "the first prompt")

    def wait_for(self, text, timeout):
        """Wait until COM1 has said text (bytes), whenever it comes, as
        long as COM1 goes no longer than timeout seconds silent."""
        silence = self.silence(timeout)
        while text not in self.received:
            if silence.expired() or self.receive() is None:
                raise Failure(f"no {text.decode()!r}: {silence.why('COM1')}", self.details())

    def receive(self):
        """What COM1 sent since the last call (b"" if nothing; None once
        QEMU has closed the connection)."""
        try:
            data = self.conn.recv(65536)
        except socket.timeout:
            return b""
        if data:
            self.log.write(data)
            self.log.flush()
            self.received += data
        return data if data else None

    def answer_from(self, start, timeout, what):
        """Wait for a prompt after offset start (COM1 silent no longer
        than timeout seconds); the text before it."""
        silence = self.silence(timeout)
        while True:
            end = self.received.find(b"\n" + SHELL_PROMPT, start)
            if end >= 0:
                self.mark = end + 1 + len(SHELL_PROMPT)
                return self.received[start:end].decode("utf-8", "replace")
            if silence.expired() or self.receive() is None:
                raise Failure(f"no prompt after {what}: {silence.why('COM1')}",
                              self.details())

    def silence(self, limit):
        """A Silence (harness/progress.py) measured by what COM1 has sent."""
        return Silence(limit, lambda: len(self.received))

    def until_reported(self, text, timeout):
        """Enter empty lines until the shell has said text: it reports
        programs that ended before its next prompt, as a Unix shell
        reports done jobs."""
        deadline = time.monotonic() + timeout
        while text not in self.received:
            if time.monotonic() > deadline:
                raise Failure(f"no {text.decode()!r} within {timeout} s", self.details())
            self.pause(0.5)
            self.command("", raw=b"\r")

    def pause(self, seconds):
        """Wait, still taking in what COM1 sends."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and self.receive() is not None:
            pass

    def send(self, data):
        self.conn.sendall(data)

    def command(self, line, timeout=SHELL_ANSWER_TIMEOUT, raw=None):
        """Send line with Enter (or raw bytes instead, or a list of byte
        strings a second apart); the answer's lines, the
        first being the shell's echo of what it was sent."""
        start = self.mark
        chunks = raw if isinstance(raw, list) else [raw]
        for i, chunk in enumerate(chunks):
            if i:       # let the shell catch up before the next chunk
                self.pause(1)
            self.send(chunk if chunk is not None else line.encode() + b"\r")
        text = self.answer_from(start, timeout, repr(line))
        return [l.rstrip("\r") for l in text.split("\n")]

    def monitor(self, commands):
        """Commands to QEMU's monitor (sendkey ...), one at a time."""
        with socket.socket(socket.AF_UNIX) as mon:
            mon.connect(self.monitor_path)
            mon.settimeout(2)
            for command in commands:
                mon.sendall(command.encode() + b"\n")
                time.sleep(0.05)    # the guest takes keys at its own pace
            time.sleep(0.2)

    def wait_exit(self, timeout):
        """QEMU's exit status, or None if it still runs after timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.receive() is None:
                break
        try:
            return self.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            return None

    def details(self):
        self.output.seek(0)
        lines = [l.strip("\r") for l in
                 self.received.decode("utf-8", "replace").split("\n")]
        return log_details(self.log.name, lines,
                           self.output.read().decode("utf-8", "replace"))

    def close(self):
        if self.proc.poll() is None:
            stop(self.proc)
        if hasattr(self, "conn"):
            self.conn.close()
        self.log.close()
        if os.path.exists(self.monitor_path):
            os.remove(self.monitor_path)


def expect_answer(session, line, expected, raw=None, timeout=SHELL_ANSWER_TIMEOUT):
    """Send line; each of expected (see line_has; a compiled pattern is
    searched for) must be in a line of the answer.  Returns the answer."""
    answer = session.command(line, timeout, raw)
    for e in expected:
        found = any(e.search(a) if isinstance(e, re.Pattern) else line_has(a, e)
                    for a in answer)
        if not found:
            raise Failure(f"shell: {line!r} answered without {getattr(e, 'pattern', e)!r}",
                          ["answer:"] + ["  " + a for a in answer[:40]] +
                          session.details())
    return answer


def shell_dialogue(log, build, dialogue, append="", cpu="qemu32", in_log=(), **boot):
    """Boot to the shell (boot: ShellSession's boot, extra, menu_keys) and
    go through dialogue: (line, [expected...]) pairs, or (line, expected,
    raw bytes to send instead of line[, timeout]), or (None, text): Enter
    empty lines until the shell has said text (bytes: a program's end).
    Lines that come between prompts, whenever they come, are in_log:
    looked for in the whole session at the end."""
    session = ShellSession(log, build, append, cpu, **boot)
    try:
        for step in dialogue:
            if step[0] is None:
                session.until_reported(step[1], SHELL_ANSWER_TIMEOUT)
                continue
            expect_answer(session, step[0], step[1], *step[2:])
        lines = [l.strip("\r") for l in
                 session.received.decode("utf-8", "replace").split("\n")]
        missing = [e for e in in_log if not any(line_has(l, e) for l in lines)]
        problem = panic_line(lines) or (missing and f"missing: {missing!r}")
        if problem:
            raise Failure(problem, session.details())
    finally:
        session.close()

