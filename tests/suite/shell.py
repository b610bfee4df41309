"""tests/suite/shell.py - the kernel shell's commands, answers and input handling.

  shell-*          The kernel shell, COM1 a TCP connection to the test:
                   each command answers as it should (general, tasks),
                   bad input gets its message and the shell goes on
                   (bad-input), keys typed through QEMU's monitor reach
                   it and show on COM1 and the VGA screen (keyboard),
                   reboot and poweroff end QEMU, and the
                   PARAVIRT=n kernel and a 486 answer too.
"""

import os
import re

from .builds import N, Y
from .harness import Failure, Test
from .shell_session import SHELL_ANSWER_TIMEOUT, ShellSession, shell_dialogue

# Every command of the shell named by help, with its one line.
SHELL_COMMANDS = ("bench", "bt", "cpu", "guest", "help", "history", "kill", "ktest",
                  "msr", "poweroff", "pv", "pvops", "reboot", "regs", "run",
                  "sites", "tasks", "vm")
SHELL_GENERAL = [
    ("help", [re.compile(rf"^  {c} +.*\S") for c in SHELL_COMMANDS]),
    ("cpu", ["cpu: GenuineIntel family 6 model 6 stepping 3",
             "cpu: features: fpu",
             "cpu: hypervisor: QEMU TCG (signature 'TCGTCGTCGTCG')$",
             "cpu: NOPs: P6 (0f 1f)", "paravirt backend native"]),
    ("regs", [re.compile(r"^  cr0 +8[0-9a-f]{7} +PE .*PG$"),
              re.compile(r"^  cr3 +[0-9a-f]{8}  \(the page directory\)$"),
              re.compile(r"^  cr4 +[0-9a-f]{8}$"),
              re.compile(r"^  eflags [0-9a-f]{8} +IF"),
              re.compile(r"^  gdtr +base [0-9a-f]{8} limit 0067 \(13 entries\)$"),
              re.compile(r"^  idtr +base [0-9a-f]{8} limit 07ff \(256 entries\)$"),
              "  tr     0028$"]),
    # SYSENTER_CS: read, and written back with the value the kernel set.
    ("msr 0x174", ["msr 0x174 = 0x0000000000000008$"]),
    ("msr 372 8", ["msr 0x174 <- 0x0000000000000008$"]),
    ("msr 0x174", ["msr 0x174 = 0x0000000000000008$"]),
    ("vm", [re.compile(r"^vm: the current address space \(cr3 [0-9a-f]{8}\)$"),
            re.compile(r"^  00001000-000fffff  P RW S +255 pages 1:1$"),
            re.compile(r"^  00100000-[0-9a-f]{8}  P RO S +\d+ pages 1:1$")]),
    ("bt", [re.compile(r"^  #0  [0-9a-f]{8}  cmd_bt\+0x"),
            re.compile(r"  shell_run\+0x"), re.compile(r"  kmain\+0x")]),
    ("bench", ["bench: per op, in TSC cycles (not under QEMU -icount",
               re.compile(r"^bench: loops \d+, empty loop \d+, backend native$"),
               re.compile(r"^bench: op irq_disable \d+\.\d\d$"),
               re.compile(r"^bench: workload kernel \d+\.\d\d$")]),
    ("ktest printk", ["ktest: PASS printk_integer_formats",
                      re.compile(r"^ktest: [1-9]\d* passed, 0 failed$")]),
    ("ktest panic_report_page_fault", ["panics on purpose: it runs only at boot"]),
    ("ktest", [re.compile(r"^ktest: [1-9]\d* passed, 0 failed$")]),
    ("history", [re.compile(r"^ +1  help$"), re.compile(r"^ +10  ktest printk$")]),
]

