"""tests/suite/trace.py - the trace backend and live switching.

  trace-*          The trace backend and live switching: the whole
                   in-kernel suite with pv=trace (every site a direct call
                   to trace's counting stubs), also on a 486 and with
                   nopatch; a plain boot with pv=trace reaches
                   `pv386 ready: backend=trace`; and the 10,000-switch
                   stress (test=pv_switch_stress, run alone: about a
                   minute, a line every 1,000 switches) loses no tick,
                   task, system call or count.
"""

from .boot import qemu_boot_backend
from .builds import Y
from .emulators import QEMU, qemu_command, run_emulator
from .harness import Test, fresh_log, need_file, need_tool
from .ktest import CPU_LINES, judge_qemu_ktest, qemu_ktest

# The stress runs alone: each switch rewrites every site, and QEMU then
# retranslates the code around them (about 2 ms a switch).
STRESS_TIMEOUT = 180


def qemu_stress(log, build, append, expect):
    """The in-kernel suite's long test, alone, with a longer timeout."""
    need_tool(QEMU, "qemu")
    need_file(build.elf, build.make("all"))
    fresh_log(log)
    cmd = qemu_command(log, "qemu32", ["-kernel", build.elf, "-append", append])
    outcome = run_emulator(cmd, STRESS_TIMEOUT)
    judge_qemu_ktest(log, cmd, expect, outcome)


def tests():
    ready = "pv386 ready: backend=trace "
    return [
        Test("trace-ktest-qemu-y-qemu32", qemu_ktest, (Y, "qemu32"),
             {"append": "test pv=trace", "expect": [ready, CPU_LINES["qemu32"]]}),
        Test("trace-ktest-qemu-y-486", qemu_ktest, (Y, "486"),
             {"append": "test pv=trace", "expect": [ready, CPU_LINES["486"]]}),
        Test("trace-ktest-qemu-y-qemu32-nopatch", qemu_ktest, (Y, "qemu32"),
             {"append": "test pv=trace nopatch",
              "expect": [ready, "paravirt: nopatch:",
                         "op coverage: 50/57, not on this CPU: apic_read (one CPU: APIC "
                         "not used) apic_write (one CPU: APIC not used) flush_tlb_others "
                         "(one CPU: no other TLB) "
                         "spin_lock_slowpath (one CPU: no lock contended) spin_wait "
                         "(one CPU: no lock contended) spin_kick (one CPU: no lock "
                         "contended) vcpu_is_preempted (one CPU: no lock contended)"]}),
        Test("trace-boot-qemu-y", qemu_boot_backend, (Y, "pv=trace", ready)),
        Test("trace-switch-stress-qemu-y", qemu_stress,
             (Y, "test=pv_switch_stress",
              ["ktest:   10000 switches", "ktest: PASS pv_switch_stress$"])),
    ]
