"""tests/suite/hammer.py - the live backend switch while every CPU runs
the sites it rewrites (docs/smp.md, "Patching while other CPUs
run"), and the TLB shootdown under load ("TLB shootdown").

  hammer-smp-*-y   The PARAVIRT=y kernel on QEMU -smp 4 and -smp 2 with
                   the ops ROM as a module, booted to its shell:
                   `hammer start N` starts a kernel thread and a user
                   program (user/hammer.c) per CPU, which run the irq
                   ops, read_cr3, a spinlock and the system-call path
                   (int $0x80 and sysenter) and check every result; then
                   `pv cycle N` switches native -> trace -> rom -> native
                   N times in a row, stopping the other CPUs for each;
                   `hammer stop` ends the threads.  Each user hammer
                   has a thread that takes a heap page and gives it
                   back over and over, so that shootdowns are in flight
                   at the switches; the kernel is booted with
                   lockdebug.  It must show: every
                   switch done, none busy, back on native; one stop per
                   switch, every other CPU stopped at each (the CPUs
                   count themselves), no stop timed out; every user
                   hammer alive at every switch; no wrong result from any
                   hammer, the locked count exact, every CPU running
                   kernel rounds, and the user hammers' rounds on every
                   CPU; heap pages given back by every user hammer and
                   TLB shootdowns asked; not one `lockdep:` line (a
                   lock held too long: a shootdown waiting for CPUs
                   held by the stop); and a command after it all still
                   answers.
                   (PARAVIRT=n has no table and no switch: no row.)
  shootdown-typing-smp-4-*  Booted with lockdebug on -smp 4: `run
                   tlbshoot storm3000` gives a heap page back 3000 times
                   with reader threads on the other CPUs while the test
                   presses Enter every 20 ms, so the input interrupt
                   comes while a shootdown waits with its lock held and
                   interrupts on.  The storm ends well, and not one
                   `lockdep:` line appears.
  tlb-*            The TLB shootdown's in-kernel tests (test=tlb) on -smp
                   4 with multi-threaded TCG, without lockdebug (see
                   tlb_row; the one-threaded rows above check the lock
                   order during shootdowns): a page given
                   back faults at once elsewhere, flush_tlb_others
                   returns only after the slowest CPU answered, frames
                   given back are never read through a stale entry after
                   another program took them; tlb-sparse-4-y with CPU 2
                   left out, so the CPUs asked are numbered past the
                   count online.
"""

import re
import time

from .builds import N, Y
from .harness import Failure, Test
from .judge import line_has
from .ktest import qemu_ktest
from .rom import ROM
from .shell_session import ShellSession, expect_answer

# Per row, by CPUs: the switches of `pv cycle` and each user hammer's
# rounds.  The switches are chosen so that a row takes some 20 s on an
# idle two-core host (16 s and 10 s of it the cycle: each switch rewrites
# every site, and QEMU retranslates the code around them, with the other
# CPUs stopped), at most twice that loaded; a multiple of 3, so that the
# cycle ends on native, where it began.  The rounds are enough for the
# user hammers to outlive the cycle by a few seconds (checked: each must
# be alive at every switch); they are waited for after it.
HAMMER_ROWS = {4: (2001, 200000), 2: (1200, 150000)}
CYCLE_TIMEOUT = 120
HAMMER_END_TIMEOUT = 120
# One host thread for the CPUs, as the four-CPU suite rows (smp.py):
# with a thread each, a CPU spinning for a stop waits on the host's
# scheduler, not on the guest.
ONE_THREAD = ["-accel", "tcg,thread=single"]


def number(pattern, text, what):
    """The integers of pattern's groups in text, or a Failure."""
    m = re.search(pattern, text)
    if not m:
        raise Failure(f"hammer: no {what} in: {text!r}")
    return [int(g) for g in m.groups()]


def per_cpu(text):
    """{cpu: count} from " 0:123 1:456 ..."."""
    return {int(c): int(n) for c, n in re.findall(r" (\d+):(\d+)", text)}


def check_cycle(answer, cpus, switches):
    """`pv cycle`'s two summary lines: all switches done, each a stop of
    every other CPU, none timed out, the user hammers alive throughout."""
    text = "\n".join(answer)
    done, n, _, busy = number(r"pv cycle: (\d+) switches of (\d+) in (\d+) ticks, "
                              r"(\d+) busy, now native", text, "cycle summary")
    stops, stopped, others, timeouts, users = number(
        r"pv cycle: (\d+) stops, (\d+) CPUs stopped \((\d+) other CPUs online\), "
        r"(\d+) timed out; at least (\d+) user tasks alive", text, "stop counts")
    problems = []
    if (done, n, busy) != (switches, switches, 0):
        problems.append(f"{done} of {n} switches done, {busy} busy (want {switches}, 0)")
    if others != cpus - 1 or stops != switches or stopped != switches * (cpus - 1):
        problems.append(f"{stops} stops and {stopped} CPUs stopped for {switches} "
                        f"switches of {cpus} CPUs (want {switches} and "
                        f"{switches * (cpus - 1)})")
    if timeouts:
        problems.append(f"{timeouts} stops timed out")
    if users < cpus:
        problems.append(f"only {users} user tasks alive at some switch: the user "
                        f"hammers ({cpus}) did not outlive the storm")
    return problems


