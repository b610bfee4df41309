"""tests/suite/docs.py - the docs `make docs` generates are complete and
current, and README keeps to its part.

  docs-y           `make docs` (which make test runs first) made every
                   file of build/docs/ from the tree as it is, one for
                   each docs/*.md: none missing or older than what it is
                   made from (with every file tools/docs-fill recorded
                   reading for it), no directive left unfilled in any;
                   the boot options and shell commands tables of
                   cmdline.md and shell.md exactly what the source
                   declares with boot_option() and shell_command(), and
                   each of those described in its chapter; the op-uses
                   table of patching.md the ops of asm/paravirt.h, in
                   slot order; each patchlog line the
                   walkthrough quotes one the kernel prints now (QEMU's
                   default CPU, a 486, or pv=rom with the ROM) with its
                   "before" bytes those of the ELF, each `sites` record
                   it quotes from the trace session built as the ELF
                   holds it, a direct one calling its op's trace stub
                   and an inline one what the patcher writes at boot
                   (one of each at least), the ROM header it quotes
                   build/pvrom.bin's size and checksum, the bench chart's
                   bars bench.json's figures, the screen picture a PNG;
                   guest.md's table of tests left out in a guest the
                   KT_NOT_IN_GUEST tests of tests/kernel/, its cost table
                   bench.json's guest figures with a row for each target
                   tools/bench judges a guest by, and no run's figure
                   typed in docs/guest.md (a check shown to fail on a
                   source that types one).
  docs-source-y    the same without the bench, for make test: every
                   docs/ source (.md and .dot) fills by tools/docs-fill
                   --without-bench from the tree and the boot logs `make
                   docs-logs` made of the kernel as it is (none missing or
                   stale), with no directive left; then docs-y's checks of
                   what the sources quote, all but the bench's figures
                   (the chart's bars, guest.md's cost table).
  readme           README is at most README_MAX_LINES lines; every
                   `make TARGET` it names is a target of the Makefile,
                   every path it names in the tree (docs/, tools/,
                   tests/ ...) exists, and it types no figure that would
                   drift (a count of sites, ops, tests or instructions):
                   those live in build/docs/.
"""

import ast
import glob
import json
import os
import re
import struct
import subprocess
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
    # every docs/*.md (the chapters, the walkthrough, the exercises): see
    # DOCS_SOURCES below; what each one read beyond these, docs-fill
    # records in build/docs/deps/NAME.md.d.
    f"{DOCS_DIR}/patching.svg": ["docs/patching.dot"] + DOCS_QUOTED,
    f"{DOCS_DIR}/hypercall.svg": ["docs/hypercall.dot", "include/asm/switcher.h",
                                  "include/asm/hypercall.h"] + DOCS_QUOTED,
    f"{DOCS_DIR}/bench-ops.svg": ["build/bench.json", "tools/docs-bench-chart"],
    f"{DOCS_DIR}/bench-paths.svg": ["build/bench.json", "tools/docs-bench-chart"],
}
DOCS_SOURCES = sorted(os.path.basename(p) for p in glob.glob(os.path.join(ROOT, "docs/*.md")))
DOCS_INPUTS.update({f"{DOCS_DIR}/{name}": [f"docs/{name}"] + DOCS_QUOTED
                    for name in DOCS_SOURCES})
DOCS_DEPS = f"{DOCS_DIR}/deps"
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
        if output.endswith(".md"):
            read = recorded_inputs(output)
            if read is None:
                problems.append(f"{output} has no record of what it read "
                                f"({DOCS_DEPS}/{os.path.basename(output)}.d)")
                continue
            gone = [i for i in read if not os.path.exists(i)]
            if gone:
                problems.append(f"{output} read what is gone: {', '.join(gone)}")
                continue
            inputs = inputs + read
        newer = [i for i in inputs if os.path.getmtime(i) > os.path.getmtime(output)]
        if newer:
            problems.append(f"{output} is stale: older than {', '.join(newer)}")
    return problems


