"""tests/suite/emulators.py - running QEMU, Bochs and gdb for the tests.

Every emulator run of the suite goes through here: QEMU with COM1 in a
file (or a TCP connection to the test), Bochs through tools/run-bochs,
and QEMU stopped at _start for gdb.  An emulator gets /dev/null as its
input and is stopped once the test has seen what it waits for, or once
its guest has printed nothing new for the run's limit (harness/progress.py: a
loaded machine makes a run long, not silent); the guest's COM1 output
is read back as lines with GRUB's terminal escapes and the kernel's CRs
taken out.
"""

import itertools
import os
import re
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass

from .harness import fresh_log, need_file, need_tool
from .harness.progress import Silence, file_size

# Limits of silence (harness/progress.py), not of total time: the longest the
# guest may print nothing new.
KTEST_QEMU_TIMEOUT = 60   # seconds; the quietest test prints within a few
KTEST_BOCHS_TIMEOUT = 120  # Bochs interprets every instruction: slower
BOOT_TIMEOUT = 30          # from power-on to GRUB's first line
POLL_INTERVAL = 0.1

# The kernel leaves QEMU through isa-debug-exit, which turns the value v
# the kernel writes into the exit status (v << 1) | 1.
QEMU_PASS, QEMU_FAIL = 33, 35
QEMU = "qemu-system-i386"
QEMU_MEMORY_MIB = 64
QEMU_BASE = [QEMU, "-display", "none", "-no-reboot",
             "-monitor", "none",
             "-device", "isa-debug-exit,iobase=0xf4,iosize=1"]
RUN_BOCHS = "tools/run-bochs"

# GRUB draws its menu with terminal escape sequences, and the kernel ends
# lines with CR LF; neither should get in the way of matching lines.
ESCAPE_SEQUENCE = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[()][A-Za-z0-9])")


def read_serial(log):
    """The guest's serial output as a list of lines (empty if none)."""
    try:
        with open(log, "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return []
    return [ESCAPE_SEQUENCE.sub("", line).strip("\r")
            for line in text.split("\n")]


@dataclass
class Outcome:
    """How an emulator process ended."""
    status: int       # exit status, or None if we stopped it
    timed_out: bool   # stopped for want of progress (why says how)
    stopped_early: bool
    output: str       # its stdout and stderr
    why: str = ""     # the reason, when timed_out


def stop(proc, hard=False):
    """Ask politely first: SIGTERM lets run-bochs clean up its Bochs.
    hard: SIGKILL at once, for DOSBox, which ignores SIGTERM."""
    if hard:
        proc.kill()
        proc.wait()
        return
    proc.terminate()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def serial_file(cmd):
    """The file cmd writes the guest's serial output to (QEMU's -serial
    file:PATH, tools/run-bochs's last argument), or None."""
    for arg in cmd:
        if isinstance(arg, str) and arg.startswith("file:"):
            return arg[len("file:"):]
    if cmd and cmd[0] == RUN_BOCHS:
        return cmd[-1]
    return None


def program_name(cmd):
    """The program cmd runs, for messages: past `env VAR=value...`."""
    if cmd and cmd[0] == "env":
        cmd = list(itertools.dropwhile(lambda arg: "=" in arg, cmd[1:])) or cmd
    return os.path.basename(cmd[0])


def run_emulator(cmd, timeout, done=None, hard_stop=False, watch=None):
    """Run cmd until it exits, until done() is true, or until it has made
    no progress for timeout seconds: no growth of watch (a file; by
    default the serial file cmd names) nor of its own messages.

    Emulators get /dev/null as stdin so that none of them can read the
    terminal, and their messages go to a temporary file rather than a pipe
    that nobody reads while we wait.
    """
    watch = watch or serial_file(cmd)
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT)
        serial = file_size(watch) if watch else (lambda: 0)
        silence = Silence(timeout, lambda: (serial(), os.fstat(out.fileno()).st_size))
        status, timed_out, stopped_early, why = None, False, False, ""
        while True:
            try:
                status = proc.wait(timeout=POLL_INTERVAL)
                break
            except subprocess.TimeoutExpired:
                pass
            if done is not None and done():
                stopped_early = True
            elif silence.expired():
                timed_out, why = True, silence.why(program_name(cmd))
            else:
                continue
            stop(proc, hard_stop)
            status = None
            break
        out.seek(0)
        output = out.read().decode("utf-8", errors="replace")
    return Outcome(status, timed_out, stopped_early, output, why)


