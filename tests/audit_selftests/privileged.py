#!/usr/bin/env python3
"""tests/audit_selftests/privileged.py - tools/audit-privileged can both fail and pass.

Tiny ELF files whose right verdict is known:
  bad.elf     a privileged `cli` in bad_function                 -> exit 1
  plants.elf  one function per instruction the audit names (every one
              of tools/audit-privileged's lists, mov to and from %cr,
              %db and %tr registers, sized and prefixed forms)   -> exit 1,
              each named by its function and mnemonic
  good.elf    privileged code only in native_good, plus a
              .user.text section that runs `cli` in ring 3 and a
              .switcher section (the world switch) loading cr3,
              and a .trampoline section (the APs' real-mode start)
              loading the GDT and CR0                            -> exit 0
  empty.elf   no privileged instruction anywhere                 -> non-zero
              (vacuous scan)
  a missing file                                                 -> exit 2
and a few look-alike mnemonics (clc, cld, stos, in, out, sysenter) that
must NOT be reported, since drivers and user code use them legitimately.
"""

import importlib.machinery
import importlib.util
import sys

from harness import SelfTest, lines_matching

# The allowed function every test ELF but the empty one starts with.
NATIVE_GOOD = """
    .text
    .globl native_good
native_good:
    cli
    sti
    mov %cr0, %eax
    ret
"""

# A line naming a violation: FUNCTION+OFFSET (ADDRESS) in SECTION.
VIOLATION = r": .*\+0x[0-9a-f]* \(0x[0-9a-f]*\) in "

# One function per planted instruction, plant_ID, holding it as its
# first instruction: (ID, assembly, what objdump prints as a regex).
PLANTS = [
    ("cli", "cli", "cli"),
    ("sti", "sti", "sti"),
    ("hlt", "hlt", "hlt"),
    ("clts", "clts", "clts"),
    ("pushf", "pushfl", "pushf"),
    ("popf", "popfl", "popf"),
    ("pushfw", "pushfw", "pushfw"),
    ("popfw", "popfw", "popfw"),
    ("iret", "iret", "iret"),
    ("iretw", "iretw", "iretw"),
    ("sysexit", "sysexit", "sysexit"),
    ("mov_from_cr0", "mov %cr0, %eax", "mov +%cr0,%eax"),
    ("mov_to_cr0", "mov %eax, %cr0", "mov +%eax,%cr0"),
    ("mov_from_cr2", "mov %cr2, %ebx", "mov +%cr2,%ebx"),
    ("mov_to_cr2", "mov %ebx, %cr2", "mov +%ebx,%cr2"),
    ("mov_from_cr3", "mov %cr3, %ecx", "mov +%cr3,%ecx"),
    ("mov_to_cr3", "mov %ecx, %cr3", "mov +%ecx,%cr3"),
    ("mov_from_cr4", "mov %cr4, %edx", "mov +%cr4,%edx"),
    ("mov_to_cr4", "mov %edx, %cr4", "mov +%edx,%cr4"),
    ("mov_from_dr0", "mov %db0, %eax", "mov +%db0,%eax"),
    ("mov_to_dr1", "mov %eax, %db1", "mov +%eax,%db1"),
    ("mov_from_dr2", "mov %db2, %eax", "mov +%db2,%eax"),
    ("mov_to_dr3", "mov %eax, %db3", "mov +%eax,%db3"),
    ("mov_from_dr6", "mov %db6, %eax", "mov +%db6,%eax"),
    ("mov_to_dr7", "mov %eax, %db7", "mov +%eax,%db7"),
    ("mov_from_tr6", "mov %tr6, %eax", "mov +%tr6,%eax"),
    ("mov_to_tr7", "mov %eax, %tr7", "mov +%eax,%tr7"),
    ("lgdt", "lgdt (%eax)", r"lgdtl +\(%eax\)"),
    ("lgdtw", "lgdtw (%eax)", r"lgdtw +\(%eax\)"),
    ("lidt", "lidt (%eax)", r"lidtl +\(%eax\)"),
    ("lldt", "lldt %ax", "lldt +%ax"),
    ("ltr", "ltr %ax", "ltr +%ax"),
    ("lmsw", "lmsw %ax", "lmsw +%ax"),
    ("sgdt", "sgdt (%eax)", r"sgdtl +\(%eax\)"),
    ("sidt", "sidt (%eax)", r"sidtl +\(%eax\)"),
    ("sldt", "sldt %ax", "sldt +%ax"),
    ("smsw", "smsw %ax", "smsw +%ax"),
    ("str", "str %ax", "str +%ax"),
    ("rdmsr", "rdmsr", "rdmsr"),
    ("wrmsr", "wrmsr", "wrmsr"),
    ("rdtsc", "rdtsc", "rdtsc"),
    ("rdtscp", "rdtscp", "rdtscp"),
    ("rdpmc", "rdpmc", "rdpmc"),
    ("wbinvd", "wbinvd", "wbinvd"),
    ("invd", "invd", "invd"),
    ("invlpg", "invlpg (%eax)", r"invlpg +\(%eax\)"),
    ("cpuid", "cpuid", "cpuid"),
    ("ds_cli", ".byte 0x3e; cli", "ds cli"),
]


