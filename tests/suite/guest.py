"""tests/suite/guest.py - pv386 hosting pv386 at ring 1 (docs/guest.md).

  guest-ktest-y    A host booted with guest=test, the kernel as its
                   Multiboot module: the guest boots on the guest
                   backend and runs its whole in-kernel suite with 0
                   failed (judged as ktest-qemu-* judge theirs, on the
                   lines the host prints as "guest: ..."), while the host
                   switches its own backend live and back and two of its
                   own programs keep their FPU registers beside it; the
                   host's shell answers all along and after the guest
                   has stopped, whose stats show it ran through the host.
                   The guest switches its FPU eagerly, its backend's
                   choice.  -host-fpu=eager: the same under a host booted
                   fpu=eager, whose guest thread and programs share its
                   FPU eagerly.
  guest-fpu-lazy-y  guest=test+fpu=lazy: the guest's suite with its FPU
                   switched lazily against its backend's choice (the
                   set_ts and #NM round trips through the host).
  guest-nolazycpu-y, guest-noinlineflags-y, guest-nofastswitch-y  The
                   guest's suite with one more of its cures off (make
                   bench measures each so: docs/guest.md, "What it
                   costs"): no lazy CPU mode (each op of a context switch
                   calls the host), the flag ops called rather than
                   inline, and - the host's option - no fast context
                   switch in the Switcher.  Each says it is off, and the
                   tests of what it changes pass with the rest.
  guest-noshadowshare-y, guest-noshadowspares-y, guest-noprefill-y  The
                   same with one of the shadows' cures off, the host's
                   options: no kernel tables shared among the kept
                   shadows, no spare frames, changed page-table entries
                   forgotten rather than made again.
  guest-hostile-y  One host starts, one after the other from its shell, a
                   guest for each way tests/kernel/test_hostile_guest.c
                   tries to escape (raw privileged instructions, ring-0
                   gates and segments, stacks, page tables and shared
                   pages outside its memory, a bad queue, interrupts off
                   for good, no gates, trap frames on stacks its tables
                   do not map or map read-only, the shadow quota met
                   by a new directory): the host names or refuses each
                   one, stops the guest where it must, and goes on; a
                   frame it writes sets the accessed and dirty bits.
  guest-matrix-*   guest=test guestexit (the host leaves QEMU with the
                   guest's result) on a 486 host (no TSC, no PGE), a P6
                   one, and a PARAVIRT=n host, which has no table of its
                   own but hosts the PARAVIRT=y kernel all the same.
  guest-smp-2-y    The same on a QEMU -smp 2 host, whose local APIC timer
                   gives its scheduler tick: those interrupts come while
                   the guest runs and must be the host's (the APIC has
                   them in service), while the guest keeps its own gates
                   on the same vectors.
  guest-bochs-*    The same from the guest ISO (GRUB loads the kernel
                   twice, as the host and as its module) in Bochs, whose
                   CPU checks what QEMU's TCG lets pass.
  guest-fuzz-*     The guest fuzzer (tests/guestfuzz/) against its host,
                   a bounded run under QEMU and Bochs (at the end).
  guest-stop-start-y  `guest stop` and `guest start` typed together:
                   never two host threads running one guest (the start
                   waits until the old one is released), and a guest
                   boots again.
  guest-nmi-y      NMIs from the machine (QEMU's monitor `nmi`, 500 a
                   second) while the guest runs its suite, exiting
                   thousands of times a second: each comes at some
                   instruction of the host, the guest or the Switcher
                   between them.  The host neither resets nor panics,
                   counts them (1000 at least, a quarter of those sent at
                   least, never more than were sent: NMI_COUNTED_*; some
                   inside the Switcher, or the row tested nothing), and
                   the guest sees none of them: its suite passes, and no
                   trap it did not cause reaches it.  -n: the same under a
                   PARAVIRT=n host.
  guest-short-of-frames-y  The host's in-kernel test that starts a guest
                   with every number of frames left up to what it needs
                   (guest_start_short_of_frames): refused or stopped by
                   name, every frame back.  It takes all free frames
                   first, so it runs alone, on a 16 MiB machine.
"""

import os
import re
import socket
import threading
import time

from .builds import N, Y
from .emulators import (KTEST_BOCHS_TIMEOUT, QEMU, QEMU_PASS, qemu_command, read_serial,
                        run_bochs, run_emulator)
