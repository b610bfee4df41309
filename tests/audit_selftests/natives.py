#!/usr/bin/env python3
"""tests/audit_selftests/natives.py - tools/audit-natives can both fail and pass.

The tool checks what no emulator shows (see its docstring).  Each case
here plants one such bug in a copy of the real PARAVIRT=y kernel,
build/pv386.elf, by overwriting a few bytes or renaming a symbol, and
demands the exit status and the line that names it:
  clean       the kernel as built                                   -> 0
  wbinvd      native_wbinvd's wbinvd made two NOPs (an empty op)    -> 1
  sync_core   native_sync_core's iret made a NOP (no serialization) -> 1
  safe_halt   sti; hlt swapped to hlt; sti (sti's shadow lost)      -> 1
  norow       native_halt renamed: a native_* the table lacks       -> 1
  exinsn      rdmsr's __ex_table entry moved to the next insn       -> 1
  exbefore    rdmsr's fixup pointing at rdmsr itself                -> 1
  exoutside   rdmsr's fixup pointing into the next function         -> 1
  noserial    the code writer's first sync_core call or jump made a
              ret: it returns before serializing                    -> 1
  nosync      every sync_core call or jump of the code writer NOPs  -> 1
  nopv        the PARAVIRT=n kernel: no backend to audit            -> 2
  missing     no such file                                          -> 2
"""

import os
import re
import struct
import subprocess
import sys

from harness import KERNEL, NOPV_KERNEL, Kernel, SelfTest

NOP, RET = b"\x90", b"\xc3"
EXTABLE_ENTRY = struct.Struct("<II")    # insn, fixup (asm/extable.h)


def le32(value):
    return struct.pack("<I", value)


def natives_hold_their_instructions(test, kernel):
    elf = kernel.copy(test, "wbinvd")
    kernel.plant(elf, kernel.insn_at("native_wbinvd", "wbinvd"), NOP * 2)
    test.expect(elf, 1, "wbinvd: an empty native_wbinvd is caught",
                r"^.*: native_wbinvd: no `wbinvd`$")

    elf = kernel.copy(test, "sync_core")
    kernel.plant(elf, kernel.insn_at("native_sync_core", "iret"), NOP)
    test.expect(elf, 1, "sync_core: a native_sync_core without iret is caught",
                r"^.*: native_sync_core: no `pushf; push %cs; push \$imm; iret`$")

    elf = kernel.copy(test, "safe_halt")
    kernel.plant(elf, kernel.insn_at("native_safe_halt", "sti"), b"\xf4\xfb")   # hlt; sti
    test.expect(elf, 1, "safe_halt: hlt before sti is caught",
                r"^.*: native_safe_halt: no `sti; hlt`$")

    elf = test.scratch("norow.elf")
    subprocess.run(["objcopy", "--redefine-sym", "native_halt=native_halt_again",
                    kernel.path, elf], check=True)
    test.expect(elf, 1, "norow: a native_* function without a table row is caught",
                r"^.*: native_halt_again: no row in audit-natives' table")
    test.expect(elf, 1, "norow: a table row without its function is caught",
                r"^.*: native_halt: in the table but not in the binary$")


def extable_entry(kernel, insn):
    """The address of the __ex_table entry whose insn field is insn, or None."""
    start = kernel.sections["__ex_table"].start
    entries = EXTABLE_ENTRY.iter_unpack(kernel.section_bytes("__ex_table"))
    return next((start + EXTABLE_ENTRY.size * n
                 for n, (at, _) in enumerate(entries) if at == insn), None)


def faulting_instructions_covered(test, kernel):
    rdmsr = kernel.insn_at("native_read_msr", "rdmsr")
    entry = extable_entry(kernel, rdmsr)
    if entry is None:
        test.failed(f"extable: no __ex_table entry for rdmsr at {rdmsr:x} in the built kernel")
        return
    elf = kernel.copy(test, "exinsn")
    kernel.plant(elf, entry, le32(rdmsr + 2))
    test.expect(elf, 1, "exinsn: an entry that misses rdmsr by one instruction is caught",
                rf"^.*: native_read_msr\+0x[0-9a-f]+ \(0x{rdmsr:x}\): `rdmsr` has no "
                r"__ex_table entry$")

    elf = kernel.copy(test, "exbefore")
    kernel.plant(elf, entry + 4, le32(rdmsr))
    test.expect(elf, 1, "exbefore: a fixup that does not skip rdmsr is caught",
                rf"^.*: native_read_msr\+0x[0-9a-f]+ \(0x{rdmsr:x}\): `rdmsr` has a fixup "
                rf"at 0x{rdmsr:x}, not an instruction after it")

    elf = kernel.copy(test, "exoutside")
    kernel.plant(elf, entry + 4, le32(kernel.symbols["native_write_msr"]))
    test.expect(elf, 1, "exoutside: a fixup in the next function is caught",
                r"^.*: native_read_msr\+0x[0-9a-f]+ .*has a fixup at 0x[0-9a-f]+, not an "
                r"instruction after it in native_read_msr$")


def code_writer_serializes(test, kernel, slot):
    """Every call or jump through the sync_core slot (as the clean run
    names it) in the code writer, .text.patch_text, taken away."""
    through_slot = f"*{kernel.symbols['paravirt_ops'] + 4 * slot:#x}"
    calls = [insn.addr for insn in kernel.insns(start=kernel.symbols["__patch_text_start"],
                                                  end=kernel.symbols["__patch_text_end"])
             if insn.text.split()[:2] in (["call", through_slot], ["jmp", through_slot])]
    if not calls:
        test.failed(f"the code writer: no call through sync_core's slot ({slot}) "
                    "in the built kernel")
        return
    elf = kernel.copy(test, "noserial")
    kernel.plant(elf, calls[0], RET + NOP * 5)
    test.expect(elf, 1, "noserial: a code writer that returns before sync_core is caught",
                rf"^.*\(0x{calls[0]:x}\): `ret` leaves the code writer after the store at "
                rf"0x[0-9a-f]+ without calling sync_core \(slot {slot}\)$")

    elf = kernel.copy(test, "nosync")
    for call in calls:
        kernel.plant(elf, call, NOP * 6)
    test.expect(elf, 1, "nosync: a code writer that never calls sync_core is caught",
                r"^.*: `[a-z]+.*` (leaves|runs off the end of) the code writer after the "
                rf"store at 0x[0-9a-f]+ without calling sync_core \(slot {slot}\)$")


def main():
    test = SelfTest("audit-natives")
    for elf in (KERNEL, NOPV_KERNEL):
        if not os.path.isfile(elf):
            test.failed(f"{elf} is missing; build it with make test")
            return test.finish()
    output = test.expect(KERNEL, 0, "clean: the built kernel",
                         r"0 problems \(56 native_\* functions, 7 faulting instructions")
    kernel = Kernel(KERNEL)
    natives_hold_their_instructions(test, kernel)
    faulting_instructions_covered(test, kernel)
    slot = re.search(r"sync_core is slot (\d+)\)", output)
    if slot:
        code_writer_serializes(test, kernel, int(slot.group(1)))
    else:
        test.failed("the clean run does not name sync_core's slot", output)
    # Nothing to audit is an error, not a pass.
    test.expect(NOPV_KERNEL, 2, "nopv: the PARAVIRT=n kernel has no backend to audit",
                r"no native_\* function found")
    test.expect(test.scratch("does-not-exist.elf"), 2, "missing: no such file", "no such file")
    return test.finish()


if __name__ == "__main__":
    sys.exit(main())
