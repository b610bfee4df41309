"""binscan: read a linked pv386 ELF through binutils, for the binary audits.

tools/audit-privileged, tools/audit-sites and tools/audit-natives all judge
the kernel by what the linker produced, not by the source: objdump's
disassembly, its section headers and section contents, and nm's symbols.
This module is the one place that runs those programs and parses their
output, so the audits agree on what an instruction, a function or a
section is.

Every program can be overridden like make's OBJDUMP= and NM=, through the
environment.  A program that is missing or fails raises BinutilsError,
which the audits report as "could not audit" (exit status 2), never as a
pass.
"""

import os
import re
import shutil
import subprocess
from typing import NamedTuple

SECTION_HEADER = re.compile(r"^Disassembly of section (\S+):$")
SYMBOL_HEADER = re.compile(r"^([0-9a-fA-F]+) <(.*)>:$")
INSTRUCTION_LINE = re.compile(r"^\s*([0-9a-fA-F]+):\t(.*)$")
# `objdump -s` line: address, then 4 groups of 8 hex digits in 35 columns
# (missing bytes of the last line are blanks), then two spaces and ASCII.
# Fixed columns, because the ASCII part may itself look like hex.
DUMP_LINE = re.compile(r"^ ([0-9a-fA-F]+) (.{35})  ")
# `objdump -h`: "Idx Name Size VMA LMA File-off Algn", flags on the next line.
HEADER_LINE = re.compile(
    r"^\s*\d+\s+(\S+)\s+([0-9a-fA-F]+)\s+([0-9a-fA-F]+)\s+[0-9a-fA-F]+\s+([0-9a-fA-F]+)\s")
CODE_FLAG = re.compile(r"\bCODE\b")

# Prefixes objdump prints as separate words before the real mnemonic,
# e.g. `lock cli`, `ds cli`, `data16 cli`, `rep stos ...`.  They are
# stripped, so that a prefix cannot hide an instruction from an audit.
PREFIXES = {
    "lock", "rep", "repe", "repz", "repne", "repnz",
    "cs", "ds", "es", "fs", "gs", "ss",
    "data16", "data32", "addr16", "addr32",
    "notrack", "bnd", "xacquire", "xrelease",
}


class BinutilsError(RuntimeError):
    """A binutils program is missing, failed, or printed what we cannot read."""


class Section(NamedTuple):
    """One section header: [start, end) in memory, where it is in the file."""
    start: int
    end: int
    code: bool
    file_offset: int


class Insn(NamedTuple):
    """One disassembled instruction and the symbol objdump put it under."""
    function: str           # the symbol header's name, "?" before any
    function_addr: int      # that symbol's address (None before any)
    addr: int
    text: str               # objdump's AT&T text, mnemonic first