from .harness import ROOT, Failure, Test, fresh_log, need_file, need_tool
from .judge import ktest_problem, log_details, missing_lines, no_line_starting, panic_line
from .ktest import qemu_ktest
from .shell_session import ShellSession, expect_answer

GUEST_PREFIX = "guest: "
PROMPTS = re.compile(r"^(pv386> )+")
GUEST_READY = b"guest: pv386 ready: backend=guest cpu="
GUEST_SUMMARY = re.compile(rb"guest: ktest: \d+ passed, \d+ failed")
GUEST_PASSED = b"host: guest stopped: it asked to stop: emulator exit (value 0x10)"
GUEST_TIMEOUT = 120     # its suite takes about 10 s under TCG
HOST_FPU_RUNS = (11, 12)    # user/fpu.c's N: not the guest suite's own
# The guest's test just before those whose programs use the FPU.
GUEST_FPU_TESTS_NEAR = b"guest: ktest: PASS sysfuzz_random_calls_leave_nothing_behind"
# Its backend's choice of FPU switching (arch/x86/kernel/fpu.c), unless
# its command line has fpu=.
GUEST_FPU_EAGER = "fpu: present, switched eagerly with fxsave/fxrstor$"


def session_lines(session):
    """COM1's lines; a guest's line may follow the host's prompt."""
    text = session.received.decode("utf-8", "replace").split("\n")
    return [PROMPTS.sub("", line.strip("\r")) for line in text]


def guest_lines(session):
    """What the guest printed, as it printed it (the host's prefix off)."""
    return [line[len(GUEST_PREFIX):] for line in session_lines(session)
            if line.startswith(GUEST_PREFIX)]


def host_lines(session):
    return [line for line in session_lines(session) if not line.startswith(GUEST_PREFIX)]


def wait_summary(session):
    """Until the guest's ktest summary has come (the Failure if never)."""
    silence = session.silence(GUEST_TIMEOUT)
    while not GUEST_SUMMARY.search(session.received):
        if silence.expired() or session.receive() is None:
            raise Failure("the guest never printed 'ktest: N passed, M failed'",
                          session.details())


def guest_ktest(log, build, host_options="", host_says=()):
    """The guest's suite, with live switches of the host's backend under
    it; then the host still answers, and has the guest's stats.  The host
    booted with host_options, and printing host_says."""
    session = ShellSession(log, build, f"guest=test {host_options}".strip(),
                           extra=["-initrd", build.elf])
    try:
        session.wait_for(GUEST_READY, GUEST_TIMEOUT)
        if GUEST_READY not in session.received:
            raise Failure("no 'guest: pv386 ready: backend=guest'", session.details())
        expect_answer(session, "pv use trace", ["pv: switched from native to trace"])
        expect_answer(session, "pv use native", ["pv: switched from trace to native"])
        switched_while_running = not GUEST_SUMMARY.search(session.received)
        # Two host programs keep their FPU registers across switches, begun
        # as the guest's tasks start theirs: neither world may see the
        # other's registers.
        session.wait_for(GUEST_FPU_TESTS_NEAR, GUEST_TIMEOUT)
        for n in HOST_FPU_RUNS:
            expect_answer(session, f"run fpu {n}", ["run: fpu started as pid"])
        wait_summary(session)
        problem = ktest_problem(guest_lines(session))
        if problem:
            raise Failure(f"guest: {problem}", session.details())
        if missing_lines(guest_lines(session), [GUEST_FPU_EAGER]):
            raise Failure("the guest did not say it switches its FPU eagerly, "
                          "its backend's choice", session.details())
        problem = no_line_starting(host_lines(session), host_says)
        if problem:
            raise Failure(f"host: {problem}", session.details())
        if not switched_while_running:
            raise Failure("the guest's suite ended before the host's backend "
                          "switches: they were not tested under a running guest",
                          session.details())
        for n in HOST_FPU_RUNS:
            session.until_reported(f"fpu {n}: ".encode(), GUEST_TIMEOUT)
        wrong = [n for n in HOST_FPU_RUNS if f"fpu {n}: ok" not in host_lines(session)]
        if wrong:
            raise Failure(f"host: fpu {wrong[0]} lost its FPU registers beside the guest",
                          session.details())
        session.wait_for(GUEST_PASSED, GUEST_TIMEOUT)
        expect_answer(session, "guest stats", [
            "guest: stopped: it asked to stop: emulator exit (value 0x10)",
            re.compile(r"^  exits [1-9]\d*, traps reflected [1-9]"),
            re.compile(r"^  hypercall write_cr3 +[1-9]"),
            re.compile(r"^  hypercall load_ldt +[1-9]")])
        problem = panic_line(host_lines(session))
        if problem:
            raise Failure(f"host: {problem}", session.details())
    finally:
        session.close()