def check_kernel_hammers(answer, cpus):
    """`hammer stop`: rounds on every CPU, the locked count exact, no
    wrong result."""
    text = "\n".join(answer)
    rounds = per_cpu(re.search(r"hammer: rounds per CPU:(.*)", text).group(1)
                     if "rounds per CPU" in text else "")
    shared, mine, _, wrong = number(r"hammer: locked count (\d+) of (\d+), (\d+) "
                                    r"migrations, (\d+) wrong", text, "hammer totals")
    problems = []
    idle = [c for c in range(cpus) if not rounds.get(c)]
    if idle:
        problems.append(f"no kernel hammer rounds on CPU {idle}: {rounds}")
    if shared != mine:
        problems.append(f"locked count {shared}, but the threads made {mine}")
    if wrong:
        problems.append(f"{wrong} wrong results in the kernel hammers")
    shootdowns, = number(r"hammer: (\d+) TLB shootdowns asked", text, "shootdown count")
    if not shootdowns:
        problems.append("no TLB shootdown asked while the hammers ran")
    return problems


def check_user_hammers(log_text, cpus, calls):
    """Each user hammer's last line: its rounds, none wrong, on every CPU
    between them."""
    ends = re.findall(r"hammer: pid (\d+) done: (\d+) rounds \([^)]*\), (\d+) wrong, "
                      r"(\d+) heap pages given back; rounds by CPU:(.*)", log_text)
    problems = []
    if len(ends) != cpus:
        problems.append(f"{len(ends)} user hammers reported their end, not {cpus}")
    seen = set()
    for pid, rounds, wrong, shrinks, by_cpu in ends:
        counts = per_cpu(by_cpu)
        seen |= {c for c, n in counts.items() if n}
        if int(wrong) or int(rounds) != calls or sum(counts.values()) != calls:
            problems.append(f"user hammer {pid}: {rounds} rounds, {wrong} wrong, by CPU "
                            f"{counts}")
        if not int(shrinks):
            problems.append(f"user hammer {pid}: its heap thread gave no page back")
    if set(range(cpus)) - seen:
        problems.append(f"no user hammer round on CPUs {sorted(set(range(cpus)) - seen)}")
    return problems


def lockdep_lines(text):
    """The lock debugger's reports in a session's text (a report may
    follow a prompt on its line)."""
    return [l[l.index("lockdep:"):].strip() for l in text.split("\n") if "lockdep:" in l]


def hammer_storm(log, build, cpus):
    """Boot with the ROM, start the hammers, cycle, stop, judge."""
    switches, calls = HAMMER_ROWS[cpus]
    session = ShellSession(log, build, "lockdebug",
                           extra=["-smp", str(cpus), *ONE_THREAD, "-initrd", ROM])
    try:
        expect_answer(session, f"hammer start {calls}",
                      [f"hammer: {cpus} kernel threads and {cpus} user programs"])
        cycle = expect_answer(session, f"pv cycle {switches}", ["pv cycle: "],
                              timeout=CYCLE_TIMEOUT)
        stop = expect_answer(session, "hammer stop", ["hammer: locked count",
                                                      " TLB shootdowns asked since"])
        wait_user_hammers(session, cpus)
        backend = expect_answer(session, "pv", ["pv: backend "])
        log_text = session.received.decode("utf-8", "replace")
        problems = [] if any(line_has(a, "pv: backend native (") for a in backend) else \
            ["not back on native after the cycle"]
        problems += (check_cycle(cycle, cpus, switches) +
                    check_kernel_hammers(stop, cpus) +
                    check_user_hammers(log_text, cpus, calls))
        if "WRONG" in log_text:
            problems.append("a hammer printed a WRONG line")
        reports = lockdep_lines(log_text)
        if reports:
            problems.append(f"{len(reports)} lockdep reports, the first: {reports[0]}")
        if problems:
            raise Failure("; ".join(problems), session.details())
    finally:
        session.close()


def wait_user_hammers(session, cpus):
    """Until every user hammer has printed its end (Enter now and then:
    the shell reports the ends of its programs before a prompt)."""
    deadline_rounds = HAMMER_END_TIMEOUT * 2
    for _ in range(deadline_rounds):
        if session.received.count(b" done: ") >= cpus:
            return
        session.pause(0.5)
        session.command("", raw=b"\r")
    raise Failure(f"the user hammers did not all end within {HAMMER_END_TIMEOUT} s",
                  session.details())


