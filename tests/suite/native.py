"""tests/suite/native.py - the tests that run on the build machine itself.

  native-patch-engine  The patch engine's unit tests (tests/native/), built
                   natively with sanitizers by `make native-tests`.
  native-multiboot  The Multiboot info parser's unit tests
                   (tests/native/multiboot/), built the same way.
  native-multiboot-fuzz  Its libFuzzer target for a fixed number of runs
                   from a fixed seed, starting from its seed corpus: no
                   crash, no broken invariant.  `make fuzz-multiboot`
                   fuzzes longer.
  native-guest-check  The host's checks of what a guest hands it (GDT
                   entries, IDT gates, the ring-1 stack; tests/native/guest/).
  native-guest-check-fuzz  Their libFuzzer target the same way: whatever a
                   check accepts must be safe to load for a ring-1 guest.
  native-check-mutants  tools/mutate-checks: each clause of the checks
                   above (and the ROM validator's, the ELF checks') deleted
                   in turn, some test of its program must fail (a few
                   seconds: every mutant is in one build, picked at run
                   time).
  native-shadow-frames  A guest's memory and shadow page tables on a page
                   allocator that refuses the n-th call, for every n
                   (tests/native/guest/shadow/): no frame freed twice,
                   kept or used once freed; the shadows' quota.  The
                   code is the kernel's, so the program is 32-bit: it
                   runs natively with AddressSanitizer where the build
                   machine's kernel runs 32-bit binaries, and always
                   under qemu-user (qemu-i386), built without
                   AddressSanitizer (whose shadow memory qemu-user cannot
                   give it), so the row passes, and that way is tried,
                   on either kind of build machine.

The ops ROM validator's native tests use the same checks (rom.py).
"""

import errno
import os
import re
import shutil

from .harness import LOG_DIR, Failure, Test, last_lines, need_file, need_tool, run_command

NATIVE_TEST = "build/native/test_patch"
NATIVE_MULTIBOOT_TEST = "build/native/test_multiboot"
NATIVE_GUEST_CHECK_TEST = "build/native/test_guest_check"
NATIVE_SHADOW_FRAMES_TEST = "build/native/test_shadow_frames"
NATIVE_SHADOW_FRAMES_USER_TEST = "build/native/test_shadow_frames-qemu-user"
NATIVE_SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed$")


def check_native_tests(log, program):
    """A native test program (the patch engine's, the Multiboot
    parser's), run natively: it must end with `N passed, 0 failed`."""
    command = program if isinstance(program, list) else [program]
    need_file(command[-1], "make native-tests")
    status, output = run_command(command, log)
    lines = output.splitlines()
    summary = NATIVE_SUMMARY.match(lines[-1]) if lines else None
    if status != 0 or not summary or summary.group(2) != "0" or summary.group(1) == "0":
        raise Failure(f"{' '.join(command)} exited with status {status}",
                      [line for line in lines if line.startswith("FAIL")] +
                      last_lines(output))


def check_32bit_native_tests(log, program, user_program):
    """A 32-bit native test program: natively (with AddressSanitizer) when
    this machine's kernel runs 32-bit binaries, and its build without
    AddressSanitizer under qemu-i386 in any case."""
    need_file(user_program, "make native-tests")
    try:
        check_native_tests(log, program)
    except OSError as e:
        if e.errno != errno.ENOEXEC:
            raise
        with open(log, "w") as f:
            f.write(f"{program}: this kernel runs no 32-bit binary ({e}); "
                    "qemu-i386 only\n")
    need_tool("qemu-i386", "qemu")
    check_native_tests(log + ".qemu-user", ["qemu-i386", user_program])


# The parser's fuzzer: a fixed seed and number of runs (a few seconds),
# so a run here is the same each time; its finds go to a scratch corpus,
# never into the seeds.
MULTIBOOT_FUZZER = "build/native/fuzz_multiboot"
MULTIBOOT_SEEDS = "tests/native/multiboot/fuzz/corpus"
MULTIBOOT_FUZZ_RUNS = 300000
MULTIBOOT_FUZZ_SCRATCH = "build/native/fuzz-run"
GUEST_CHECK_FUZZER = "build/native/fuzz_guest_check"
GUEST_CHECK_SEEDS = "tests/native/guest/fuzz/corpus"
GUEST_CHECK_FUZZ_RUNS = 500000
GUEST_CHECK_FUZZ_SCRATCH = "build/native/guest-check-fuzz-run"
FUZZ_DONE = re.compile(r"^Done (\d+) runs")


def run_fuzzer(log, fuzzer, seeds, runs, scratch, max_len, name):
    """A libFuzzer target for a fixed number of runs from seed 1 and its
    seeds, its finds kept in a scratch corpus: no crash, every run done."""
    need_file(fuzzer, "make native-tests")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    status, output = run_command(
        [fuzzer, f"-runs={runs}", "-seed=1",
         f"-max_len={max_len}", "-max_total_time=120",
         f"-artifact_prefix={LOG_DIR}/{name}-",
         scratch, seeds], log)
    done = [FUZZ_DONE.match(line) for line in output.splitlines()]
    done_runs = next((int(m.group(1)) for m in done if m), 0)
    if status != 0 or done_runs < runs:
        raise Failure(f"{fuzzer} exited with status {status} after "
                      f"{done_runs} of {runs} runs (inputs that broke it: "
                      f"{LOG_DIR}/{name}-*)", last_lines(output))


def check_multiboot_fuzz(log):
    run_fuzzer(log, MULTIBOOT_FUZZER, MULTIBOOT_SEEDS, MULTIBOOT_FUZZ_RUNS,
               MULTIBOOT_FUZZ_SCRATCH, 4096, "native-multiboot-fuzz")


def check_guest_check_fuzz(log):
    run_fuzzer(log, GUEST_CHECK_FUZZER, GUEST_CHECK_SEEDS, GUEST_CHECK_FUZZ_RUNS,
               GUEST_CHECK_FUZZ_SCRATCH, 64, "native-guest-check-fuzz")


def check_mutants(log):
    """Every clause of the natively tested checks has a test that notices it
    gone: tools/mutate-checks names each one that does not."""
    status, output = run_command(["tools/mutate-checks"], log)
    if status != 0:
        raise Failure("tools/mutate-checks: a clause no test needs, or a stale table",
                      [line for line in output.splitlines()
                       if line.startswith(("SURVIVED", "STALE", "NO BUILD", "FAILS"))] +
                      last_lines(output))


def tests():
    return [
        Test("native-patch-engine", check_native_tests, (NATIVE_TEST,)),
        Test("native-multiboot", check_native_tests, (NATIVE_MULTIBOOT_TEST,)),
        Test("native-multiboot-fuzz", check_multiboot_fuzz),
        Test("native-guest-check", check_native_tests, (NATIVE_GUEST_CHECK_TEST,)),
        Test("native-guest-check-fuzz", check_guest_check_fuzz),
        Test("native-check-mutants", check_mutants),
        Test("native-shadow-frames", check_32bit_native_tests,
             (NATIVE_SHADOW_FRAMES_TEST, NATIVE_SHADOW_FRAMES_USER_TEST)),
    ]
