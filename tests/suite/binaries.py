"""tests/suite/binaries.py - checks of the built ELF files, no emulator.

  multiboot-*      GRUB recognises each ELF as a Multiboot kernel.
  symbols-*        The y kernel has a paravirt_ops symbol, the n kernel has
                   none: PARAVIRT=n really compiles the indirection away.
  audit-*          tools/audit-privileged finds no privileged instruction
                   outside native_* functions, and its self-test shows that
                   it can catch each one it names.
  audit-sites-*    tools/audit-sites finds every call through paravirt_ops
                   to a patchable op inside a recorded patch site (one
                   outside could never be patched), and its self-test.
  audit-natives-*  tools/audit-natives: each native_* function holds its
                   instruction, each faulting one its exception-table
                   entry, and the code writer serializes (what no emulator
                   can show); its self-test plants each bug in a copy of
                   the kernel and shows it caught.
  audit-calls*     tools/audit-calls: in both builds' objects, arch/ calls
                   kernel/ only through include/arch_door.h, no files call
                   each other in a loop outside that door, the rest of
                   the kernel calls the host (arch/x86/host/) only through
                   include/asm/host.h, and the kernel never calls test
                   code; its self-test builds tiny trees
                   that break each rule and shows each caught.

The audits' self-tests are tests/audit_selftests/*.py.
"""

import sys

from .builds import N, Y
from .harness import Failure, Test, last_lines, need_file, need_tool, run_command


def check_multiboot(log, build):
    need_tool("grub-file", "iso")
    need_file(build.elf, build.make("all"))
    status, output = run_command(["grub-file", "--is-x86-multiboot", build.elf], log)
    if status != 0:
        raise Failure(f"grub-file does not see a Multiboot header in {build.elf}",
                      last_lines(output))


def symbol_names(elf, log):
    need_tool("nm", "build")
    status, output = run_command(["nm", elf], log)
    if status != 0:
        raise Failure(f"nm {elf} failed (status {status})", last_lines(output))
    # nm prints "ADDRESS TYPE NAME", or "TYPE NAME" for undefined symbols.
    return {line.split()[-1] for line in output.splitlines() if line.strip()}


def check_symbol(log, build, symbol, present):
    need_file(build.elf, build.make("all"))
    found = symbol in symbol_names(build.elf, log)
    if found and not present:
        raise Failure(f"{build.elf} defines {symbol}, but PARAVIRT={build.paravirt} "
                      f"should compile it away")
    if present and not found:
        raise Failure(f"{build.elf} has no symbol {symbol}")


def check_audit(log, build, tool):
    """A binary audit (tools/audit-*) passes on the kernel."""
    need_file(build.elf, build.make("all"))
    status, output = run_command([sys.executable, tool, build.elf], log)
    if status != 0:
        raise Failure(f"{tool} {build.elf} exited with status {status}",
                      last_lines(output))


def check_call_graph(log, builds):
    """tools/audit-calls passes on the objects of every build."""
    folders = [build.dir + "/obj" for build in builds]
    for build, folder in zip(builds, folders):
        need_file(build.elf, build.make("all"))
    status, output = run_command([sys.executable, "tools/audit-calls", *folders], log)
    if status != 0:
        raise Failure(f"tools/audit-calls exited with status {status}", last_lines(output))


def check_selftest(log, script, kernels=()):
    """An audit's self-test: it shows the audit can fail, and pass.
    Some doctor copies of the built kernels, which must exist."""
    for build in kernels:
        need_file(build.elf, build.make("all"))
    status, output = run_command([sys.executable, script], log)
    if status != 0:
        raise Failure(f"{script} exited with status {status}", last_lines(output))


def tests():
    return [
        Test("multiboot-y", check_multiboot, (Y,)),
        Test("multiboot-n", check_multiboot, (N,)),
        Test("symbols-y", check_symbol, (Y, "paravirt_ops", True)),
        Test("symbols-n", check_symbol, (N, "paravirt_ops", False)),
        Test("audit-y", check_audit, (Y, "tools/audit-privileged")),
        Test("audit-selftest", check_selftest, ("tests/audit_selftests/privileged.py",)),
        Test("audit-sites-y", check_audit, (Y, "tools/audit-sites")),
        Test("audit-sites-selftest", check_selftest, ("tests/audit_selftests/sites.py",)),
        Test("audit-natives-y", check_audit, (Y, "tools/audit-natives")),
        Test("audit-natives-selftest", check_selftest,
             ("tests/audit_selftests/natives.py", (Y, N))),
        Test("audit-calls", check_call_graph, ((Y, N),)),
        Test("audit-calls-selftest", check_selftest, ("tests/audit_selftests/calls.py",)),
    ]