SHELL_TASKS = [
    ("run hello", [re.compile(r"^run: hello started as pid 3$")]),
    ("run spin 100000", [re.compile(r"^run: spin started as pid 4$")]),
    ("run sleep 100000", [re.compile(r"^run: sleep started as pid 5$")]),
    ("tasks", ["  pid  ppid  name", re.compile(r"^ +4 +1  spin +runnable +user"),
               re.compile(r"^ +5 +1  sleep +sleeping +user"),
               re.compile(r"^ +1 +-1  kernel +running +kernel")]),
    ("vm 4", ["vm: pid 4 (spin), page directory",
              re.compile(r"^  40000000-40000fff  P RO U +1 page$")]),
    ("kill 4", ["kill: pid 4 ends on its next way back to user mode"]),
    ("kill 5", ["kill: pid 5 ends on its next way back to user mode"]),
    ("kill 1", ["kill: pid 1 is a kernel thread: it cannot be killed"]),
    ("kill 0", ["kill: pid 0 is a kernel thread: it cannot be killed"]),
    ("kill 99", ["kill: no task 99"]),
    ("run nope", ["run: no program 'nope'", "programs: "]),
    ("run", ["usage: run PROG [ARG]"]),
    ("tasks", ["  pid  ppid  name"]),
    ("vm 4", ["vm: no live task 4"]),
]
# Said between prompts, as soon as each happened.
SHELL_TASKS_ENDED = ["hello from user mode: pid 3", "shell: pid 3 exited with status 0",
                     "task 4 (spin) killed: by request (kill)",
                     "shell: pid 4 was killed (kill)",
                     "task 5 (sleep) killed: by request (kill)",
                     "shell: pid 5 was killed (kill)"]

LONG_LINE = "help " + "x" * 200
FLOOD = b"y" * 5000
SHELL_BAD_INPUT = [
    ("frobnicate now", ["shell: unknown command 'frobnicate' (help lists them)"]),
    ("msr 0xzz", ["msr: bad number '0xzz'"]),
    ("msr 0x", ["msr: bad number '0x'"]),
    ("msr 99999999999999999999", ["msr: bad number '99999999999999999999'"]),
    ("msr 0x100000000", ["msr: MSR numbers are 32 bits"]),
    ("kill -1", ["kill: bad number '-1'"]),
    ("vm 1 2", ["usage: vm [PID]"]),
    ("a b c d e f g h i j k l m n o p q", ["shell: too many words (at most 16)"]),
    (LONG_LINE, ["shell: line too long (more than 127 characters), discarded"]),
    ("^B", ["shell: control character ^B ignored"], b"\x02help\r"),
    ("^C", ["^C"], b"frobnicate\x03"),
    ("0xff", ["shell: character 0xff ignored (ASCII only)"], b"\xffhelp\r"),
    # Editing: Backspace and DEL, Left and insert, ^U, Up for history.
    ("helx<BS>p", ["  help "], b"helx\x7fp\r"),
    ("hep<Left>l", ["  help "], b"hep\x1b[Dl\r"),
    ("^U", ["  help "], b"frobnicate\x15help\r"),
    ("<Home><Delete>", ["  help "], b"xhelp\x1b[H\x1b[3~\r"),
    # Right moves by writing the character passed over; an insertion
    # writes the rest of the line and backs up over it.
    ("hep<Home><Right><Right>l", ["hep\b\b\bhelp\b$", "  help "],
     b"hep\x1b[H\x1b[C\x1b[Cl\r"),
    ("<Ctrl-Right>", ["  help "], b"he\x1b[1;5Clp\r"),     # a key it ignores
    ("<Esc>help", ["  help "], b"\x1bhelp\r"),     # the key after Esc is kept
    ("cpu", ["cpu: hypervisor: "]),
    ("<Up>", ["cpu: hypervisor: "], b"\x1b[A\r"),
    # The Enter after the flood might be lost in it: another one after.
    ("flood", ["console: input too fast", "shell: line too long"], [FLOOD, b"\r"]),
    ("help", ["  help "]),
]


def shell_keyboard(log, build):
    """Type on the PS/2 keyboard through QEMU's monitor (sendkey); the
    shell echoes to COM1 too, where the answer is read, and to the VGA
    screen, read from guest memory."""
    session = ShellSession(log, build)
    try:
        start = session.mark
        session.monitor([f"sendkey {k}" for k in
                         ["shift-c", "p", "u", "ret"] +
                         ["m", "s", "r", "spc", "0", "x", "1", "7", "4", "ret"] +
                         ["h", "e", "l", "x", "backspace", "p", "ret"] +
                         ["up", "up", "ret"]])
        answers = []
        for what in ("Cpu", "msr 0x174", "help", "the line two back"):
            answers.append(session.answer_from(start, SHELL_ANSWER_TIMEOUT, what))
            start = session.mark
        expected = ["shell: unknown command 'Cpu'", "msr 0x174 = 0x0000000000000008",
                    "  vm ", "msr 0x174 = 0x0000000000000008"]
        for answer, e in zip(answers, expected):
            if e not in answer:
                raise Failure(f"keyboard: no {e!r} in the answer",
                              ["answer:"] + ["  " + l for l in answer.split("\n")[:20]]
                              + session.details())
        screen = vga_text(session, log + ".vga")
        if not any(row.startswith("pv386> msr 0x174") for row in screen):
            raise Failure("keyboard: the VGA screen does not show the typed line",
                          ["screen:"] + ["  " + row for row in screen])
    finally:
        session.close()


