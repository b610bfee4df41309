"""tests/suite/programs.py - user programs run at boot (run=), judged from COM1.

  mem-*            User programs run (run=) with 4 MiB of RAM, and with
                   3.5 GiB, where the RAM beyond the kernel's 1 GiB map
                   is reported (QEMU's map leaves 2559 MiB above it).
  user-sysenter-single-step-*  A program entering by sysenter with TF
                   set: the kernel survives and runs the next program.
  op-coverage-features-*  With nopatch and opcount, user programs alone
                   (no test code) reach every op the CPU has.
  module-program-y A user program loaded as a Multiboot module runs.
  nomem-*          With RAM taken by its heap, a system call on a heap
                   or stack page not yet given answers -ENOMEM, not
                   -EFAULT, and a wait that fails so keeps the child
                   (user/nomem.c); also where writes are checked in
                   software (cpu=386).
"""

from .builds import BUILDS, USER_PROGRAM_DIR, Y
from .emulators import QEMU, QEMU_MEMORY_MIB, qemu_until, reached
from .harness import Failure, Test, need_file, need_tool
from .judge import line_has, log_details, panic_line

# Boots that run user programs (boot option run=) and must end with
# `run: done`: (name, build, QEMU memory in MiB, cpu, boot options, text
# that must appear in a line; ending in $, a whole line).
PROGRAM_RUNS = [
    ("nomem-y", "y", 64, "qemu32", "run=nomem",
     ["heap pages took the RAM, 0 wrong answers", "run: pid 3 exited with status 0"]),
    ("nomem-n", "n", 64, "qemu32", "run=nomem",
     ["heap pages took the RAM, 0 wrong answers", "run: pid 3 exited with status 0"]),
    ("nomem-cpu386-y", "y", 64, "qemu32", "cpu=386 run=nomem",
     ["heap pages took the RAM, 0 wrong answers", "run: pid 3 exited with status 0"]),
    ("mem-4mib-y", "y", 4, "486", "run=hello",
     ["hello from user mode", "run: pid 3 exited with status 0"]),
    ("mem-4mib-n", "n", 4, "486", "run=hello",
     ["hello from user mode", "run: pid 3 exited with status 0"]),
    ("mem-3584mib-y", "y", 3584, "qemu32", "run=hello",
     ["mem: 2559 MiB of RAM above 1024 MiB is beyond the kernel's map",
      "hello from user mode", "run: pid 3 exited with status 0"]),
    # A user program sets TF and enters by sysenter (user/crash.c): the
    # kernel must survive the #DB that follows at sysenter_entry and run
    # the next program.  The task goes on without TF (sysenter returns
    # with EFLAGS of the kernel's making) and exits 100.  The #DB lands on
    # the SYSENTER_ESP stack, which must not be the TSS (it once was, and
    # the machine triple-faulted).
    ("user-sysenter-single-step-y", "y", 64, "qemu32",
     "run=crash:sysenter_single_step,hello",
     ["run: pid 3 exited with status 100", "run: pid 4 exited with status 0"]),
    ("user-sysenter-single-step-n", "n", 64, "qemu32",
     "run=crash:sysenter_single_step,hello",
     ["run: pid 3 exited with status 100", "run: pid 4 exited with status 0"]),
]
# Op coverage from the kernel's features alone: no test code runs, only
# programs that use tasks, system calls, paging, the FPU, TLS, an LDT,
# I/O privilege, a watchpoint, a killed task, a bad segment on return,
# an idle CPU, and threads (a heap page given back while another CPU
# reads it: flush_tlb_others, where there is another CPU).  With nopatch
# every call reaches the table.
# The lock ops called only when a lock is found held: never on one CPU.
LOCK_OPS_ONE_CPU = " ".join(f"{op} (one CPU: no lock contended)" for op in (
    "spin_lock_slowpath", "spin_wait", "spin_kick", "vcpu_is_preempted"))
FEATURE_PROGRAMS = ("run=hello,heap,fpu:3,fpu:4,tls,ldt,ioport:yield,watch:arm,"
                    "crash:unmapped_read,flags,iretfault:fs,sleep:20,tlbshoot")
PROGRAM_RUNS += [
    ("op-coverage-features-y-qemu32", "y", 64, "qemu32",
     f"opcount nopatch {FEATURE_PROGRAMS}",
     ["op coverage: 50/57, not on this CPU: apic_read (one CPU: APIC not used) "
      "apic_write (one CPU: APIC not used) flush_tlb_others (one CPU: no other TLB) "
      + LOCK_OPS_ONE_CPU + "$"]),
    ("op-coverage-features-y-486", "y", 64, "486",
     f"opcount nopatch {FEATURE_PROGRAMS}",
     ["op coverage: 46/57, not on this CPU: read_msr (no MSRs) write_msr "
      "(no MSRs) read_tsc (no TSC) irq_enable_sysexit (no sysenter) "
      "apic_read (no APIC) apic_write (no APIC) flush_tlb_others (no APIC) "
      + LOCK_OPS_ONE_CPU + "$"]),
]
# With more than one CPU the local APIC is set up and its timer ticks:
# the APIC ops have their user, and the same programs reach every op.
SMP_COVERAGE_RUN = ("op-coverage-features-y-qemu32-smp2", "y", 64, "qemu32",
                    f"opcount nopatch {FEATURE_PROGRAMS}", ["op coverage: 57/57$"])
PROGRAM_RUN_TIMEOUT = 60


def qemu_program_run(log, build, memory, cpu, append, expect, qemu_extra=()):
    """Boot with run=..., wait for `run: done`, and look for lines."""
    need_tool(QEMU, "qemu")
    need_file(build.elf, build.make("all"))
    outcome, lines = qemu_until(log, cpu, ["-kernel", build.elf, "-append", append,
                                           *qemu_extra], "run: done",
                                PROGRAM_RUN_TIMEOUT, memory)
    if reached(lines, "run: done"):
        problem = panic_line(lines)
    elif outcome.timed_out:
        problem = f"no 'run: done': {outcome.why}"
    else:   # -no-reboot: a triple fault ends QEMU
        problem = (f"QEMU exited (status {outcome.status}) before 'run: done': "
                   "a triple fault?")
    missing = [e for e in expect if not any(line_has(line, e) for line in lines)]
    if not problem and missing:
        problem = "missing: " + ", ".join(repr(m) for m in missing)
    if problem:
        raise Failure(problem, log_details(log, lines, outcome.output))


def tests():
    return [Test(name, qemu_program_run, (BUILDS[b], mem, cpu, append, expect))
            for name, b, mem, cpu, append, expect in PROGRAM_RUNS] + [
        Test(SMP_COVERAGE_RUN[0], qemu_program_run,
             (BUILDS[SMP_COVERAGE_RUN[1]], *SMP_COVERAGE_RUN[2:]),
             {"qemu_extra": ("-smp", "2")}),
        # A program given as a Multiboot module (QEMU's -initrd), not
        # packed into the kernel: found by its file name, its argument
        # passed on.
        Test("module-program-y", qemu_program_run,
             (Y, QEMU_MEMORY_MIB, "qemu32", "run=hello.elf:from-a-module",
              ["hello.elf (module)",
               "hello from user mode: pid 3, system calls by sysenter, "
               "arg from-a-module$",
               "run: pid 3 exited with status 0$"]),
             {"qemu_extra": ("-initrd", f"{USER_PROGRAM_DIR}/hello.elf")}),
    ]