def recorded_inputs(output):
    """The files docs-fill recorded reading for output (make's form:
    `output: file ...`), or None without a record."""
    try:
        with open(f"{DOCS_DEPS}/{os.path.basename(output)}.d") as f:
            head = f.readline()
    except FileNotFoundError:
        return None
    target, _, files = head.partition(":")
    return files.split() if target.strip() == output else None


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


def docs_site_problems(log, build, where):
    """Each patchlog line the walkthrough filled in where quotes must be
    one the kernel prints now (QEMU's default CPU or a 486), and its
    bytes before patching those of the ELF at its address."""
    with open(f"{where}/walkthrough.md") as f:
        quoted = [line.rstrip("\n") for line in f if line.startswith("patch: ")]
    if not quoted:
        return ["the walkthrough quotes no patchlog line"]
    qemu32 = fresh_patchlog(log.replace(".log", "-qemu32.log"), build, "qemu32")
    printed = (qemu32 | fresh_patchlog(log.replace(".log", "-486.log"), build, "486") |
               fresh_patchlog(log.replace(".log", "-rom.log"), build, "qemu32", rom=True))
    problems = docs_shell_site_problems(build, qemu32, where)
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


def quoted_shell_sites(where):
    """[(address, op, state, now, built)] of each `sites` record the
    walkthrough quotes from a shell session."""
    with open(f"{where}/walkthrough.md") as f:
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


def docs_shell_site_problems(build, qemu32, where):
    """The sites records the walkthrough quotes: built as the ELF holds
    them, a direct one calling its op's trace stub, an inline one what
    the patcher writes at boot; one of each at least."""
    stubs = trace_stubs(build.elf)
    boot = {int(m.group(1), 16): bytes.fromhex(m.group(2).replace(" ", ""))
            for m in map(DOCS_PATCH_AFTER.match, qemu32) if m}
    records = quoted_shell_sites(where)
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


def docs_rom_problems(where):
    """The ROM header the walkthrough quotes is build/pvrom.bin's."""
    with open("build/pvrom.bin", "rb") as f:
        rom = f.read()
    with open(f"{where}/walkthrough.md") as f:
        text = f.read()
    size, checksum = struct.unpack_from("<II", rom, 8)
    return [f"the walkthrough does not quote build/pvrom.bin's {what}"
            for what, line in (("size", f"  8  size          {size}\n"),
                               ("checksum", f" 12  checksum      {checksum:#010x}\n"))
            if line not in text]


def screen_problems():
    """The screen docs-boot pictured is a PNG picture."""
    with open(f"{DOCS_DIR}/screen.png", "rb") as f:
        head = f.read(24)
    width, height = struct.unpack(">II", head[16:24]) if len(head) == 24 else (0, 0)
    if not head.startswith(PNG_SIGNATURE) or not width or not height:
        return [f"{DOCS_DIR}/screen.png is not a PNG picture"]
    return []


def docs_figure_problems():
    """The figures are what they claim: SVG that parses, each bench bar
    with bench.json's figure, the screen a PNG picture."""
    problems = screen_problems()
    for svg in ("patching.svg", "hypercall.svg", "bench-ops.svg", "bench-paths.svg"):
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
    return problems


# --- the tables drawn from the kernel's registries --------------------------

# Where the kernel's sources are (the Makefile's KERNEL_DIRS and
# PARAVIRT_DIRS): what declares boot options and shell commands.
KERNEL_SOURCES = ["boot", "arch/x86", "kernel", "tests/kernel"]
C_STRINGS = r'((?:"(?:[^"\\]|\\.)*"\s*)+)'
BOOT_OPTION_DECL = re.compile(r'\b(early_)?boot_option\(\s*"([^"]+)",\s*\w+,\s*' +
                              C_STRINGS + r'\)')
SHELL_COMMAND_DECL = re.compile(r'\bshell_command\(\s*"([^"]+)",\s*\w+,\s*' +
                                C_STRINGS + r',\s*' + C_STRINGS + r'\)')
TABLE_ROW = re.compile(r"^\| `([^`]+)` \|(.*)\|$")
DESCRIBED = re.compile(r"^- `([a-z_0-9]+)")


