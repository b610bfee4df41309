"""tests/audit_selftests/harness.py - what the binary audits' self-tests share.

A checker that never fails is worthless, and one that always fails gets
ignored.  So each audit (tools/audit-privileged, audit-sites,
audit-natives, audit-calls) has a self-test beside this file that runs it, as the
Makefile and tests/run do, on ELF files whose right verdict is known,
and demands that verdict: the exit status, and the line of output that
names what it found.  The ELF files are tiny ones assembled from a few
lines (SelfTest.assemble), or a copy of the built kernel with one bug
planted in it (Kernel.plant).

Each case prints `PASS TOOL: what` or `FAIL TOOL: what` with the tool's
output indented; the last line counts the failures, and the exit status
is 1 if there were any.  Each self-test's cases are in its own file.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools")
sys.path.insert(0, TOOLS)
import binscan  # noqa: E402  (tools/binscan.py: reads the ELF through binutils)

KERNEL = os.path.join(ROOT, "build", "pv386.elf")
NOPV_KERNEL = os.path.join(ROOT, "build", "nopv", "pv386.elf")


class SelfTest:
    """One audit's self-test: its tool, a scratch folder, what failed."""

    def __init__(self, tool):
        self.tool = tool                    # e.g. "audit-sites"
        self.path = os.path.join(TOOLS, tool)
        self.work = tempfile.mkdtemp(prefix=f"{tool}-selftest-")
        self.failures = 0

    def passed(self, what):
        print(f"PASS {self.tool}: {what}")

    def failed(self, what, output=""):
        print(f"FAIL {self.tool}: {what}")
        for line in output.splitlines():
            print(f"    {line}")
        self.failures += 1

    def scratch(self, name):
        """A path in the scratch folder."""
        return os.path.join(self.work, name)

    def run(self, elf, options=()):
        """The tool on elf, with options before it: (exit status, what
        it printed)."""
        proc = subprocess.run([sys.executable, self.path, *options, elf],
                              stdin=subprocess.DEVNULL,
                              capture_output=True, text=True)
        return proc.returncode, proc.stdout + proc.stderr

    def expect(self, elf, status, what, pattern=None, options=()):
        """Run the tool on elf and demand exit status status and, if
        pattern is given, a line pattern (a regex) is found in.  Returns
        what the tool printed."""
        got, output = self.run(elf, options)
        if got != status:
            self.failed(f"{what}: exit {got}, want {status}", output)
        elif pattern and not lines_matching(pattern, output):
            self.failed(f"{what}: exit {got} but no line matching /{pattern}/", output)
        else:
            self.passed(f"{what} (exit {got})")
        return output

    def assemble(self, name, source, entry):
        """NAME.elf, assembled from source and linked the way a kernel is
        (text at 1 MiB, entry at symbol entry); its path, or None after a
        FAIL if it cannot be built."""
        source_file, obj, elf = (self.scratch(name + ext) for ext in (".S", ".o", ".elf"))
        with open(source_file, "w") as f:
            f.write(source)
        for cmd in (["gcc", "-m32", "-c", source_file, "-o", obj],
                    ["ld", "-m", "elf_i386", "-e", entry, "-Ttext=0x100000", "-o", elf, obj]):
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                self.failed(f"could not build {name}.elf", proc.stdout + proc.stderr)
                return None
        return elf

    def finish(self):
        """Clean up and say how it went; the exit status."""
        shutil.rmtree(self.work, ignore_errors=True)
        if self.failures:
            print(f"{self.tool} self-test: {self.failures} failure(s)")
            return 1
        print(f"{self.tool} self-test: all cases passed")
        return 0


def lines_matching(pattern, output):
    """The lines of output in which the regex pattern is found."""
    return [line for line in output.splitlines() if re.search(pattern, line)]


class Kernel:
    """A built kernel, read once, to plant bugs in copies of it: where
    its symbols and instructions are, and where an address lies in the
    file."""

    def __init__(self, path):
        self.path = path
        self.sections = binscan.section_headers(path)
        self.symbols = {}
        for symbol in binscan.symbols(path):
            self.symbols.setdefault(symbol.name, symbol.addr)
        self.code = [insn for _, insns in binscan.disassemble(path, every_zero=False)
                     for insn in insns]

    def insns(self, function=None, start=None, end=None):
        """Its instructions, of one function or in [start, end)."""
        return [insn for insn in self.code
                if (function is None or insn.function == function) and
                (start is None or start <= insn.addr < end)]

    def insn_at(self, function, mnemonic, nth=1):
        """The address of the nth instruction mnemonic of function, or None."""
        found = [insn.addr for insn in self.insns(function)
                 if insn.text.split()[0] == mnemonic]
        return found[nth - 1] if len(found) >= nth else None

    def section_bytes(self, name):
        return binscan.section_bytes(self.path, name)

    def file_offset(self, addr):
        """Where the byte at address addr lies in the file."""
        for section in self.sections.values():
            if section.start <= addr < section.end:
                return section.file_offset + addr - section.start
        raise ValueError(f"{addr:#x} lies in no section of {self.path}")

    def copy(self, test, name):
        """A fresh copy of the kernel in test's scratch folder."""
        path = test.scratch(f"{name}.elf")
        shutil.copyfile(self.path, path)
        return path

    def plant(self, copy, addr, data):
        """Overwrite the bytes at address addr of the copy with data."""
        with open(copy, "r+b") as f:
            f.seek(self.file_offset(addr))
            f.write(data)
