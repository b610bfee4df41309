"""tests/suite/v86bugs.py - the v86 bug reports of docs/v86-bugs.md stay true.

  v86-bugs-reproduce  Each program of tests/v86bugs/ (build/v86bugs/*.elf,
                   a ring-3 iret that a CPU refuses) gets from a CPU the
                   exception the report says: QEMU's TCG for all but the
                   VM frame, Bochs for that one (TCG enters virtual-8086
                   mode from ring 3, which no CPU does).  In v86 (npm, by
                   tools/run-v86) each one the report calls a bug stops
                   the emulator with the Rust panic it quotes, and the VM
                   frame, which the report clears, runs as on a CPU.  The
                   report quotes each case's code as its file has it and
                   names the v86 version build/npm holds.  The day v86
                   answers a case like a CPU, this fails saying which, so
                   that the report and the gap list change with it.

Where a real CPU and v86 part ways matters to the browser page: an
emulator that panics takes the whole tab down (docs/web.md), so the
in-kernel suite in v86 must leave those tests out (notest=).
"""

import glob
import json
import os
import re
from dataclasses import dataclass

from .emulators import QEMU, qemu_command, read_serial, run_bochs, run_emulator
from .harness import Failure, Test, fresh_log, need_file, need_tool

PROGRAM_DIR = "build/v86bugs"
SOURCE_DIR = "tests/v86bugs"
REPORT = "docs/v86-bugs.md"
V86_PACKAGE = "build/npm/node_modules/v86/package.json"
RUN_V86 = "tools/run-v86"
LOADER_STAGES = ("build/loader/stage1.bin", "build/loader/stage2.bin")
MKBOOTIMG = "tools/mkbootimg"

# How tests/v86bugs/rig.S ends a run: the value it writes to port 0xf4,
# which QEMU's isa-debug-exit and tools/run-v86 both turn into the exit
# status (v << 1) | 1; run-v86 exits V86_PANICKED when v86 itself stops.
GP, NP, TS = 13, 11, 10
NO_FAULT = 0x40
V86_PANICKED = 3
RUN_TIMEOUT = 20          # seconds; each run takes about one
BOCHS_TIMEOUT = 30
PANIC_LINE = re.compile(r"^panicked at (src/rust/\S+):\d+:\d+:$")
CPU_RS = "src/rust/cpu/cpu.rs"


@dataclass(frozen=True)
class Case:
    """One program: what a CPU prints for it and the vector it exits
    with; the panic v86 stops with (None: v86 answers as a CPU does);
    the CPU to ask; the in-kernel test v86's run leaves out for it."""
    cpu_line: str
    cpu_vector: int
    panic: str = None
    cpu: str = "qemu"
    left_out: str = None


CASES = {
    "iret_to_ring0": Case("#GP(0008) at the iret", GP, "rpl < cpl",
                          left_out="priv:iret_to_kernel"),
    "iret_null_cs": Case("#GP(0000) at the iret", GP, "Unimplemented: CS selector is null"),
    "iret_cs_beyond_gdt": Case("#GP(0040) at the iret", GP,
                               "Unimplemented: CS selector is invalid",
                               left_out="crash:vm86_iret"),
    "iret_to_data_segment": Case("#GP(0020) at the iret", GP, "not exec"),
    "iret_to_empty_slot": Case("#GP(0030) at the iret", GP, "not present"),
    "iret_cs_not_present": Case("#NP(0038) at the iret", NP, "not present"),
    "iret_nested_task": Case("#TS(0000) at the iret", TS, "#GP handler"),
    "iret_vm86_frame": Case("no fault: landed at 001b:", NO_FAULT, cpu="bochs"),
}


def exit_status(vector):
    """The exit status a run that wrote vector to port 0xf4 ends with."""
    return (vector << 1) | 1


def program(name):
    """The built program of case name."""
    return f"{PROGRAM_DIR}/{name}.elf"


def scratch(log, name, suffix):
    """A file of this run next to the test's log."""
    return f"{log[:-len('.log')]}-{name}{suffix}"


def reported_line(lines, name):
    """What rig.S printed about the case: the text after "v86bugs: NAME: "."""
    prefix = f"v86bugs: {name}: "
    found = [line[len(prefix):] for line in lines if line.startswith(prefix)]
    return found[0] if found else None


def ask_qemu(log, name):
    """Run the program in QEMU: (status, the rig's line)."""
    serial = scratch(log, name, "-qemu.serial")
    fresh_log(serial)
    outcome = run_emulator(qemu_command(serial, "qemu32", ["-kernel", program(name)]),
                           RUN_TIMEOUT)
    return outcome.status, reported_line(read_serial(serial), name)


def ask_bochs(log, name):
    """Run the program in Bochs from a floppy of pv386's own loader (the
    rig never shuts Bochs down: stop at its line)."""
    image = scratch(log, name, ".img")
    serial = scratch(log, name, "-bochs.serial")
    made = run_emulator([MKBOOTIMG, "--stage1", LOADER_STAGES[0], "--stage2",
                         LOADER_STAGES[1], "--kernel", program(name), "--floppy", image],
                        RUN_TIMEOUT)
    if made.status != 0:
        raise Failure(f"{name}: {MKBOOTIMG} failed (status {made.status})",
                      made.output.splitlines())
    _, trouble = run_bochs(serial, image, "bx_generic", BOCHS_TIMEOUT,
                           until=f"v86bugs: {name}: ", floppy=True)
    line = reported_line(read_serial(serial), name)
    return (None if trouble else 0), line


