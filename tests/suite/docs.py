"""tests/suite/docs.py - the course docs `make docs` generates are complete and current.

  docs-y           `make docs` (which make test runs first) made every
                   file of build/docs/ from the tree as it is: none
                   missing or older than what it is made from, no
                   directive left unfilled, each patchlog line the
                   walkthrough quotes one the kernel prints now (QEMU's
                   default CPU, a 486, or pv=rom with the ROM) with its
                   "before" bytes those of the ELF, each `sites` record
                   it quotes from the trace session built as the ELF
                   holds it, a direct one calling its op's trace stub
                   and an inline one what the patcher writes at boot
                   (one of each at least), the ROM header it quotes
                   build/pvrom.bin's size and checksum, the bench chart's
                   bars bench.json's figures, the screen picture a PNG.
"""

import json
import os
import re
import struct
import sys
import xml.etree.ElementTree as ET

from .builds import Y
from .emulators import BOOT_TIMEOUT, QEMU, qemu_command, read_serial, run_emulator
from .harness import ROOT, Failure, Test, fresh_log, need_file, need_tool

sys.path.insert(0, os.path.join(ROOT, "tools"))
import binscan  # noqa: E402  (tools/binscan.py: reads the ELF through binutils)

DOCS_DIR = "build/docs"
DOCS_LOGS = f"{DOCS_DIR}/logs"
DOCS_QUOTED = [f"{DOCS_LOGS}/patchlog.log", f"{DOCS_LOGS}/patchlog-486.log",
               f"{DOCS_LOGS}/patchlog-rom.log",
               f"{DOCS_DIR}/screen.png", f"{DOCS_LOGS}/trace.log", "build/bench.json",
               "build/pv386.elf", "build/nopv/pv386.elf", "build/pvrom.bin",
               "docs/screen-session", "docs/trace-session", "include/asm/paravirt.h",
               "include/asm/rom.h", "kernel/main.c", "arch/x86/paravirt/switch.c",
               "arch/x86/paravirt/patch/patch.c", "arch/x86/mm/paging.c", "tools/docs-fill",
               "tools/binscan.py"]
# What each generated file is made from: the Makefile's docs rules, so
# that what make would redo, this test calls stale.
DOCS_INPUTS = {
    "build/bench.json": ["build/pv386.elf", "build/nopv/pv386.elf", "tools/bench"],
    f"{DOCS_LOGS}/patchlog.log": ["build/pv386.elf", "tools/docs-boot"],
    f"{DOCS_LOGS}/patchlog-486.log": ["build/pv386.elf", "tools/docs-boot"],
    f"{DOCS_LOGS}/patchlog-rom.log": ["build/pv386.elf", "build/pvrom.bin",
                                      "tools/docs-boot"],
    f"{DOCS_DIR}/screen.png": ["build/pv386.elf", "docs/screen-session",
                               "tools/docs-boot"],
    f"{DOCS_LOGS}/screen.log": ["build/pv386.elf", "docs/screen-session",
                                "tools/docs-boot"],
    f"{DOCS_LOGS}/trace.log": ["build/pv386.elf", "docs/trace-session",
                               "tools/docs-boot"],
    f"{DOCS_DIR}/walkthrough.md": ["docs/walkthrough.md"] + DOCS_QUOTED,
    f"{DOCS_DIR}/exercises.md": ["docs/exercises.md"] + DOCS_QUOTED,
    f"{DOCS_DIR}/patching.svg": ["docs/patching.dot"] + DOCS_QUOTED,
    f"{DOCS_DIR}/bench-ops.svg": ["build/bench.json", "tools/docs-bench-chart"],
    f"{DOCS_DIR}/bench-paths.svg": ["build/bench.json", "tools/docs-bench-chart"],
}
DOCS_PATCH_LINE = re.compile(r"^patch: ([0-9a-f]{8}) .*?: ([0-9a-f ]+) -> ")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def docs_stale():
    """Problems with the generated docs' files: missing, or older than
    something they are made from."""
    problems = []
    for output, inputs in DOCS_INPUTS.items():
        if not os.path.isfile(output):
            problems.append(f"{output} is missing")
            continue
        newer = [i for i in inputs if os.path.getmtime(i) > os.path.getmtime(output)]
        if newer:
            problems.append(f"{output} is stale: older than {', '.join(newer)}")
    return problems


