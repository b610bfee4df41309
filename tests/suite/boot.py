"""tests/suite/boot.py - boots without the in-kernel suite: plain, and in trouble.

  boot-*           The normal ISO boots through GRUB to the line
                   `pv386 ready: backend=...` naming the right backend.
  bad-magic-*      Started with a wrong Multiboot magic in EAX, the kernel
                   says so and halts instead of booting.
  dirty-eflags-*   Entered with NT, AC, IOPL 3 and DF set in EFLAGS (by gdb
                   at _start), the kernel boots and passes the in-kernel
                   suite.
  bad-info-*       Entered with a broken Multiboot info block (spoiled by
                   gdb at _start: command line pointer 0, a map entry too
                   short, a module ending before it starts), the kernel
                   says what it ignored and boots.
  panic-report-*   A kernel page fault on purpose (test_panic.c): the
                   report gives the faulting instruction's address (from
                   the ELF's symbols) and the address loaded from, and
                   QEMU exits with the failure status.
"""

import subprocess

from .builds import N, USER_PROGRAM_DIR, Y
from .emulators import (BOOT_TIMEOUT, KTEST_QEMU_TIMEOUT, QEMU, QEMU_FAIL, QEMU_PASS,
                        boot_under_gdb, qemu_command, qemu_until, read_serial,
                        run_bochs, run_emulator)
from .harness import Failure, Test, fresh_log, last_lines, need_file, need_tool
from .judge import (boot_problem, ktest_problem, line_has, log_details, missing_lines,
                    no_line_starting)


def qemu_boot(log, build):
    """Boot the normal ISO through GRUB.  The kernel then idles forever,
    so stop QEMU once the ready line (or a panic) is in the log."""
    need_tool(QEMU, "qemu")
    need_file(build.iso, build.make("iso"))
    outcome, lines = qemu_until(log, "qemu32", ["-cdrom", build.iso], "pv386 ready:",
                                BOOT_TIMEOUT)
    problem = boot_problem(lines, build)
    if problem == "no 'pv386 ready:' line":
        if outcome.timed_out:
            problem += f": {outcome.why}"
        else:
            problem += f": QEMU exited first, with status {outcome.status}"
    if problem:
        raise Failure(problem, log_details(log, lines, outcome.output))


def bochs_boot(log, build):
    need_file(build.iso, build.make("iso"))
    # Stop at any ready line or panic, not only the expected ready line:
    # a wrong backend or a crash then fails at once with a clear reason
    # instead of waiting out the timeout.  boot_problem() judges the line.
    until = "^pv386 ready:|KERNEL PANIC"
    outcome, problem = run_bochs(log, build.iso, "p3_katmai", BOOT_TIMEOUT * 2,
                                 until=until)
    lines = read_serial(log)
    problem = problem or boot_problem(lines, build)
    if problem:
        raise Failure(problem, log_details(log, lines, outcome.output))


def qemu_boot_backend(log, build, append, ready):
    """Boot the ELF with options append, no test: the kernel idles after
    the ready line, which must start with ready; stop QEMU there."""
    need_tool(QEMU, "qemu")
    need_file(build.elf, build.make("all"))
    outcome, lines = qemu_until(log, "qemu32", ["-kernel", build.elf, "-append", append],
                                "pv386 ready:", BOOT_TIMEOUT)
    problem = no_line_starting(lines, [ready])
    if problem:
        raise Failure(problem, log_details(log, lines, outcome.output))


def bad_magic(log, build):
    """A loader that is not Multiboot: _start must say so and halt.

    QEMU always passes the right magic, so gdb stops the CPU at _start
    and puts a wrong value in EAX before letting it run."""
    expected = "pv386: not started by a Multiboot loader: EAX=00001234"
    lines, _, debugger = boot_under_gdb(
        log, build, ["set $eax = 0x1234"],
        done=lambda lines: not missing_lines(lines, [expected]))
    problem = no_line_starting(lines, [expected])
    if problem:
        raise Failure(problem, log_details(log, lines, debugger))
    if any(line.startswith("pv386 ready") for line in lines):
        raise Failure("the kernel booted on anyway", log_details(log, lines))


# Boots that run user programs (boot option run=) and must end with


# A loader's info block gone wrong, made from QEMU's good one by gdb at
# _start (EBX holds its address; offsets from the Multiboot spec): the
# command line pointer 0 (offset 16), the second map entry's size 12
# (the map at offset 48, entries 24 bytes), and the module (list at
# offset 24) ending at 4 KiB, before its start.  The map then holds only
# low RAM, so mem_lower/mem_upper stand in for it.
BAD_INFO_GDB = [
    "set *(unsigned int *)($ebx + 16) = 0",
    "set *(unsigned int *)(*(unsigned int *)($ebx + 48) + 24) = 12",
    "set *(unsigned int *)(*(unsigned int *)($ebx + 24) + 4) = 0x1000",
]
BAD_INFO_LINES = [
    "cmdline: pointer is 0, ignored$",
    "mem: map entry 1 has size 12 (less than 20), map cut there$",
    "mem: the memory map has no RAM above 1 MiB, RAM from mem_lower and mem_upper$",
    "module 0 (hello.elf) at ",
    "ends at 00001000, before its start, ignored",
    "mem: map of 1 regions, 639 KiB available$",
    "pv386 ready: ",
]