def repo_root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(env_name, default, args):
    """Run a binutils program (overridable like make's OBJDUMP=/NM=)."""
    program = os.environ.get(env_name, default)
    if shutil.which(program) is None:
        raise BinutilsError(f"{program} not found (set {env_name} to override)")
    proc = subprocess.run([program] + args, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BinutilsError(f"{program} {' '.join(args)} failed: {proc.stderr.strip()}")
    return proc.stdout


def objdump(args):
    return run("OBJDUMP", "objdump", args)


# ---- sections and symbols -------------------------------------------------

def section_headers(elf):
    """{name: Section} of every section, from objdump -h."""
    sections, pending = {}, None
    for line in objdump(["-h", elf]).splitlines():
        match = HEADER_LINE.match(line)
        if match:
            pending = (match.group(1), int(match.group(2), 16),
                       int(match.group(3), 16), int(match.group(4), 16))
        elif pending:  # the flags line that follows each header
            name, size, vma, offset = pending
            sections[name] = Section(vma, vma + size, bool(CODE_FLAG.search(line)), offset)
            pending = None
    return sections


def section_bytes(elf, name):
    """The contents of one (present) section, from objdump -s."""
    data, start = bytearray(), None
    listing = objdump(["-s", "-j", name, elf])
    for line in listing.split(f"Contents of section {name}:", 1)[-1].splitlines():
        match = DUMP_LINE.match(line)
        if not match:
            continue
        addr = int(match.group(1), 16)
        start = addr if start is None else start
        if addr != start + len(data):
            raise BinutilsError(f"unexpected objdump -s layout for {name} at {addr:#x}")
        data += bytes.fromhex(match.group(2).replace(" ", ""))
    return bytes(data)


def image_bytes(elf, addr, length):
    """length bytes of the linked image from address addr (objdump -s),
    or fewer where no section holds them.  The dump starts at the 16-byte
    line holding addr: from elsewhere, objdump groups the first line's
    bytes by their address, not in the columns DUMP_LINE reads."""
    start = addr & ~0xf
    data = bytearray()
    listing = objdump(["-s", f"--start-address={start:#x}",
                       f"--stop-address={addr + length:#x}", elf])
    for line in listing.splitlines():
        match = DUMP_LINE.match(line)
        if match and int(match.group(1), 16) == start + len(data):
            data += bytes.fromhex(match.group(2).replace(" ", ""))
    return bytes(data[addr - start:addr - start + length])


class Symbol(NamedTuple):
    """One line of nm -S."""
    name: str
    addr: int
    size: int               # None when the symbol has none (no .size)
    kind: str               # nm's letter: T/t code, D/d data, R/r read-only ...


def symbols(elf):
    """[Symbol] of every defined symbol, from nm -S, in nm's order."""
    result = []
    for line in run("NM", "nm", ["-S", elf]).splitlines():
        fields = line.split()
        if len(fields) == 4:
            result.append(Symbol(fields[3], int(fields[0], 16), int(fields[1], 16),
                                 fields[2]))
        elif len(fields) == 3 and fields[0] != "U":
            result.append(Symbol(fields[2], int(fields[0], 16), None, fields[1]))
    return result


# ---- disassembly ----------------------------------------------------------

def split_sections(listing):
    """[(section, [Insn])] from the text of objdump -d."""
    result, insns = [], None
    function, function_addr = "?", None
    for line in listing.splitlines():
        match = SECTION_HEADER.match(line)
        if match:
            insns = []
            result.append((match.group(1), insns))
            # A new section never inherits the previous section's symbol.
            function, function_addr = "?", None
            continue
        match = SYMBOL_HEADER.match(line)
        if match and insns is not None:
            function_addr, function = int(match.group(1), 16), match.group(2)
            continue
        match = INSTRUCTION_LINE.match(line)
        if match and insns is not None:
            insns.append(Insn(function, function_addr, int(match.group(1), 16),
                              match.group(2).strip()))
    return result


def disassemble(elf, every_zero=True):
    """[(section, [Insn])] of every executable section.

    every_zero (objdump -z): never elide runs of zero bytes as `...`, so
    the next instruction's address is always the exact end of this one.
    """
    zeros = ["-z"] if every_zero else []
    return split_sections(objdump(["-d", "-w"] + zeros + ["--no-show-raw-insn", elf]))


def split_instruction(text):
    """(mnemonic, [operands]) of an objdump AT&T line, or (None, []).

    None means "not an instruction": undecodable bytes `(bad)` or a stray
    prefix with nothing after it.
    """
    code = text.split("#", 1)[0].split("<", 1)[0]  # drop comments, symbol hints
    words = code.split()
    while words and words[0] in PREFIXES:
        words.pop(0)  # a prefix must not hide the instruction behind it
    if not words or words[0] == "(bad)":
        return None, []
    return words[0], split_operands("".join(words[1:]))


def split_operands(operands):
    """Split at commas outside parentheses: `0x4(%ebx,%eax,4),%edx` is two."""
    parts, depth, current = [], 0, ""
    for ch in operands:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return parts + [current] if current else parts


def normalized(text):
    """An instruction's text as one line with single spaces, no comment."""
    mnemonic, operands = split_instruction(text)
    if mnemonic is None:
        return " ".join(text.split())
    return f"{mnemonic} {','.join(operands)}".rstrip()