def fresh_patchlog(log, build, cpu, rom=False):
    """The patchlog lines of the kernel as it is now, booted on cpu (with
    the ops ROM: pv=rom and build/pvrom.bin as a module)."""
    fresh_log(log)

    def ready():
        return any(line.startswith("pv386 ready:") for line in read_serial(log))

    boot = (["-append", "pv=rom patchlog", "-initrd", "build/pvrom.bin"] if rom else
            ["-append", "patchlog"])
    cmd = qemu_command(log, cpu, ["-kernel", build.elf] + boot)
    run_emulator(cmd, BOOT_TIMEOUT, done=ready)
    return {line for line in read_serial(log) if line.startswith("patch: ")}


def docs_site_problems(log, build):
    """Each patchlog line the walkthrough quotes must be one the kernel
    prints now (QEMU's default CPU or a 486), and its bytes before
    patching those of the ELF at its address."""
    with open(f"{DOCS_DIR}/walkthrough.md") as f:
        quoted = [line.rstrip("\n") for line in f if line.startswith("patch: ")]
    if not quoted:
        return ["the walkthrough quotes no patchlog line"]
    qemu32 = fresh_patchlog(log.replace(".log", "-qemu32.log"), build, "qemu32")
    printed = (qemu32 | fresh_patchlog(log.replace(".log", "-486.log"), build, "486") |
               fresh_patchlog(log.replace(".log", "-rom.log"), build, "qemu32", rom=True))
    problems = docs_shell_site_problems(build, qemu32)
    for line in quoted:
        m = DOCS_PATCH_LINE.match(line)
        before = bytes.fromhex(m.group(2).replace(" ", "")) if m else b""
        if line not in printed:
            problems.append(f"the kernel no longer prints: {line}")
        elif binscan.image_bytes(build.elf, int(m.group(1), 16), len(before)) != before:
            problems.append(f"the ELF does not hold the bytes before of: {line}")
    return problems


DOCS_SITES_RECORD = re.compile(r"^([0-9a-f]{8}) +(\w+) +(\w+)\+0x[0-9a-f]+ +(\w+)")
DOCS_PATCH_AFTER = re.compile(r"^patch: ([0-9a-f]{8}) .*? -> ([0-9a-f ]+) \(")


def quoted_shell_sites():
    """[(address, op, state, now, built)] of each `sites` record the
    walkthrough quotes from a shell session."""
    with open(f"{DOCS_DIR}/walkthrough.md") as f:
        lines = [line.rstrip("\n") for line in f]
    records = []
    for i, line in enumerate(lines[:-2]):
        m = DOCS_SITES_RECORD.match(line)
        now, built = lines[i + 1].split(":", 1), lines[i + 2].split(":", 1)
        if m and now[0].strip() == "now" and built[0].strip() == "built":
            records.append((int(m.group(1), 16), m.group(2), m.group(4),
                            bytes.fromhex(now[1].replace(" ", "")),
                            bytes.fromhex(built[1].replace(" ", ""))))
    return records


def direct_target(address, now):
    """Where the call rel32 (e8) or jmp rel32 (e9) in a site's bytes goes."""
    for at in range(len(now) - 4):
        if now[at] in (0xe8, 0xe9):
            rel = int.from_bytes(now[at + 1:at + 5], "little", signed=True)
            return (address + at + 5 + rel) & 0xffffffff
    return None


def trace_stubs(elf):
    """{op: address of its trace stub}, from the ELF's paravirt_trace_stubs
    (one pointer a slot) and the ops' order in asm/paravirt.h."""
    with open("include/asm/paravirt.h") as f:
        text = f.read()
    body = text[text.index("#define PARAVIRT_OPS(X)"):text.index("#define PARAVIRT_OP_MEMBER")]
    ops = re.findall(r"\bX\((\w+),", body)
    syms = {s.name: s for s in binscan.symbols(elf)}
    size = syms["native_paravirt_ops"].size     # a table's size: the array has none
    data = binscan.image_bytes(elf, syms["paravirt_trace_stubs"].addr, size)
    first = size // 4 - len(ops)
    return {op: int.from_bytes(data[4 * (first + i):4 * (first + i) + 4], "little")
            for i, op in enumerate(ops)}