VGA_TEXT, VGA_COLS, VGA_ROWS = 0xb8000, 80, 25


def vga_text(session, dump):
    """The VGA text screen's rows (characters only), saved by QEMU's
    monitor from guest memory into the file dump."""
    if os.path.exists(dump):
        os.remove(dump)
    # Quoted: unquoted, the monitor parses a path's / as a division.
    session.monitor([f'pmemsave {VGA_TEXT} {VGA_COLS * VGA_ROWS * 2} "{os.path.abspath(dump)}"'])
    with open(dump, "rb") as f:
        cells = f.read()
    chars = bytes(cells[0::2]).decode("latin-1")
    return [chars[r * VGA_COLS:(r + 1) * VGA_COLS].rstrip() for r in range(VGA_ROWS)]


VGA_COLS_USABLE = 79    # a full 80th column wraps the cursor to the next row


def shell_help_fits(log, build):
    """help gives every command one line, each one row of the VGA screen."""
    session = ShellSession(log, build)
    try:
        answer = session.command("help")[1:]
        missing = [c for c in SHELL_COMMANDS
                   if not any(re.match(rf"^  {c} +.*\S", a) for a in answer)]
        wide = [a for a in answer if len(a) > VGA_COLS_USABLE]
        if missing or wide:
            raise Failure(f"help: no line for {missing}; wider than the screen: {len(wide)}",
                          ["  " + a for a in wide] + session.details())
    finally:
        session.close()


def shell_leaves(log, build, line, expect):
    """reboot or poweroff: QEMU (with -no-reboot) must end, with status 0,
    after the command's line."""
    session = ShellSession(log, build)
    try:
        session.send(line.encode() + b"\r")
        status = session.wait_exit(SHELL_ANSWER_TIMEOUT)
        if status is None:
            raise Failure(f"QEMU still running {SHELL_ANSWER_TIMEOUT} s after {line!r}",
                          session.details())
        if status != 0 or expect.encode() not in session.received:
            raise Failure(f"after {line!r}: QEMU status {status}, "
                          f"{expect!r} {'' if expect.encode() in session.received else 'not '}"
                          "printed", session.details())
    finally:
        session.close()


def tests():
    return [
        Test("shell-general-y", shell_dialogue, (Y, SHELL_GENERAL)),
        Test("shell-tasks-y", shell_dialogue, (Y, SHELL_TASKS),
             {"in_log": SHELL_TASKS_ENDED}),
        Test("shell-bad-input-y", shell_dialogue, (Y, SHELL_BAD_INPUT)),
        Test("shell-keyboard-y", shell_keyboard, (Y,)),
        Test("shell-help-fits-y", shell_help_fits, (Y,)),
        Test("shell-reboot-y", shell_leaves, (Y, "reboot", "reboot: resetting the machine")),
        Test("shell-poweroff-y", shell_leaves, (Y, "poweroff", "poweroff: powering off")),
        Test("shell-general-n", shell_dialogue, (N, [
            ("cpu", ["cpu: hypervisor: QEMU TCG", "paravirt backend inline (PARAVIRT=n)"]),
            ("regs", ["  tr     0028$"]), ("bt", ["cmd_bt+0x"]),
            ("ktest printk", [re.compile(r"^ktest: [1-9]\d* passed, 0 failed$")])])),
        Test("shell-486-y", shell_dialogue, (Y, [
            ("msr 0x10", ["msr: this CPU has no MSRs"]),
            ("regs", ["  cr4    absent on this CPU"]),
            ("bench", ["bench: this CPU has no time-stamp counter"])], "cpu=486")),
    ]
