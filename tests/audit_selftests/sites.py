#!/usr/bin/env python3
"""tests/audit_selftests/sites.py - tools/audit-sites can both fail and pass.

Tiny ELF files with a 16-slot paravirt_ops table and patch-site records
made exactly as the kernel's PARAVIRT_SITE macros make them, each with
the verdict we know is right:
  good       every hot-slot use inside a site of its slot          -> 0
  unpatched  `call *paravirt_ops+20` outside any site              -> 1
  cold       a call through slot 10, which no record names         -> 0
  wrongtype  `jmp *%cs:paravirt_ops+24` in a site recorded as 5    -> 1
  norecords  calls through the table, no .parainstructions at all  -> 2
  sized      a site padded to its template's length (prologue, call,
             jmp over int3 filler), the call inside                -> 0
  pastsized  a hot call right after such a site's filler           -> 1
plus look-alikes that must not count as uses: an immediate
($paravirt_ops+20) and an indexed load (paravirt_ops(,%eax,4)).
"""

import sys

from harness import SelfTest

# The table: 16 four-byte slots, sized so the tool knows where it ends.
TABLE = """
    .data
    .globl paravirt_ops
    .type paravirt_ops, @object
    .size paravirt_ops, 64
paravirt_ops:
    .fill 16, 4, 0
    .text
"""


def record(slot, clobbers):
    """The .parainstructions record of the site between 771 and 772."""
    return f"""    .pushsection .parainstructions, "a"
    .balign 4
    .long 771b
    .byte {slot}
    .byte 772b - 771b
    .short {clobbers}
    .popsection
"""


def site(slot, insns):
    """A patch site recorded as slot (like PARAVIRT_ASM_SITE)."""
    return f"771: {insns}\n772:\n" + record(slot, 1)


def sized_site(slot, insns, length):
    """A site padded to length bytes as PARAVIRT_SIZED_SITE pads it."""
    return f"""771: {insns}
773:
    .byte 0xeb, {length} - (773b - 771b) - 2
    .fill {length} - (773b - 771b) - 2, 1, 0xcc
772:
""" + record(slot, 7)


SIZED_BODY = f"""
    .globl sized_function
sized_function:
{sized_site(5, 'movl %ebx, %eax; call *paravirt_ops+20', 53)}
"""

# The code every case but norecords starts with: hot slots 5 and 6 used
# properly, in both site shapes, and uses that are not fixed-slot memory.
GOOD_BODY = f"""
    .globl good_function
good_function:
{site(5, 'pushl %ecx; call *paravirt_ops+20; popl %ecx')}
{site(6, 'jmp *%cs:paravirt_ops+24')}
    movl $paravirt_ops+20, %eax
    movl paravirt_ops(,%eax,4), %edx
    ret
"""

# (name, assembly, exit status, what it shows, a line the output must have)
CASES = [
    ("good", TABLE + GOOD_BODY, 0, "good: every hot use inside its site",
     r"0 violations \(2 sites, 2 hot slots, 2 table references inside sites\)"),
    ("unpatched", TABLE + GOOD_BODY + """
    .globl unpatched_function
unpatched_function:
    nop
    call *paravirt_ops+20
    ret
""", 1, "unpatched: plain call to hot slot 5 is caught",
     r"unpatched_function\+0x1 \(0x[0-9a-f]+\): call \*0x[0-9a-f]+ -- uses hot op slot 5 "
     r"outside a patch site"),
    ("cold", TABLE + GOOD_BODY + """
    .globl cold_function
cold_function:
    call *paravirt_ops+40
    pushl paravirt_ops+40
    ret
""", 0, "cold: slot 10 outside sites is allowed", "0 violations"),
    ("wrongtype", TABLE + GOOD_BODY + f"""
    .globl wrongtype_function
wrongtype_function:
{site(5, 'jmp *%cs:paravirt_ops+24')}
""", 1, "wrongtype: slot 6 in a site recorded as slot 5 is caught",
     r"wrongtype_function\+0x0 .* -- uses hot op slot 6 outside a patch site"),
    ("sized", TABLE + GOOD_BODY + SIZED_BODY, 0, "sized: a padded site holds its call",
     r"0 violations \(3 sites, 2 hot slots, 3 table references inside sites\)"),
    ("pastsized", TABLE + GOOD_BODY + SIZED_BODY + """
    call *paravirt_ops+20
    ret
""", 1, "pastsized: a call after the filler is outside the site",
     r"sized_function\+0x35 \(0x[0-9a-f]+\): call \*0x[0-9a-f]+ -- uses hot op slot 5 "
     r"outside a patch site"),
    # No records: nothing to check against, so not a pass.
    ("norecords", TABLE + """
    .globl good_function
good_function:
    call *paravirt_ops+20
    ret
""", 2, "norecords: no .parainstructions is an error", "no .parainstructions records"),
]


def main():
    test = SelfTest("audit-sites")
    for name, source, status, what, pattern in CASES:
        elf = test.assemble(name, source, "good_function")
        if elf:
            test.expect(elf, status, what, pattern)
    return test.finish()


if __name__ == "__main__":
    sys.exit(main())