def docs_shell_site_problems(build, qemu32):
    """The sites records the walkthrough quotes: built as the ELF holds
    them, a direct one calling its op's trace stub, an inline one what
    the patcher writes at boot; one of each at least."""
    stubs = trace_stubs(build.elf)
    boot = {int(m.group(1), 16): bytes.fromhex(m.group(2).replace(" ", ""))
            for m in map(DOCS_PATCH_AFTER.match, qemu32) if m}
    records = quoted_shell_sites()
    problems = [f"the walkthrough quotes no {state} site from a shell session"
                for state in ("direct", "inline") if state not in {r[2] for r in records}]
    for address, op, state, now, built in records:
        if binscan.image_bytes(build.elf, address, len(built)) != built:
            problems.append(f"the ELF does not hold the built bytes of site {address:08x}")
        elif state == "direct" and direct_target(address, now) != stubs.get(op):
            problems.append(f"site {address:08x} is quoted as a direct call, not to "
                            f"the trace stub of {op}")
        elif state == "inline" and boot.get(address) != now:
            problems.append(f"site {address:08x} is quoted inline as bytes the "
                            f"patcher does not write at boot")
    return problems


def docs_rom_problems():
    """The ROM header the walkthrough quotes is build/pvrom.bin's."""
    with open("build/pvrom.bin", "rb") as f:
        rom = f.read()
    with open(f"{DOCS_DIR}/walkthrough.md") as f:
        text = f.read()
    size, checksum = struct.unpack_from("<II", rom, 8)
    return [f"the walkthrough does not quote build/pvrom.bin's {what}"
            for what, line in (("size", f"  8  size          {size}\n"),
                               ("checksum", f" 12  checksum      {checksum:#010x}\n"))
            if line not in text]


def docs_figure_problems():
    """The figures are what they claim: SVG that parses, each bench bar
    with bench.json's figure, the screen a PNG picture."""
    problems = []
    for svg in ("patching.svg", "bench-ops.svg", "bench-paths.svg"):
        try:
            ET.parse(f"{DOCS_DIR}/{svg}")
        except ET.ParseError as error:
            problems.append(f"{DOCS_DIR}/{svg} is not SVG: {error}")
    with open("build/bench.json") as f:
        bench = json.load(f)
    with open(f"{DOCS_DIR}/bench-ops.svg") as f:
        chart = f.read()
    problems += [f"bench-ops.svg has no bar '{op} {mode} {value:g}' from bench.json"
                 for op, figures in bench["ops"].items()
                 for mode, value in figures.items()
                 if f"<title>{op} {mode} {value:g}</title>" not in chart]
    with open(f"{DOCS_DIR}/screen.png", "rb") as f:
        head = f.read(24)
    width, height = struct.unpack(">II", head[16:24]) if len(head) == 24 else (0, 0)
    if not head.startswith(PNG_SIGNATURE) or not width or not height:
        problems.append(f"{DOCS_DIR}/screen.png is not a PNG picture")
    return problems


def check_docs(log, build):
    """`make docs` made every file, from the tree as it is now: none
    missing or stale, no directive left unfilled, the quoted patch
    sites what the kernel prints and holds, the figures sound."""
    need_tool(QEMU, "qemu")
    need_file(build.elf, build.make("all"))
    problems = docs_stale()
    if not problems:
        for doc in ("walkthrough.md", "exercises.md"):
            with open(f"{DOCS_DIR}/{doc}") as f:
                if "<!-- docs:" in f.read():
                    problems.append(f"{DOCS_DIR}/{doc} has an unfilled directive")
        problems += (docs_site_problems(log, build) + docs_rom_problems() +
                     docs_figure_problems())
    with open(log, "w") as f:
        f.write("\n".join(problems or ["the docs are complete and current"]) + "\n")
    if problems:
        raise Failure(f"{problems[0]} (run `make docs`)", problems[1:])


def tests():
    return [Test("docs-y", check_docs, (Y,))]