# Which hostile guests there are is said once: the KTEST_ALONE(hostile_*)
# tests of HOSTILE_SOURCE, run in its order (hostile_tests()).  HOSTILE
# gives the host's answer to each; a test it does not answer, or an
# answer to no test, fails the row before any guest starts.
HOSTILE_SOURCE = "tests/kernel/test_hostile_guest.c"
# (the test, what the host must say about it, why the guest stopped):
# an honest refusal lets the guest's test pass (exit value 0x10).
PASSED = "it asked to stop: emulator exit (value 0x10)"
# The Switcher's code selector, 0x58, follows the guest's GDT (asm/switcher.h):
# the gates below that name it are the ones a guest may never set.
HOSTILE = [
    ("hostile_cli", "host: the guest ran cli itself at ",
     "it asked to stop: emulator exit (value 0x11)"),   # its #GP: a panic
    ("hostile_idt_gate_to_switcher", "host: the guest's IDT gate 240 "
     "(0010ee0000580000) refused: not the guest kernel's segment", PASSED),
    ("hostile_gdt_call_gate", None, "GDT entry 7 (0010ec0000080000): a system descriptor"),
    ("hostile_gdt_host_tss", None, "GDT entry 5 (0000891000000067): a GDT entry the "
     "guest may not write"),
    ("hostile_gdt_ring0_segment", None, PASSED),
    ("hostile_ldt_call_gate", None, "LDT entry 1 (0010ec0000080000): a system descriptor"),
    ("hostile_stack_outside", None, "set_stack 0011:40000000: outside the guest kernel"),
    ("hostile_cr3_outside", None, "write_cr3: 40000000 is not a page of its memory"),
    ("hostile_page_table_outside", None, "its page tables map 80000000 outside its memory"),
    ("hostile_switcher_write", None, PASSED),
    ("hostile_no_gates", None, "trap 13 at "),
    ("hostile_unknown_hypercall", "host: the guest made hypercall 65536, which there is not",
     PASSED),
    ("hostile_watchpoint_on_switcher", None,
     "set_debugreg 7 to 000d0001: a watchpoint on the Switcher"),
    ("hostile_debug_general_detect", None,
     "set_debugreg 7 to 00002000: a debug control a guest may not set"),
    ("hostile_page_table_notices", None, PASSED),
    ("hostile_msr_writes", None, PASSED),
    ("hostile_io_privilege_level", None, "set_iopl: no I/O privilege level 1 for its programs"),
    ("hostile_queue_overflow", None, "4294967295 calls in a queue of 16"),
    ("hostile_shared_page_outside", None, "init: its shared pages at 40000000 are not whole pages of its memory"),
    ("hostile_vm86_iret", None, "it asked to stop: emulator exit (value 0x11)"),
    ("hostile_console_outside", None, PASSED),
    ("hostile_console_flood", None, PASSED),
    ("hostile_irqs_off_forever", None, "interrupts off for 10 s with one waiting"),
    ("hostile_report_flood", "host: the guest's IDT gate 0 "
     "(00108e0000580000) refused: not the guest kernel's segment", PASSED),
    ("hostile_large_page", None, "its page directory maps 80000000 with a 4 MiB page (PS=1)"),
    ("hostile_stack_accessed_dirty", None, PASSED),
    ("hostile_stack_unmapped", None,
     "trap 241: its page tables do not map its stack, at "),
    ("hostile_stack_unmapped_push", None,
     "trap 14: its page tables do not map its stack, at "),
    ("hostile_stack_read_only", None,
     "trap 241: its page tables map its stack read-only, at "),
    ("hostile_shadow_quota_new_directory", None,
     "its page tables reached their quota of 104 host frames"),
    ("hostile_shadow_quota", None, "its page tables reached their quota of 104 host frames"),
    ("hostile_fast_switch_outside", None, "write_cr3: 40000000 is not a page of its memory"),
    ("hostile_fast_switch_stack_outside", None,
     "set_stack 0011:40000000: outside the guest kernel"),
    ("hostile_fast_switch_forged", None, "trap 14: its page tables do not map its stack, at "),
    ("hostile_fast_switch_stale", None, PASSED),
    ("hostile_prefill_outside", None, "its page tables map 80000000 outside its memory"),
    ("hostile_shared_table_swapped", None, PASSED),
]
HOSTILE_TIMEOUT = 30    # the longest: 10 s of interrupts off
# What the host may print about one hostile guest, its own lines (not the
# guest's console): a few lines, bounded whatever the guest does (20
# load_idt calls, each reported in full, would make it print 464 KB).
HOST_BYTES_PER_GUEST = 2048