def c_string(literals):
    """The value of adjacent C string literals, "a" "b" -> ab."""
    return "".join(bytes(m, "utf-8").decode("unicode_escape")
                   for m in re.findall(r'"((?:[^"\\]|\\.)*)"', literals))


def kernel_sources():
    """{path: text} of every .c file of the kernel, comments and all."""
    texts = {}
    for top in KERNEL_SOURCES:
        for path in sorted(glob.glob(f"{top}/**/*.c", recursive=True)):
            with open(path) as f:
                texts[path] = f.read()
    return texts


def declared_boot_options():
    """{name: (help, when, file)}, as the source declares them."""
    return {m.group(2): (c_string(m.group(3)), "early" if m.group(1) else "with the others",
                         path)
            for path, text in kernel_sources().items()
            for m in BOOT_OPTION_DECL.finditer(text)}


def declared_shell_commands():
    """{name: [(usage, help, file)]}: a command may be declared once per
    build (kernel/shell/pv.c has a PARAVIRT=n twin of its three)."""
    commands = {}
    for path, text in kernel_sources().items():
        for m in SHELL_COMMAND_DECL.finditer(text):
            commands.setdefault(m.group(1), []).append(
                (c_string(m.group(2)), c_string(m.group(3)), path))
    return commands


def table_rows(text):
    """{first cell: [other cells]} of a markdown table's rows whose first
    cell is `code`, cells split at unescaped bars."""
    rows = {}
    for line in text.splitlines():
        m = TABLE_ROW.match(line)
        if m:
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", m.group(2))]
            rows[m.group(1)] = cells
    return rows


def described(text, heading):
    """The names a chapter's list under heading describes: `- \`NAME`."""
    section = text.split(heading, 1)[-1].split("\n## ", 1)[0] if heading in text else ""
    return {m.group(1) for m in map(DESCRIBED.match, section.splitlines()) if m}


def registry_problems(name, declared, rows, row_matches, descriptions):
    """What is wrong with a chapter's table of a registry: a declaration
    without a row, a row without a declaration or unlike it, one left
    undescribed in the chapter's list, or a description of nothing."""
    problems = [f"{name}: {item} is declared in the source but not in the table"
                for item in sorted(set(declared) - set(rows))]
    problems += [f"{name}: the table lists {item}, which the source does not declare"
                 for item in sorted(set(rows) - set(declared))]
    problems += [f"{name}: the table's row of {item} is not its declaration: {rows[item]}"
                 for item in sorted(set(rows) & set(declared))
                 if not row_matches(declared[item], rows[item])]
    problems += [f"{name}: {item} is not described (a `- \\`{item}` item)"
                 for item in sorted(set(declared) - descriptions)]
    problems += [f"{name}: describes {item}, which the source does not declare"
                 for item in sorted(descriptions - set(declared))]
    return problems


def read_doc(name, where=DOCS_DIR):
    with open(f"{where}/{name}") as f:
        return f.read()


def docs_registry_problems(where):
    """cmdline.md's and shell.md's tables are what the source declares,
    and each option and command is described; patching.md's op-uses
    table has every op of asm/paravirt.h, in slot order."""
    cmdline, shell = read_doc("cmdline.md", where), read_doc("shell.md", where)
    problems = registry_problems(
        "cmdline.md", declared_boot_options(), table_rows(cmdline),
        lambda decl, cells: cells[:3] == [decl[1], decl[0], decl[2]],
        described(cmdline, "## What each one does"))
    problems += registry_problems(
        "shell.md", declared_shell_commands(), table_rows(shell),
        lambda decls, cells: any(cells == [f"`{u}`" if u else "", h, f]
                                 for u, h, f in decls),
        described(shell, "## What each one does"))
    with open("include/asm/paravirt.h") as f:
        text = f.read()
    body = text[text.index("#define PARAVIRT_OPS(X)"):text.index("#define PARAVIRT_OP_MEMBER")]
    ops = re.findall(r"\bX\((\w+),", body)
    section = read_doc("patching.md", where).split("## Which feature uses which op", 1)[-1]
    listed = re.findall(r"^\| \d+ \| `(\w+)` \|", section, re.M)
    if listed != ops:
        problems.append(f"patching.md: the op-uses table lists {listed}, "
                        f"asm/paravirt.h's ops are {ops}")
    return problems