def audit_lists(test):
    """Every mnemonic tools/audit-privileged's own lists name."""
    loader = importlib.machinery.SourceFileLoader("audit_privileged", test.path)
    tool = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(tool)
    return sorted(tool.PLAIN_MNEMONICS | tool.SIZED_MNEMONICS)


def violation_caught(test):
    """A violation is caught, and look-alikes are not taken for one."""
    elf = test.assemble("bad", NATIVE_GOOD + """
    .globl bad_function
bad_function:
    nop
    cli
    ret

    .globl lookalikes
lookalikes:
    clc
    cld
    stosl
    rep stosb
    in $0x60, %al
    out %al, $0x80
    sysenter
    ret
""", "native_good")
    if not elf:
        return
    status, output = test.run(elf)
    if status == 1 and lines_matching(r"bad_function\+0x1 .*: cli$", output):
        test.passed("bad.elf rejected, bad_function's cli reported")
    else:
        test.failed(f"bad.elf: expected exit 1 naming bad_function/cli, got {status}:", output)
    violations = len(lines_matching(VIOLATION, output))
    if violations == 1:
        test.passed("look-alike instructions (clc, cld, stos, in, out, sysenter) not reported")
    else:
        test.failed(f"bad.elf: expected exactly 1 violation, got {violations}:", output)


def every_plant_caught(test):
    """Every instruction the audit names is caught, at its function, by
    its mnemonic; and the plants cover the audit's own lists (a mnemonic
    added there without a plant here would be claimed, but never shown
    to be caught)."""
    listed = audit_lists(test)
    planted_ids = {plant_id for plant_id, _, _ in PLANTS}
    unplanted = [m for m in listed if m not in planted_ids]
    if not listed:
        test.failed("could not read the audit's lists of mnemonics")
    elif unplanted:
        test.failed(f"mnemonics the audit lists but nothing plants: {' '.join(unplanted)}")
    else:
        test.passed("every mnemonic tools/audit-privileged lists has a plant")

    source = NATIVE_GOOD + "".join(f"    .globl plant_{plant_id}\nplant_{plant_id}:\n"
                                   f"    {insn}\n    ret\n" for plant_id, insn, _ in PLANTS)
    elf = test.assemble("plants", source, "native_good")
    if not elf:
        return
    status, output = test.run(elf)
    named = 0
    for plant_id, _, printed in PLANTS:
        line = rf"^[^ ]*: plant_{plant_id}\+0x0 \(0x[0-9a-f]+\) in \.text: {printed}$"
        if lines_matching(line, output):
            named += 1
        else:
            test.failed(f"plants.elf: planted {plant_id}, no line naming "
                        f"plant_{plant_id}+0x0: {printed}")
    reported = len(lines_matching(VIOLATION, output))
    if status == 1 and named == len(PLANTS) and reported == len(PLANTS):
        test.passed(f"each of the {len(PLANTS)} planted instructions reported, "
                    "by function and mnemonic")
    else:
        test.failed(f"plants.elf: exit {status}, {named} of {len(PLANTS)} named, "
                    f"{reported} reported:", output)


def allowed_code_accepted(test):
    """native_* functions, .user* sections, the world switch and the AP
    trampoline may hold them; the last two's are counted, not skipped."""
    elf = test.assemble("good", NATIVE_GOOD + """
    .section .user.text, "ax"
    .globl user_probe
user_probe:
    cli
    ret

    .section .switcher, "ax"
    .globl switch_to_guest
switch_to_guest:
    mov %eax, %cr3
    lgdt (%eax)
    ret

    .section .trampoline, "ax"
    .globl trampoline_start
trampoline_start:
    lgdt (%eax)
    mov %eax, %cr0
""", "native_good")
    if not elf:
        return
    test.expect(elf, 0, "good.elf accepted (native_good allowed, .user.text skipped, "
                "the world switch and the AP trampoline admitted)")
    status, output = test.run(elf)
    if lines_matching(r"2 in the world switch \(\.switcher\)", output):
        test.passed("the world switch's 2 privileged instructions counted in the summary")
    else:
        test.failed("good.elf: the summary does not count the world switch's 2:", output)
    if lines_matching(r"2 in the AP trampoline \(\.trampoline\)", output):
        test.passed("the AP trampoline's 2 privileged instructions counted in the summary")
    else:
        test.failed("good.elf: the summary does not count the AP trampoline's 2:", output)


def vacuous_scan_refused(test):
    """A scan that proves nothing must not pass."""
    elf = test.assemble("empty", """
    .text
    .globl native_good
native_good:
    nop
    ret
""", "native_good")
    if not elf:
        return
    status, output = test.run(elf)
    if status != 0:
        test.passed("empty.elf (no privileged instructions at all) rejected as vacuous")
    else:
        test.failed("empty.elf: expected non-zero exit, got 0:", output)


def main():
    test = SelfTest("audit-privileged")
    violation_caught(test)
    every_plant_caught(test)
    allowed_code_accepted(test)
    vacuous_scan_refused(test)
    # A missing input is an error, not a pass.
    test.expect(test.scratch("does-not-exist.elf"), 2,
                "missing ELF reported as an error", "no such file")
    return test.finish()


if __name__ == "__main__":
    sys.exit(main())
