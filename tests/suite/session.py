"""tests/suite/session.py - a student's session, end to end (session-*).

The ISO booted through GRUB, as a student boots it: look at the sites,
switch to trace, run a program, read its counts, switch back; the ops
ROM switched to live and used (a program, the in-kernel suite), refused
live when absent or bad; the ROM entry picked from GRUB's menu; programs
killed across live switches; the whole suite from the shell under trace.
"""

import re

from .builds import Y
from .harness import Test
from .rom import BAD_ROMS, ROM, ROM_KTESTS, ROM_READY, doctored_rom
from .shell_session import shell_dialogue

GRUB_ROM_ENTRY_KEYS = ["down", "down", "down", "ret"]    # boot/grub.cfg's 4th: pv=rom
HELLO_ENDED = (None, b"shell: pid 3 exited with status 0")


def site_line(op, caller, state, calls=""):
    """A line of `sites`: address, op, caller, what the site is now."""
    return re.compile(rf"^[0-9a-f]{{8}} {op} +{caller}\+0x[0-9a-f]+ +{state} *{calls}$")


# arch_switch_to's write_cr3 runs once each time a task's address space
# is switched to: by hello, not by the idle shell.
SWITCH_CR3_INLINE = [site_line("write_cr3", "arch_switch_to", "inline"),
                     "    now:   0f 22 d8 "]              # mov %eax,%cr3
SWITCH_CR3_DIRECT = re.compile(r"^    now:   50 51 52 e8 ")  # push; call rel32
ALL_SITES_NATIVE = re.compile(r"^sites: (\d+) shown of \1, backend native$")


def pvops_count(slot, op, nonzero):
    """A pvops line under trace: the stub, the native function, a count."""
    count = r"[1-9]\d*" if nonzero else "0"
    return re.compile(rf"^ +{slot} {op} +paravirt_trace_stub_table\+0x[0-9a-f]+ +"
                      rf"-> native_{op}\+0x0 +{count}$")


FIRST_SESSION = [
    ("sites", [*SWITCH_CR3_INLINE, ALL_SITES_NATIVE]),
    # The default entry loads no module.
    ("pv use rom", ["pv: backend rom refused (no ops ROM among the modules (GRUB: module "
                    "/boot/pvrom.bin; QEMU: -initrd build/pvrom.bin)): staying native$"]),
    ("pv use trace", [re.compile(r"^pv: switched from native to trace: 0 inline, "
                                 r"[1-9]\d* direct, \d+ fenced$")]),
    ("pvops", [pvops_count(42, "irq_enable_sysexit", False)]),
    ("run hello", ["run: hello started as pid 3$"]),
    HELLO_ENDED,
    # hello's system calls return by sysexit; switching to it loads its
    # page directory and its kernel stack into the TSS.
    ("pvops", ["pvops: backend trace, 57 ops; calls counted by trace$",
               pvops_count(13, "write_cr3", True), pvops_count(37, "load_esp0", True),
               pvops_count(42, "irq_enable_sysexit", True), pvops_count(43, "iret", True)]),
    ("sites write_cr3", [site_line("write_cr3", "arch_switch_to", "direct", r"calls [1-9]\d*"),
                         SWITCH_CR3_DIRECT,
                         re.compile(r"^sites: \d+ shown of \d+, backend trace$")]),
    ("pv use native", [re.compile(r"^pv: switched from trace to native: [1-9]\d* inline, "
                                  r"0 direct, \d+ fenced$")]),
    ("sites", [*SWITCH_CR3_INLINE, ALL_SITES_NATIVE]),
    ("pv", ["pv: backend native (2 live switches); backends:$", "  * native ", "    trace ",
            "    rom "]),
]
FIRST_SESSION_LOG = ["pv386: booted by GRUB", "pv386 ready: backend=native ",
                     "hello from user mode: pid 3"]

# Under rom every site calls the ROM or its glue, but the unlock sites:
# the glue holds the kernel's own unlock, inlined as natively.
ROM_LIVE_SESSION = [
    ("pv use rom", [re.compile(r"^pv: switched from native to rom: [1-9]\d* inline, "
                               r"[1-9]\d* direct, \d+ fenced$")]),
    ("pv", ["pv: backend rom (1 live switches)", "  * rom "]),
    # The ROM's code by its offset in build/pvrom.bin, the glue by name.
    ("pvops", ["pvops: backend rom, 57 ops", re.compile(r"^  12 read_cr3 +rom\+0x[0-9a-f]+$"),
               re.compile(r"^  43 iret +rom\+0x[0-9a-f]+$"),
               "  37 load_esp0           rom_load_esp0+0x0$"]),
    ("sites write_cr3", [site_line("write_cr3", "arch_switch_to", "direct"), SWITCH_CR3_DIRECT]),
    ("run hello", ["run: hello started as pid 3$"]),
    HELLO_ENDED,
    ("ktest", [*ROM_KTESTS, re.compile(r"^ktest: [1-9]\d* passed, 0 failed$")], None, 90),
    ("pv", ["  * rom "]),
    ("pv use native", [re.compile(r"^pv: switched from rom to native: [1-9]\d* inline, "
                                  r"0 direct, \d+ fenced$")]),
    ("sites", [*SWITCH_CR3_INLINE, ALL_SITES_NATIVE]),
    ("run hello again", [re.compile(r"^run: hello started as pid \d+$")]),
    (None, b"system calls by sysenter, arg again"),
    ("tasks", ["  pid  ppid  name"]),
]