def hostile_tests(source=HOSTILE_SOURCE, answers=HOSTILE):
    """[(test, said, stopped)]: each KTEST_ALONE(hostile_*) of source,
    in its order, with its answer from answers; a Failure naming every
    test without an answer and every answer without a test."""
    with open(os.path.join(ROOT, source)) as f:
        names = re.findall(r"^KTEST_ALONE\((hostile_\w+)\)", f.read(), re.M)
    by_name = {test: (said, stopped) for test, said, stopped in answers}
    problems = [f"{test}: a hostile guest in {source} with no answer in "
                "tests/suite/guest.py's HOSTILE" for test in names if test not in by_name]
    problems += [f"{test}: an answer in HOSTILE to no KTEST_ALONE({test}) in {source}"
                 for test in by_name if test not in names]
    if not names:
        problems.append(f"no KTEST_ALONE(hostile_*) in {source}")
    if problems:
        raise Failure(problems[0], problems[1:])
    return [(test, *by_name[test]) for test in names]


def wait_after(session, text, start, timeout):
    """Until COM1 has said text after offset start; False if never."""
    silence = session.silence(timeout)
    while text not in session.received[start:]:
        if silence.expired() or session.receive() is None:
            return False
    return True


def host_bytes(received):
    """How much of COM1's received bytes the host printed itself: all
    but the guest's console lines."""
    text = received.decode("utf-8", "replace").split("\n")
    return sum(len(line) + 1 for line in text
               if not PROMPTS.sub("", line.strip("\r")).startswith(GUEST_PREFIX))


def check_host_said_little(session, spans):
    """Each hostile guest (test, start, end offsets) made the host print
    at most HOST_BYTES_PER_GUEST of its own."""
    for test, start, end in spans:
        said = host_bytes(session.received[start:end])
        if said > HOST_BYTES_PER_GUEST:
            raise Failure(f"{test}: the host printed {said} bytes about it, more than "
                          f"{HOST_BYTES_PER_GUEST}", session.details())


def hostile_guests(log, build):
    """Each hostile guest in turn, in one host: what the host said, and
    why it stopped the guest, read from its lines since that start; and
    that the host said little about each."""
    hostile = hostile_tests()
    session = ShellSession(log, build, extra=["-initrd", build.elf])
    try:
        starts = []
        for test, said, stopped in hostile:
            start = len(session.received)
            starts.append((test, start))
            expect_answer(session, f"guest start test={test}", [])
            for text in (said, f"host: guest stopped: {stopped}"):
                if text and not wait_after(session, text.encode(), start, HOSTILE_TIMEOUT):
                    raise Failure(f"{test}: the host never said {text!r}", session.details())
        ends = [start for _, start in starts[1:]] + [len(session.received)]
        check_host_said_little(session, [(test, start, end)
                                         for (test, start), end in zip(starts, ends)])
        guest_text = [line for line in session_lines(session) if line.startswith(GUEST_PREFIX)]
        if any(ch < " " and ch != "\t" for line in guest_text for ch in line):
            raise Failure("a guest's control characters reached the host's console",
                          session.details())
        expect_answer(session, "guest stats", [f"guest: stopped: {hostile[-1][2]}"])
        expect_answer(session, "cpu", ["paravirt backend native"])
        problem = panic_line(host_lines(session))
        if problem:
            raise Failure(f"host: {problem}", session.details())
    finally:
        session.close()


# (name, the host's build, its -cpu model): the guest is always Y's.
GUEST_MATRIX = [
    ("guest-matrix-y-486", Y, "486"),
    ("guest-matrix-y-pentium3", Y, "pentium3"),
    ("guest-matrix-n-qemu32", N, "qemu32"),
]