# --- docs/guest.md ------------------------------------------------------------

NOT_IN_GUEST_CALL = re.compile(r"\bKT_NOT_IN_GUEST\(")
KTEST_DEF = re.compile(r"^KTEST(?:_ALONE)?\((\w+)\)", re.M)
# A count a run or the tree changes, typed in docs/guest.md's source.
GUEST_FIGURE = re.compile(r"(?<![\w.-])\d+(?:[.,]\d+)*\s+(?:passed|failed|skipped|tests|guests|exits?|"
                          r"hypercalls?|world switch(?:es)?)\b")
GUEST_TABLE_SECTIONS = ("## What a guest leaves out", "## What it costs")
DIRECTIVE_TEXT = re.compile(r"<!-- docs:.*?-->", re.S)


def section(text, heading):
    """A chapter's text under heading, to the next heading of its level."""
    return text.split(heading, 1)[-1].split("\n## ", 1)[0] if heading in text else ""


def left_out_in_a_guest():
    """The tests of tests/kernel/*.c that hold a KT_NOT_IN_GUEST: each
    the last KTEST defined above it."""
    tests = set()
    for path in sorted(glob.glob("tests/kernel/*.c")):
        with open(path) as f:
            text = f.read()
        for call in NOT_IN_GUEST_CALL.finditer(text):
            above = [m.group(1) for m in KTEST_DEF.finditer(text, 0, call.start())]
            tests.add(above[-1] if above else f"(no test) {path}")
    return tests


def bench_constant(name):
    """A constant of tools/bench: NAME = a Python literal, on one line."""
    with open("tools/bench") as f:
        m = re.search(rf"^{name} = (.+?)\s*(?:#.*)?$", f.read(), re.M)
    return ast.literal_eval(m.group(1)) if m else None


def figure(x):
    """A bench.json figure as docs-fill writes it."""
    return "absent" if x is None else str(int(x)) if x == int(x) else f"{x:.2f}"


def guest_cost_problems(rows, bench):
    """guest.md's cost table: each row's patched native and guest
    figures bench.json's, and a row for each path and op tools/bench
    judges a guest by, and for the suite."""
    guest, problems = bench["guest"], []
    for name, cells in rows.items():
        if name == "suite":
            want = (guest["suite"]["native"], guest["suite"]["guest"])
        elif name in guest["paths"]:
            want = (bench["paths"][name]["patched"], guest["paths"][name])
        elif name in guest["ops"]:
            want = (bench["ops"][name]["patched"], guest["ops"][name])
        else:
            problems.append(f"guest.md: the cost table has a row {name}, which "
                            f"bench.json's guest part has not")
            continue
        if [c for c in cells[1:3]] != [figure(w) for w in want]:
            problems.append(f"guest.md: the cost table's {name} is {cells[1:3]}, "
                            f"bench.json's {[figure(w) for w in want]}")
    judged = list(bench_constant("GUEST_PATH_TARGETS") or {}) + \
        list(bench_constant("GUEST_ONE_INSTRUCTION") or ()) + ["suite"]
    problems += [f"guest.md: the cost table has no row for {name}, which tools/bench "
                 f"judges a guest by" for name in judged if name not in rows]
    return problems


def guest_source_problems(text):
    """docs/guest.md's source types no figure a run or the tree can
    change: no count outside a directive, no table row typed in the
    sections whose tables are generated."""
    bare = DIRECTIVE_TEXT.sub("", text)
    problems = [f"docs/guest.md types a figure a run can change: '{m.group(0)}' "
                "(name it with a docs: directive)" for m in GUEST_FIGURE.finditer(bare)]
    for heading in GUEST_TABLE_SECTIONS:
        problems += [f"docs/guest.md types a table row under '{heading}': {line} "
                     "(its tables are generated)"
                     for line in section(bare, heading).splitlines() if line.startswith("|")]
    return problems