def bad_info(log, build):
    """The kernel boots on a broken info block and says what it ignored
    (arch/x86/kernel/firmware/multiboot_parse.c; the native tests cover every case, this
    shows the kernel prints the notes as they read there)."""
    lines, _, debugger = boot_under_gdb(
        log, build, BAD_INFO_GDB, timeout=BOOT_TIMEOUT,
        done=lambda lines: any(line.startswith("pv386 ready") or "KERNEL PANIC" in line
                               for line in lines),
        qemu_extra=("-initrd", f"{USER_PROGRAM_DIR}/hello.elf"))
    problem = boot_problem(lines, build)
    missing = [e for e in BAD_INFO_LINES if not any(line_has(line, e) for line in lines)]
    if not problem and missing:
        problem = "missing: " + ", ".join(repr(m) for m in missing)
    if problem:
        raise Failure(problem, log_details(log, lines, debugger))


# What a loader may leave in EFLAGS that Multiboot does not forbid (it
# promises only IF=0 and VM=0): NT, which would turn the first iret into
# a task switch, AC, IOPL 3 and DF, with the always-one bit 1.
DIRTY_EFLAGS = 0x00047402


def dirty_eflags(log, build):
    """Entered with dirty EFLAGS (set by gdb at _start), the kernel boots
    and passes the whole in-kernel suite.  NT shows only at an iret in the
    kernel's own context (sync_core, the trips to user mode): an interrupt
    clears it on entry, so a boot alone proves little."""
    lines, status, debugger = boot_under_gdb(
        log, build, [f"set $eflags = {DIRTY_EFLAGS:#x}", "print/x $eflags"],
        append="test", timeout=KTEST_QEMU_TIMEOUT)
    if f"= {DIRTY_EFLAGS:#x}" not in debugger:
        raise Failure(f"gdb did not set EFLAGS to {DIRTY_EFLAGS:#x}",
                      last_lines(debugger))
    problem = boot_problem(lines, build) or ktest_problem(lines)
    if problem is None and status != QEMU_PASS:
        problem = f"QEMU exit status {status}, expected {QEMU_PASS}"
    if problem:
        raise Failure(problem, log_details(log, lines, debugger))



# The crash test_panic.c makes, and what its report must say: the
# address it loads from (in page 0, never mapped) and where, by symbol.
PANIC_TEST = "panic_report_page_fault"
PANIC_TEST_INSN = "ktest_panic_fault_insn"
PANIC_TEST_ADDRESS = 0x00000bad


def symbol_address(elf, name):
    """The address of symbol name in elf, from nm."""
    need_tool("nm", "build")
    proc = subprocess.run(["nm", elf], capture_output=True, text=True)
    for line in proc.stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[2] == name:
            return int(fields[0], 16)
    raise Failure(f"{elf} has no symbol {name}")


def panic_report(log, build):
    """A page fault in the kernel at a known place, from a known address:
    the report names both, the registers agree, the panic follows, and the
    test runner's panic hook leaves QEMU with the failure status."""
    need_tool(QEMU, "qemu")
    need_file(build.elf, build.make("all"))
    fresh_log(log)
    eip = symbol_address(build.elf, PANIC_TEST_INSN)
    expect = [
        f"trap: page fault (#14) at {eip:08x}, address {PANIC_TEST_ADDRESS:08x} "
        "(not present, read)",
        f"  EIP: 0008:{eip:08x}  EFLAGS: ",
        "KERNEL PANIC: unhandled page fault in kernel mode",
    ]
    cmd = qemu_command(log, "qemu32", ["-kernel", build.elf, "-append",
                                       f"test={PANIC_TEST}"])
    outcome = run_emulator(cmd, KTEST_QEMU_TIMEOUT)
    lines = read_serial(log)
    dump = [line for line in lines if line.startswith("  EIP: 0008:")]
    cr2 = [line for line in lines if f"CR2: {PANIC_TEST_ADDRESS:08x} " in line]
    problem = None
    if outcome.timed_out:
        problem = (f"{outcome.why}: the panic did not leave the emulator "
                   "(the test runner's panic hook?)")
    elif outcome.status != QEMU_FAIL:
        problem = (f"QEMU exit status {outcome.status}, expected {QEMU_FAIL} "
                   "(the panic hook's failure status)")
    elif missing_lines(lines, expect):
        problem = no_line_starting(lines, expect)
    elif not dump or "error: 00000000" not in dump[0]:
        problem = "the register dump does not give error code 00000000"
    elif not cr2:
        problem = f"no register dump shows CR2: {PANIC_TEST_ADDRESS:08x}"
    if problem:
        raise Failure(problem, log_details(log, lines, outcome.output))



def qemu_tests():
    return [Test("boot-qemu-y", qemu_boot, (Y,)),
            Test("boot-qemu-n", qemu_boot, (N,))]


def bochs_tests():
    return [Test("boot-bochs-y", bochs_boot, (Y,)),
            Test("boot-bochs-n", bochs_boot, (N,))]


def trouble_tests():
    """Boots in trouble on purpose: a wrong magic, dirty EFLAGS, a broken
    info block, a kernel page fault."""
    return [
        Test("bad-magic-y", bad_magic, (Y,)),
        Test("dirty-eflags-y", dirty_eflags, (Y,)),
        Test("dirty-eflags-n", dirty_eflags, (N,)),
        Test("bad-info-y", bad_info, (Y,)),
        Test("bad-info-n", bad_info, (N,)),
        Test("panic-report-y", panic_report, (Y,)),
        Test("panic-report-n", panic_report, (N,)),
    ]