def qemu_command(log, cpu, boot, memory=QEMU_MEMORY_MIB):
    """QEMU (TCG only: KVM breaks 32-bit guests here) with COM1 in log."""
    return QEMU_BASE + ["-m", str(memory), "-serial", f"file:{log}",
                        "-cpu", cpu] + boot


def reached(lines, start):
    """A line starts with start, or the kernel panicked."""
    return any(line.startswith(start) or "KERNEL PANIC" in line for line in lines)


def qemu_until(log, cpu, boot, start, timeout, memory=QEMU_MEMORY_MIB):
    """QEMU with COM1 in log, stopped once a line starts with start or the
    kernel panics (a kernel idles after its ready line, never ending
    QEMU), or after timeout seconds: (its Outcome, COM1's lines)."""
    fresh_log(log)
    cmd = qemu_command(log, cpu, boot, memory)
    outcome = run_emulator(cmd, timeout, done=lambda: reached(read_serial(log), start))
    return outcome, read_serial(log)


def run_bochs(log, iso, cpu, timeout, until=None, floppy=False, memory=None):
    """tools/run-bochs with no time limit of its own (--timeout 0):
    ours, on silence, stops it (its SIGTERM handler stops Bochs)."""
    need_tool("bochs", "bochs")
    fresh_log(log)
    cmd = [RUN_BOCHS, "--cpu", cpu, "--timeout", "0"]
    if until:
        cmd += ["--until", until]
    if floppy:
        cmd.append("--floppy")
    if memory:
        cmd += ["--mem", str(memory)]
    outcome = run_emulator(cmd + [iso, log], timeout)
    if outcome.timed_out:
        return outcome, f"Bochs: {outcome.why}"
    if outcome.status != 0:
        return outcome, f"tools/run-bochs exited with status {outcome.status}"
    return outcome, None


def free_tcp_port():
    """A loopback port nobody listens on, for QEMU's gdb stub."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def boot_under_gdb(log, build, gdb_commands, append="", done=None, timeout=10,
                   qemu_extra=()):
    """Boot build's ELF in QEMU stopped at _start, where gdb runs
    gdb_commands (to set up what no loader would) before letting it go.
    Waits until QEMU exits, done(lines) holds, or timeout seconds pass.
    Returns (serial lines, QEMU's status or None, gdb's output)."""
    need_tool(QEMU, "qemu")
    need_tool("gdb", "qemu")
    need_file(build.elf, build.make("all"))
    fresh_log(log)
    port = free_tcp_port()
    cmd = qemu_command(log, "qemu32", ["-kernel", build.elf, "-append", append,
                                       *qemu_extra,
                                       "-gdb", f"tcp:127.0.0.1:{port}", "-S"])
    gdb = ["gdb", "-q", "-batch", "-nx",
           "-ex", "set architecture i386", "-ex", f"file {build.elf}",
           "-ex", f"target remote 127.0.0.1:{port}",
           "-ex", "break _start", "-ex", "continue"]
    for command in gdb_commands:
        gdb += ["-ex", command]
    gdb += ["-ex", "detach"]
    with subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL,
                          stderr=subprocess.STDOUT) as qemu:
        try:
            time.sleep(0.5)             # let QEMU open its gdb port
            debugger = subprocess.run(gdb, capture_output=True, text=True,
                                      timeout=30)
            deadline = time.monotonic() + timeout
            while (time.monotonic() < deadline and qemu.poll() is None and
                   not (done and done(read_serial(log)))):
                time.sleep(POLL_INTERVAL)
            status = qemu.poll()
        finally:
            stop(qemu)
    return read_serial(log), status, debugger.stdout + debugger.stderr


def serial_listener(log, reply=None):
    """A loopback TCP listener whose first connection's bytes go to log;
    reply = (trigger, answer): send answer once trigger has been received.
    Returns (port, thread, stop event); the thread ends when the peer
    closes or stop is set."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(POLL_INTERVAL)
    stopping = threading.Event()

    def receive():
        with listener, open(log, "wb") as out:
            while not stopping.is_set():
                try:
                    conn, _ = listener.accept()
                    break
                except socket.timeout:
                    continue
            else:
                return
            with conn:
                conn.settimeout(POLL_INTERVAL)
                received, pending = b"", reply
                while not stopping.is_set():
                    try:
                        data = conn.recv(4096)
                    except socket.timeout:
                        continue
                    if not data:
                        break
                    out.write(data)
                    out.flush()
                    received += data
                    if pending and pending[0] in received:
                        conn.sendall(pending[1])
                        pending = None

    thread = threading.Thread(target=receive, daemon=True)
    thread.start()
    return listener.getsockname()[1], thread, stopping