GUEST_ISO = f"{Y.dir}/pv386-guest-test.iso"    # boot/grub.cfg's guest entry

# The guest's cures that a boot option turns off (docs/guest.md, "What it
# costs"; fpu=lazy is guest-fpu-lazy-y's): the row's name, and
# guest_matrix's arguments - the option, the line that says it is
# off, and the tests of what it changes, which must pass with the rest.
SWITCH_TESTS = ["ktest: PASS user_tls_is_per_task", "ktest: PASS user_fpu_state_is_per_task",
                "ktest: PASS user_watchpoints_are_per_task"]
# What the shadows' cures change: the accessed and dirty bits, more
# address spaces than kept shadows, programs spawned and ended.
SHADOW_TESTS = ["ktest: PASS page_access_sets_accessed_then_dirty",
                "ktest: PASS user_fpu_state_survives_migration",
                "ktest: PASS tasks_end_with_their_own_status"]
CURES_OFF = [
    ("guest-nolazycpu-y",
     {"guest": "test+nolazycpu",
      "expect": ["paravirt: guest without its lazy CPU mode (nolazycpu): "
                 "each op of a context switch calls the host$", *SWITCH_TESTS]}),
    ("guest-noinlineflags-y",
     {"guest": "test+noinlineflags",
      "expect": ["paravirt: guest flag ops called, not inline (noinlineflags)$",
                 "ktest: PASS save_fl_reads_known_flags",
                 "ktest: PASS save_fl_irq_disable_returns_old_flags",
                 "ktest: PASS restore_fl_restores_both_states",
                 "ktest: PASS irq_restore_takes_pending_timer"]}),
    ("guest-nofastswitch-y",
     {"host_options": "nofastswitch", "expect": SWITCH_TESTS,
      "host_expect": ["host: the Switcher's fast context switch is off (nofastswitch): "
                      "every context_switch hypercall exits to the host$"]}),
    ("guest-noshadowshare-y",
     {"host_options": "noshadowshare", "expect": SHADOW_TESTS,
      "host_expect": ["host: the guest's kernel tables are not shared among its shadows "
                      "(noshadowshare): each shadow fills its own$"]}),
    ("guest-noshadowspares-y",
     {"host_options": "noshadowspares", "expect": SHADOW_TESTS,
      "host_expect": ["host: the guest's shadows keep no spare frames (noshadowspares): "
                      "each frame goes back to the host at once$"]}),
    ("guest-noprefill-y",
     {"host_options": "noprefill",
      "expect": [*SHADOW_TESTS, "ktest: PASS pv_switch_stress_short"],
      "host_expect": ["host: the guest's changed page-table entries are not made again "
                      "(noprefill): each is forgotten$"]}),
]


def guest_matrix(log, host, cpu, extra=(), guest="test", expect=(), host_options="",
                 host_expect=()):
    """The guest's suite under one more host, to QEMU's exit (extra: more
    QEMU options, such as -smp; guest: the guest's command line, '+' for
    a space; expect: lines the guest must print; host_options and
    host_expect: the host's own options, and lines it must print)."""
    need_tool(QEMU, "qemu")
    need_file(host.elf, host.make("all"))
    need_file(Y.elf, Y.make("all"))
    fresh_log(log)
    append = f"guest={guest} guestexit {host_options}".strip()
    cmd = qemu_command(log, cpu, ["-kernel", host.elf, "-initrd", Y.elf,
                                  "-append", append, *extra])
    outcome = run_emulator(cmd, GUEST_TIMEOUT)
    judge_guest_run(log, outcome, outcome.status != QEMU_PASS and
                    f"QEMU status {outcome.status}, not a pass", expect, host_expect)


def guest_bochs(log, cpu):
    """The guest's suite from the guest ISO, in Bochs."""
    need_file(GUEST_ISO, Y.make("iso"))
    outcome, problem = run_bochs(log, GUEST_ISO, cpu, KTEST_BOCHS_TIMEOUT)
    judge_guest_run(log, outcome, problem)