def docs_guest_problems(where, with_bench=True):
    """guest.md's generated tables agree with what they are made from
    (its cost table only with_bench), and its source types none of them;
    the check of the source can fail."""
    text = read_doc("guest.md", where)
    left_out = set(table_rows(section(text, "## What a guest leaves out")))
    want = left_out_in_a_guest()
    problems = [f"guest.md: {t} holds KT_NOT_IN_GUEST but is not in the table of tests "
                "left out in a guest" for t in sorted(want - left_out)]
    problems += [f"guest.md: the table of tests left out in a guest lists {t}, which "
                 "holds no KT_NOT_IN_GUEST" for t in sorted(left_out - want)]
    if with_bench:
        with open("build/bench.json") as f:
            problems += guest_cost_problems(table_rows(section(text, "## What it costs")),
                                            json.load(f))
    with open("docs/guest.md") as f:
        source = f.read()
    problems += guest_source_problems(source)
    spoiled = source.replace("## What it costs\n", "## What it costs\n\n| a | 1 |\n") + \
        "\n(122 passed, 0 failed)\n"
    caught = guest_source_problems(spoiled)
    for what in ("122 passed", "| a | 1 |"):
        if not any(what in p for p in caught):
            problems.append(f"the guest.md check misses a source typing '{what}': "
                            "it cannot fail")
    return problems


def check_docs(log, build):
    """`make docs` made every file, from the tree as it is now: none
    missing or stale, no directive left unfilled, the quoted patch
    sites what the kernel prints and holds, the figures sound."""
    need_tool(QEMU, "qemu")
    need_file(build.elf, build.make("all"))
    problems = docs_stale()
    if not problems:
        problems = (unfilled_problems(DOCS_DIR) + docs_registry_problems(DOCS_DIR) +
                    docs_site_problems(log, build, DOCS_DIR) + docs_rom_problems(DOCS_DIR) +
                    docs_figure_problems() + docs_guest_problems(DOCS_DIR))
    with open(log, "w") as f:
        f.write("\n".join(problems or ["the docs are complete and current"]) + "\n")
    if problems:
        raise Failure(f"{problems[0]} (run `make docs`)", problems[1:])


def unfilled_problems(where):
    """A docs/*.md filled in where with a directive left in it."""
    return [f"{where}/{doc} has an unfilled directive" for doc in DOCS_SOURCES
            if "<!-- docs:" in read_doc(doc, where)]


# --- every docs/ source filled, bench figures aside ---------------------------

# The boot logs and the screen docs-boot makes (`make docs-logs`), which
# the sources quote.
DOCS_LOG_FILES = [f"{DOCS_LOGS}/patchlog.log", f"{DOCS_LOGS}/patchlog-486.log",
                  f"{DOCS_LOGS}/patchlog-rom.log", f"{DOCS_LOGS}/screen.log",
                  f"{DOCS_LOGS}/trace.log", f"{DOCS_DIR}/screen.png"]
DOCS_FILL_SOURCES = sorted(glob.glob("docs/*.md") + glob.glob("docs/*.dot"))


def fill_problems(where):
    """Each docs/ source filled by tools/docs-fill --without-bench into
    where: the problem it stops with, if any."""
    problems = []
    os.makedirs(where, exist_ok=True)
    for source in DOCS_FILL_SOURCES:
        with open(f"{where}/{os.path.basename(source)}", "w") as out:
            run = subprocess.run(["tools/docs-fill", "--without-bench", source],
                                 stdout=out, stderr=subprocess.PIPE, text=True)
        if run.returncode:
            problems.append(f"{source}: {run.stderr.strip() or 'docs-fill failed'}")
    return problems


def logs_stale():
    """The boot logs the sources quote: missing, or older than what makes them."""
    problems = []
    for output in DOCS_LOG_FILES:
        inputs = DOCS_INPUTS.get(output, DOCS_INPUTS[f"{DOCS_DIR}/screen.png"])
        if not os.path.isfile(output):
            problems.append(f"{output} is missing")
        elif any(os.path.getmtime(i) > os.path.getmtime(output) for i in inputs):
            problems.append(f"{output} is stale")
    return problems