# Programs killed across live switches, with opcount's stubs under the
# table: a kill takes effect on the task's way back to user mode, through
# the iret and sysexit sites the switches rewrite.
KILL_ACROSS_SWITCHES = [
    ("run spin 100000", ["run: spin started as pid 3$"]),
    ("run sleep 100000", ["run: sleep started as pid 4$"]),
    ("pv use trace", ["pv: switched from native to trace: 0 inline, "]),
    ("kill 3", ["kill: pid 3 ends on its next way back to user mode"]),
    ("pv use native", ["pv: switched from trace to native: "]),
    ("kill 4", ["kill: pid 4 ends on its next way back to user mode"]),
    ("pv use trace", ["pv: switched from native to trace: 0 inline, "]),
    (None, b"shell: pid 4 was killed (kill)"),
    ("run hello", ["run: hello started as pid 5$"]),
    (None, b"shell: pid 5 exited with status 0"),
    ("pvops", [pvops_count(42, "irq_enable_sysexit", True)]),
    ("bench", [re.compile(r"^bench: loops \d+, empty loop \d+, backend trace$"),
               re.compile(r"^bench: op read_cr3 \d+\.\d\d$")]),
    ("pv use native", ["pv: switched from trace to native: "]),
    ("sites", [*SWITCH_CR3_INLINE, ALL_SITES_NATIVE]),
    ("vm 3", ["vm: no live task 3"]),
]
KILLED_ACROSS_SWITCHES = ["task 3 (spin) killed: by request (kill)",
                          "shell: pid 3 was killed (kill)",
                          "task 4 (sleep) killed: by request (kill)",
                          "hello from user mode: pid 5"]


def shell_rom_refused(log, build, name):
    """A bad ROM refused by a live switch, with the validator's reason;
    the kernel stays native, its sites inline."""
    spoil, reason = BAD_ROMS[name]
    rom = doctored_rom(log, name, spoil)
    shell_dialogue(log, build, [
        ("pv use rom", [f"pv: backend rom refused (rom-{name}.bin: {reason}): "
                        "staying native$"]),
        ("pv", ["pv: backend native (0 live switches)", "  * native "]),
        ("sites", [*SWITCH_CR3_INLINE, ALL_SITES_NATIVE]),
    ], extra=("-initrd", rom))



def tests():
    return [
        Test("session-first-grub-y", shell_dialogue, (Y, FIRST_SESSION),
             {"in_log": FIRST_SESSION_LOG, "boot": ["-cdrom", Y.iso]}),
        Test("session-rom-live-y", shell_dialogue, (Y, ROM_LIVE_SESSION),
             {"in_log": ["hello from user mode: pid 3"], "extra": ("-initrd", ROM)}),
        Test("session-rom-refused-checksum-y", shell_rom_refused, (Y, "checksum")),
        Test("session-kill-across-switches-opcount-y", shell_dialogue,
             (Y, KILL_ACROSS_SWITCHES, "opcount"), {"in_log": KILLED_ACROSS_SWITCHES}),
        # The suite from the shell under trace: its switch tests end on
        # the backend they started from.
        Test("session-trace-ktest-y", shell_dialogue, (Y, [
            ("pv use trace", ["pv: switched from native to trace: 0 inline, "]),
            ("ktest", [re.compile(r"^ktest: [1-9]\d* passed, 0 failed$")], None, 90),
            ("pv", ["  * trace "]),
            ("pvops", [pvops_count(10, "read_cr2", True)]),
            ("pv use native", ["pv: switched from trace to native: "])])),
        Test("session-grub-menu-rom-y", shell_dialogue, (Y, [
            ("pv", ["pv: backend rom (0 live switches)", "  * rom "]),
            ("pvops", [re.compile(r"^  12 read_cr3 +rom\+0x[0-9a-f]+$")]),
            ("run hello", ["run: hello started as pid 3$"]), HELLO_ENDED]),
             {"in_log": ["pv386: booted by GRUB", ROM_READY], "boot": ["-cdrom", Y.iso],
              "menu_keys": GRUB_ROM_ENTRY_KEYS}),
    ]