def judge_guest_run(log, outcome, emulator_problem, expect=(), host_expect=()):
    """The guest's suite passed, printing a line starting with each of
    expect, the host did not panic and printed each of host_expect, and
    the emulator ended as it should (emulator_problem: why not, or
    None)."""
    lines = read_serial(log)
    guest = [line[len(GUEST_PREFIX):] for line in lines if line.startswith(GUEST_PREFIX)]
    host = [line for line in lines if not line.startswith(GUEST_PREFIX)]
    problem = ktest_problem(guest) or no_line_starting(guest, expect)
    if problem:
        problem = f"guest: {problem}"
    elif no_line_starting(host, host_expect):
        problem = f"host: {no_line_starting(host, host_expect)}"
    elif panic_line(lines):
        problem = f"host: {panic_line(lines)}"
    elif emulator_problem:
        problem = emulator_problem
    if problem:
        raise Failure(problem, log_details(log, lines, outcome.output))


# ---- the guest fuzzer (tests/guestfuzz/, tests/kernel/test_guest_fuzz.c) ----
#
#   guest-fuzz-y                 A host runs the fuzzing guest life after
#                                life for a bounded time (test=guest_fuzz,
#                                seed 1) and checks itself between its
#                                batches: the ktest passes, the host never
#                                panics, and no guest finding is reported.
#   guest-fuzz-bochs-y-pentium   The same from build/pv386-guestfuzz-test.iso
#                                (seed 2, its GUESTFUZZ_ISO_CMD) in Bochs,
#                                whose CPU pushes what QEMU's TCG does not.
#
# A failure shows the ktest's lines: each names the seed and the life,
# and the `make fuzz-guest` line that replays it.

GUESTFUZZ_SECONDS = 30
GUESTFUZZ_APPEND = f"test=guest_fuzz guestfuzz=seed=1,seconds={GUESTFUZZ_SECONDS}"
GUESTFUZZ_TIMEOUT = GUESTFUZZ_SECONDS + 90     # a life's limit, and the boot
GUESTFUZZ_ISO = f"{Y.dir}/pv386-guestfuzz-test.iso"
GUESTFUZZ_BOCHS_TIMEOUT = 240


def guest_fuzz_lines(lines):
    """The ktest's own lines about the run: its failures and summary."""
    return [line for line in lines
            if line.startswith(("ktest:   ", "guestfuzz: seed", "guest: guestfuzz: FINDING"))]


def judge_guest_fuzz(log, outcome, emulator_problem):
    """The fuzzer's ktest passed and the host never panicked; else its
    lines (seed, life, replay) first."""
    lines = read_serial(log)
    problem = ktest_problem(lines) or emulator_problem
    if problem:
        raise Failure(problem, guest_fuzz_lines(lines)[:40] +
                      log_details(log, lines, outcome.output))


def guest_fuzz(log, build):
    """The bounded run under QEMU."""
    need_tool(QEMU, "qemu")
    need_file(build.elf, build.make("all"))
    fresh_log(log)
    cmd = qemu_command(log, "qemu32", ["-kernel", build.elf, "-append", GUESTFUZZ_APPEND])
    outcome = run_emulator(cmd, GUESTFUZZ_TIMEOUT)
    judge_guest_fuzz(log, outcome, outcome.status != QEMU_PASS and
                     f"QEMU status {outcome.status}, not a pass")


def guest_fuzz_bochs(log, cpu):
    """The bounded run from the fuzzer's ISO, in Bochs."""
    need_file(GUESTFUZZ_ISO, Y.make("iso"))
    outcome, problem = run_bochs(log, GUESTFUZZ_ISO, cpu, GUESTFUZZ_BOCHS_TIMEOUT)
    judge_guest_fuzz(log, outcome, problem)


STOP_START = b"guest stop\rguest start\r"
BUSY = "host: no guest: a guest is running already"
GUEST_THREAD = re.compile(r"^\s*\d+\s+-?\d+\s+guest\s+(running|runnable|sleeping|waiting)")


def guest_threads(session):
    """How many live host threads `tasks` names guest."""
    return sum(bool(GUEST_THREAD.match(line)) for line in expect_answer(session, "tasks", []))