def check_docs_source(log, build):
    """Every docs/ source fills from the tree and the kernel as they are
    now, its bench figures aside (docs-y checks those), and what it
    quotes is what the kernel declares, prints and holds."""
    need_tool(QEMU, "qemu")
    need_file(build.elf, build.make("all"))
    need_file("build/pvrom.bin", build.make("all"))
    problems = logs_stale()
    if problems:
        raise Failure(f"{problems[0]} (run `make docs-logs`)", problems[1:])
    where = log.replace(".log", "")
    problems = fill_problems(where)
    if not problems:
        problems = (unfilled_problems(where) + docs_registry_problems(where) +
                    docs_site_problems(log, build, where) + docs_rom_problems(where) +
                    screen_problems() + docs_guest_problems(where, with_bench=False))
    with open(log, "w") as f:
        f.write("\n".join(problems or [f"every docs/ source fills, bench figures aside "
                                       f"({where})"]) + "\n")
    if problems:
        raise Failure(problems[0], problems[1:])


# --- README ------------------------------------------------------------------

README_MAX_LINES = 250
README_MAKE = re.compile(r"\bmake (?:PARAVIRT=[yn] )?([a-z][a-z0-9-]*)")
README_PATH = re.compile(r"(?<![\w/.])((?:docs|tools|tests|include|boot|user|arch|kernel)"
                         r"/[\w./-]*[\w/])")
README_FIGURE = re.compile(r"\b\d[\d,.]*\s+(?:sites|ops|instructions|tests|checks)\b")
MAKE_RULE = re.compile(r"^([a-z][\w.-]*(?:\s+[a-z][\w.-]*)*)\s*:(?!=)", re.M)


def makefile_targets():
    """The names of the Makefile's rules and phony targets."""
    with open("Makefile") as f:
        text = f.read()
    targets = set()
    for m in MAKE_RULE.finditer(text):
        targets.update(m.group(1).split())
    for m in re.finditer(r"^\.PHONY:(.*)$", text, re.M):
        targets.update(m.group(1).split())
    return targets


def readme_problems(text):
    """What is wrong with README's text: too long, a make target the
    Makefile lacks, a path the tree lacks, a figure typed by hand."""
    lines = text.splitlines()
    problems = []
    if len(lines) > README_MAX_LINES:
        problems.append(f"README has {len(lines)} lines, more than {README_MAX_LINES}: "
                        "move the rest to docs/")
    targets = makefile_targets()
    problems += [f"README names `make {t}`, which the Makefile has no target for"
                 for t in sorted({m.group(1) for m in README_MAKE.finditer(text)} - targets)]
    problems += [f"README names {path}, which is not in the tree"
                 for path in sorted({m.group(1) for m in README_PATH.finditer(text)})
                 if not os.path.exists(path)]
    problems += [f"README types a figure that would drift: '{m.group(0)}' "
                 "(quote it from build/docs/ instead)" for m in README_FIGURE.finditer(text)]
    return problems


def check_readme(log):
    """README keeps to its length, its targets and paths exist, no
    figure typed; and the check can fail: a README made wrong on purpose
    must be refused on each count."""
    with open("README") as f:
        text = f.read()
    problems = readme_problems(text)
    spoiled = (text + "\n" * README_MAX_LINES +
               "make no-such-target\ndocs/no-such-chapter.md\n289 sites\n")
    caught = readme_problems(spoiled)
    for what in ("lines, more than", "no-such-target", "no-such-chapter", "289 sites"):
        if not any(what in p for p in caught):
            problems.append(f"the readme check misses a README with '{what}': it cannot fail")
    with open(log, "w") as f:
        f.write("\n".join(problems or [f"README: {len(text.splitlines())} lines, its "
                                        "targets and paths there, no figure typed"]) + "\n")
    if problems:
        raise Failure(problems[0], problems[1:])


def tests():
    return [Test("docs-y", check_docs, (Y,)),
            Test("docs-source-y", check_docs_source, (Y,)),
            Test("readme", check_readme)]
