"""tests/suite/table.py - every test of tests/run, in the order they are reported.

Each area's module lists its own tests; this is where they meet.  The
order puts quick checks of the built files first, then the emulator
runs, roughly from the simplest boot to the longest sessions.
"""

from . import (bench, bench_parse, binaries, boot, cmdline, docs, dosbox, guest, hammer,
               hang, ktest, loader, matrix, names, native, programs, rom, session, shell, smp,
               sysfuzz, trace, v86, v86bugs, web)


def all_tests():
    """Every test of tests/run, in the order results are printed."""
    return (names.tests(all_tests, matrix.tests) +
            binaries.tests() +
            hang.tests() +
            native.tests() +
            smp.native_tests() +
            dosbox.judge_tests() +
            v86.judge_tests() +
            bench_parse.tests() +
            docs.tests() +
            ktest.qemu_tests() +
            boot.qemu_tests() +
            ktest.bochs_tests() +
            boot.bochs_tests() +
            boot.trouble_tests() +
            bench.tests() +
            cmdline.tests() +
            sysfuzz.tests() +
            programs.tests() +
            loader.tests() +
            dosbox.tests() +
            v86.tests() +
            v86bugs.tests() +
            shell.tests() +
            smp.qemu_tests() +
            hammer.tests() +
            trace.tests() +
            rom.tests() +
            guest.tests() +
            session.tests() +
            web.tests())