def stop_start_together(log, build):
    """`guest stop` and `guest start` typed as one line after the other:
    the start waits for the stopped guest's thread to let it go (or, if
    it never does, is refused as busy) - never two threads running one
    guest - and a guest boots again."""
    session = ShellSession(log, build, extra=["-initrd", build.elf])
    try:
        expect_answer(session, "guest start", ["host: guest started"])
        session.wait_for(GUEST_READY, GUEST_TIMEOUT)
        start = len(session.received)
        session.command("guest stop", raw=STOP_START)
        session.answer_from(session.mark, GUEST_TIMEOUT, "'guest start'")   # its prompt too
        if guest_threads(session) > 1:
            raise Failure("two host threads run the guest after a stop and a start",
                          session.details())
        if BUSY.encode() in session.received[start:]:
            expect_answer(session, "guest start", ["host: guest started"])
        if not wait_after(session, GUEST_READY, start, GUEST_TIMEOUT):
            raise Failure("no guest booted again after the stop", session.details())
        if guest_threads(session) != 1:
            raise Failure("not one host thread for the running guest", session.details())
        expect_answer(session, "guest stop", [])
        problem = panic_line(host_lines(session))
        if problem:
            raise Failure(f"host: {problem}", session.details())
    finally:
        session.close()


SHORT_OF_FRAMES_MIB = 16   # its memset of every free frame: quick here


def short_of_frames(log, build):
    """guest_start_short_of_frames, run alone, where taking every free
    frame is quick; it must pass, not skip."""
    qemu_ktest(log, build, "qemu32", append="test=guest_start_short_of_frames",
               memory=SHORT_OF_FRAMES_MIB,
               expect=["ktest: PASS guest_start_short_of_frames"])


# ---- NMIs from the machine while a guest runs ----

NMI_INTERVAL = 0.002     # seconds from one `nmi` to the next: 500 a second
# The host must count at least NMI_COUNTED_MIN of the NMIs (the CPU took
# that many, wherever they came), never more than were sent (a guest
# cannot make the host see one), and at least NMI_COUNTED_SHARE of those
# sent.  Not all: QEMU's monitor answers `nmi` before the CPU takes it,
# and merges one sent while another is still pending, as a CPU holds one
# NMI pending while it handles another; sent at full speed, 1 in 9 was
# taken.  Paced at NMI_INTERVAL, nearly all are, unless the emulator's
# CPU thread waits for a core for milliseconds on a loaded machine.
NMI_COUNTED_MIN = 1000
NMI_COUNTED_SHARE = 0.25
NMI_NO_PROGRESS = 30     # seconds without a line on COM1: stuck
MONITOR_PROMPT = b"(qemu) "
HOST_NMIS = re.compile(r"^  NMIs (\d+), (\d+) of them while it ran or switched, "
                       r"(\d+) inside the Switcher$")
GUEST_STOPPED = re.compile(rb"host: guest stopped: [^\r\n]*(?=\r?\n)")   # whole lines
# What a guest kernel prints for an interrupt nothing in it raised: a fake
# one (the Switcher reading an NMI's frame as the guest's) shows here; a
# fake exception panics it or fails a test.
GUEST_STRAY_TRAP = re.compile(r"trap: unexpected interrupt")


class NmiFlood:
    """`nmi` sent to QEMU's monitor every NMI_INTERVAL (or once it
    answered the last, if later), from a thread, until stopped; sent
    counts those it answered."""

    def __init__(self, monitor_path):
        self.monitor_path = monitor_path
        self.sent = 0
        self.error = None
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        try:
            with socket.socket(socket.AF_UNIX) as mon:
                mon.connect(self.monitor_path)
                mon.settimeout(NMI_NO_PROGRESS)
                self.prompt(mon, b"")
                due = time.monotonic()
                while not self.done.wait(max(0, due - time.monotonic())):
                    mon.sendall(b"nmi\n")
                    self.prompt(mon, b"")
                    self.sent += 1
                    due += NMI_INTERVAL
        except OSError as e:
            self.error = e

    @staticmethod
    def prompt(mon, text):
        """Read until the monitor's prompt."""
        while not text.endswith(MONITOR_PROMPT):
            data = mon.recv(4096)
            if not data:
                raise OSError("the monitor closed")
            text += data

    def stop(self):
        self.done.set()
        self.thread.join(NMI_NO_PROGRESS)
        return self.sent