# Typing during shootdowns: Enter every TYPING_INTERVAL seconds (each
# byte an input interrupt on the boot CPU, the prompt an answer to it)
# while `tlbshoot storm` gives a page back STORM_SHRINKS times with
# readers on the other CPUs.
STORM_SHRINKS = 3000
STORM_TIMEOUT = 180
TYPING_INTERVAL = 0.02


def typing_during_shootdowns(log, build, cpus):
    """Booted with lockdebug: the input interrupt, which takes the input
    queue's lock, comes while the boot CPU waits for a shootdown's
    answers with interrupts on, holding the shootdown's lock.  The lock
    order must say so: not one `lockdep:` line in the whole session."""
    session = ShellSession(log, build, "lockdebug",
                           extra=["-smp", str(cpus), *ONE_THREAD])
    try:
        expect_answer(session, f"run tlbshoot storm{STORM_SHRINKS}",
                      ["run: tlbshoot started as pid"])
        typed, deadline = 0, time.monotonic() + STORM_TIMEOUT
        while b"tlbshoot: storm:" not in session.received:
            if time.monotonic() > deadline:
                raise Failure(f"no end of tlbshoot storm within {STORM_TIMEOUT} s",
                              session.details())
            session.send(b"\r")
            typed += 1
            session.pause(TYPING_INTERVAL)
        session.until_reported(b"exited with status", STORM_TIMEOUT)
        text = session.received.decode("utf-8", "replace")
        problems = []
        want = (f"tlbshoot: storm: {STORM_SHRINKS} pages given back, 3 of 3 readers ok, "
                "0 wrong reads")
        if want not in text:
            problems.append(f"no {want!r}")
        if not re.search(r"shell: pid \d+ exited with status 0", text):
            problems.append("tlbshoot storm did not exit with status 0")
        reports = lockdep_lines(text)
        if reports:
            problems.append(f"{len(reports)} lockdep reports while typing {typed} "
                            f"lines, the first: {reports[0].strip()}")
        if problems:
            raise Failure("; ".join(problems), session.details())
    finally:
        session.close()


# The TLB shootdown's in-kernel tests (tests/kernel/test_tlb.c, test=tlb)
# with four CPUs that run at once: QEMU's multi-threaded TCG, where a
# CPU's stale TLB entry can be used while another CPU frees the frame
# under it.  tlb-sparse-4-y leaves CPU 2 out (the ktest scenario
# tlb_apic2_never_answers, tests/kernel/boot_scenarios.c): the CPUs
# asked are 1 and 3, numbered past the count of CPUs online.
TLB_TESTS = ["ktest: PASS tlb_page_given_back_faults_on_every_cpu",
             "ktest: PASS tlb_page_given_back_when_the_other_cpus_come_late",
             "ktest: PASS tlb_thread_outlives_its_creator",
             "ktest: PASS tlb_flush_others_returns_after_every_answer",
             "ktest: PASS tlb_flush_others_waits_for_the_slowest_cpu",
             "ktest: PASS tlb_freed_frames_never_reach_a_stale_reader"]
MULTI_THREAD = ["-accel", "tcg,thread=multi"]
TLB_TIMEOUT = 180


# Booted without lockdebug: with a host thread per CPU, on a host with
# fewer cores than the row's four CPUs and other work, the host may
# deschedule the thread of a CPU a shootdown waits for for longer than
# lockdep's hold limit (half a second of guest ticks, which follow the
# host's clock), and brk_lock and tlb_shootdown_lock are then reported
# held too long although nothing in the guest is wrong: a lock holder's
# wait for a preempted vCPU, which the guest cannot tell from a hang of
# its own.  The limit stays as it is; the rows that check the lock order
# and hold times during shootdowns (shootdown-typing-*, hammer-*) run
# their CPUs on one host thread, where a CPU waited for is never
# descheduled while its waiter runs.
def tlb_row(name, build, tests="tlb", said=()):
    return Test(name, qemu_ktest, (build, "qemu32"),
                {"append": f"test={tests}",
                 "extra": ["-smp", "4", *MULTI_THREAD],
                 "expect": TLB_TESTS + list(said), "timeout": TLB_TIMEOUT})


def tests():
    return [
        tlb_row("tlb-smp-4-y", Y, said=["smp: 4 CPUs running"]),
        tlb_row("tlb-smp-4-n", N, said=["smp: 4 CPUs running"]),
        tlb_row("tlb-sparse-4-y", Y, "tlb_apic2_never_answers",
                said=["smp: 3 CPUs running",
                      "smp: CPU 2 (APIC id 2) did not answer the start-up"]),
        Test("hammer-smp-4-y", hammer_storm, (Y, 4)),
        Test("hammer-smp-2-y", hammer_storm, (Y, 2)),
        Test("shootdown-typing-smp-4-y", typing_during_shootdowns, (Y, 4)),
        Test("shootdown-typing-smp-4-n", typing_during_shootdowns, (N, 4)),
    ]
