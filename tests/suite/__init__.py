"""tests/suite - the pv386 test suite, one module per area.

tests/run and tests/matrix are its front ends (harness/frontend.py);
each test is a name and a function (harness/) in its area's module,
and table.py lists them all in the order they are reported.

  harness/       what tests are made of and what runs them, no test:
    __init__     Test, Failure, and the helpers every test uses
    runner       tests side by side, reported in table order
    frontend     the command line: -k, --tier, -j, --list, --failed,
                 --junit
    last_failed  the record --failed reads
    history      each row's last result and seconds (longest first;
                 the matrix's reuse of tests/run's rows)
    progress     when a run counts as hung: silence, not total time
    junit        the JUnit XML file
  builds         the two kernel builds (PARAVIRT=y and n)
  emulators      running QEMU, Bochs and gdb; reading COM1
  judge          a serial log's verdict: in-kernel suite, boot, panic
  gaps/          where DOSBox and v86 are not the CPU they emulate, and
                 the verdict on a run that must fail exactly there, no test:
    __init__     Gap, GapList and run_problem, the judge both share
    dosbox       DOSBox's gaps, left-out tests and configurations
    v86          v86's gaps, left-out cases and the panics they end in
  tiers          fast (make test) and slow (make check) rows, and why
  names          suite-names: every name written whole, once
  table          all tests of tests/run, in order
  matrix         the rows of tests/matrix

  binaries       multiboot-*, symbols-*, audit-*
  hang           hang-caught
  native         native-patch-engine, native-multiboot*
  ktest          ktest-qemu-*, ktest-bochs-*
  boot           boot-*, bad-magic-*, dirty-eflags-*, bad-info-*,
                 panic-report-*
  bench          bench-runs-*
  bench_parse    bench-parse-selftest (tools/bench's reading, made-up runs)
  cmdline        cmdline-*, nofpu-*, vm86-iret-*
  sysfuzz        sysfuzz-*
  programs       mem-*, user-sysenter-single-step-*,
                 op-coverage-features-*, module-program-y
  loader         loader-*
  dosbox         dosbox-gaps-selftest, loader-dosbox-386-y (with
                 gaps/dosbox, where DOSBox is not a real CPU)
  v86            v86-gaps-selftest, v86-ktest-*, v86-guest-y (with
                 gaps/v86, where v86 is not a real CPU)
  docs           docs-y, readme
  shell          shell-* (with shell_session, the COM1 conversation)
  trace          trace-*
  rom            native-rom*, ktest-*-rom*, rom-*, loader-*-rom*
  guest          guest-* (pv386 hosting pv386)
  session        session-*
  web            web-chromium (the web page in Chromium)

Plain modules, not pytest: pytest (with pytest-xdist) would bring -k,
parallel runs, --lf and --junitxml, but not the output this suite
promises - one PASS or FAIL line per test in table order while the
emulators run two at a time, and `N passed, M failed` - which xdist
prints in the order tests finish and with a summary of its own.  Its
parametrized ids are names built by formatting, which grep cannot
find; tests/matrix reuses these checks with rows of its own, which
plain functions allow as they are; and a front end of about a hundred
lines here costs no new package on a fresh machine.
"""