def wait_progressing(session, text, what):
    """Until COM1 has said text; Failure if it says nothing new for
    NMI_NO_PROGRESS seconds or QEMU ends (a reset, with -no-reboot)."""
    last, quiet_since = len(session.received), time.monotonic()
    while text not in session.received:
        if session.receive() is None:
            raise Failure(f"QEMU ended before {what}: a reset or a triple fault?",
                          session.details())
        if len(session.received) != last:
            last, quiet_since = len(session.received), time.monotonic()
        elif time.monotonic() - quiet_since > NMI_NO_PROGRESS:
            raise Failure(f"nothing on COM1 for {NMI_NO_PROGRESS} s before {what}",
                          session.details())
        if b"KERNEL PANIC" in session.received:
            raise Failure(f"{panic_line(session_lines(session))}", session.details())
        stopped = GUEST_STOPPED.search(session.received)
        if stopped and stopped.group(0) != GUEST_PASSED:
            raise Failure(stopped.group(0).decode("utf-8", "replace"), session.details())


def guest_under_nmis(log, build):
    """The guest's suite under a flood of NMIs from the machine."""
    session = ShellSession(log, build, "guest=test", extra=["-initrd", Y.elf])
    flood = None
    try:
        wait_progressing(session, GUEST_READY, "the guest's ready line")
        flood = NmiFlood(session.monitor_path)
        wait_progressing(session, GUEST_PASSED, "the guest's suite passed")
        sent = flood.stop()
        if flood.error:
            raise Failure(f"QEMU's monitor: {flood.error} after {sent} NMIs",
                          session.details())
        problem = ktest_problem(guest_lines(session))
        stray = next((l for l in guest_lines(session) if GUEST_STRAY_TRAP.search(l)), None)
        if problem or stray:
            raise Failure(f"guest: {problem or stray}", session.details())
        answer = expect_answer(session, "guest stats", [HOST_NMIS])
        counted, inside = next((int(m.group(1)), int(m.group(3)))
                               for m in map(HOST_NMIS.match, answer) if m)
        if not max(NMI_COUNTED_MIN, NMI_COUNTED_SHARE * sent) <= counted <= sent:
            raise Failure(f"host: {counted} NMIs counted of {sent} sent (at least "
                          f"{NMI_COUNTED_MIN} and {NMI_COUNTED_SHARE:.0%}, at most all)",
                          session.details())
        if not inside:
            raise Failure("host: no NMI came inside the Switcher: the row did not test it "
                          "(a few hundred do in a run)", session.details())
        problem = panic_line(host_lines(session))
        if problem:
            raise Failure(f"host: {problem}", session.details())
    finally:
        if flood:
            flood.stop()
        session.close()


def tests():
    return ([Test("guest-ktest-y", guest_ktest, (Y,)),
             Test("guest-ktest-host-fpu=eager-y", guest_ktest, (Y, "fpu=eager"),
                  {"host_says": ["fpu: present, switched eagerly with fxsave/fxrstor "
                                 "(fpu=eager)$"]}),
             # The guest lazy against its backend's choice: the round
             # trips eager switching saves it (arch/x86/kernel/fpu.c).
             Test("guest-fpu-lazy-y", guest_matrix, (Y, "qemu32"),
                  {"guest": "test+fpu=lazy",
                   "expect": ["fpu: present, switched lazily with fxsave/fxrstor (fpu=lazy)$",
                              "ktest: PASS user_fpu_state_is_per_task",
                              "ktest: PASS fpu_switching_is_the_backends_unless_fpu_says",
                              "ktest: PASS fpu_switching_kept_across_a_live_switch"]}),
             # Each cure off in turn (CURES_OFF), as make bench measures it.
             *[Test(name, guest_matrix, (Y, "qemu32"), args) for name, args in CURES_OFF],
             Test("guest-hostile-y", hostile_guests, (Y,))] +
            [Test(name, guest_matrix, (host, cpu)) for name, host, cpu in GUEST_MATRIX] +
            [Test("guest-bochs-y-pentium", guest_bochs, ("pentium",)),
             Test("guest-nmi-y", guest_under_nmis, (Y,)),
             Test("guest-nmi-n", guest_under_nmis, (N,)),
             Test("guest-short-of-frames-y", short_of_frames, (Y,)),
             Test("guest-stop-start-y", stop_start_together, (Y,)),
             Test("guest-fuzz-y", guest_fuzz, (Y,)),
             # A host of two CPUs: its local APIC's timer interrupts the
             # guest, and the Switcher hands those to the host.
             Test("guest-smp-2-y", guest_matrix, (Y, "qemu32"), {"extra": ["-smp", "2"]}),
             Test("guest-fuzz-bochs-y-pentium", guest_fuzz_bochs, ("pentium",))])