def cpu_problems(log, name, case):
    """What is wrong with the CPU's answer: it must print the case's line
    (QEMU: and exit with its vector)."""
    status, line = (ask_bochs if case.cpu == "bochs" else ask_qemu)(log, name)
    with open(log, "a") as f:
        f.write(f"{name}: {case.cpu}: status {status}, {line!r}\n")
    if line is None or not line.startswith(case.cpu_line):
        return [f"{name}: {case.cpu} printed {line!r}, not {case.cpu_line!r}: the "
                "program no longer shows what a CPU does; fix it before the report"]
    if case.cpu == "qemu" and status != exit_status(case.cpu_vector):
        return [f"{name}: QEMU exited {status}, not {exit_status(case.cpu_vector)}"]
    return []


def run_v86(name):
    """Run the program in v86: (status, its output)."""
    outcome = run_emulator([RUN_V86, "--kernel", program(name), "--no-bios",
                            "--timeout", str(RUN_TIMEOUT)], RUN_TIMEOUT + 10)
    return outcome.status, outcome.output


@dataclass(frozen=True)
class Panic:
    """v86's Rust panic: its source file, its message, and the two lines
    it printed ("panicked at FILE:LINE:COLUMN:", the message)."""
    file: str
    message: str
    text: str


def panic_in(output):
    """The Panic v86 printed in output, or None."""
    lines = [line.strip() for line in output.splitlines()]
    for i, line in enumerate(lines[:-1]):
        match = PANIC_LINE.match(line)
        if match:
            return Panic(match.group(1), lines[i + 1], f"{line}\n{lines[i + 1]}")
    return None


def v86_problems(log, name, case, report):
    """What is wrong with v86's answer: a bug must still panic with its
    message, which the report quotes as v86 printed it (where in cpu.rs
    too); a case the report clears must still run as on a CPU."""
    status, output = run_v86(name)
    line = reported_line(output.splitlines(), name)
    panic = panic_in(output)
    with open(log, "a") as f:
        f.write(f"{name}: v86: status {status}, {panic.text if panic else line!r}\n")
    if case.panic is None:
        if status == exit_status(case.cpu_vector) and line and line.startswith(case.cpu_line):
            return []
        return [f"{name}: v86 no longer answers as a CPU does (status {status}, "
                f"{panic.text if panic else line!r}): update {REPORT}"]
    if status == V86_PANICKED and panic and (panic.file, panic.message) == (CPU_RS, case.panic):
        if panic.text in report:
            return []
        return [f"{name}: {REPORT} does not quote v86's panic as it printed it: "
                f"{panic.text!r}"]
    gap = f" and tests/suite/gaps/v86.py's LEFT_OUT ({case.left_out})" if case.left_out else ""
    if status == V86_PANICKED:
        said = panic.text if panic else output.strip().splitlines()[-1:]
        return [f"{name}: v86 stops with {said!r}, not the panic {case.panic!r} in "
                f"{CPU_RS}: update {REPORT}"]
    return [f"{name}: v86 no longer panics on {name} (status {status}, {line!r}): "
            f"update {REPORT}{gap}"]


def case_code(name):
    """The case file's code: its lines after the header comment."""
    with open(f"{SOURCE_DIR}/{name}.S") as f:
        text = f.read()
    return text[text.index("*/\n") + 3:].strip("\n")


def programs_listed():
    """Every case file of tests/v86bugs/ is a case here, and no other."""
    files = {os.path.basename(path)[:-len(".S")]
             for path in glob.glob(f"{SOURCE_DIR}/iret_*.S")}
    return ([f"{SOURCE_DIR}/{name}.S is not in CASES: say what a CPU and v86 do with it"
             for name in sorted(files - set(CASES))] +
            [f"CASES names {name}, which {SOURCE_DIR}/ does not have"
             for name in sorted(set(CASES) - files)])


def report_problems(report):
    """The report quotes each case's code as it is, and names the v86
    version that build/npm holds."""
    with open(V86_PACKAGE) as f:
        version = json.load(f)["version"].split("+")[0]
    problems = [f"{REPORT} does not quote {SOURCE_DIR}/{name}.S's code as it is"
                for name in CASES if case_code(name) not in report]
    if f"v86 {version}" not in report:
        problems.append(f"{REPORT} does not name v86 {version}, the version build/npm holds")
    return problems


def check_v86_bugs(log):
    """Each program: a CPU's answer, then v86's; then the report."""
    need_tool(QEMU, "qemu")
    need_tool("node", "web")
    need_file(V86_PACKAGE, "tools/ensure-deps web")
    for stage in LOADER_STAGES:
        need_file(stage, "make images")
    for name in CASES:
        need_file(program(name), "make")
    fresh_log(log)
    problems = programs_listed()
    if problems:
        raise Failure(problems[0], problems[1:])
    with open(REPORT) as f:
        report = f.read()
    for name, case in CASES.items():
        problems += cpu_problems(log, name, case)
        problems += v86_problems(log, name, case, report)
    problems += report_problems(report)
    if problems:
        raise Failure(problems[0], problems[1:])


def tests():
    return [Test("v86-bugs-reproduce", check_v86_bugs)]
