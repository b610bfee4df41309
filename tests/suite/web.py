"""tests/suite/web.py - pv386's web page (boot/web/, `make web`) in a real browser.

  web-chromium     tests/web/chromium.mjs: Debian's Chromium, headless,
                   driven by playwright-core, loads build/web/ from
                   tools/web-serve on 127.0.0.1, boots native and waits for
                   the ready line in the terminal's DOM; clicks each step
                   of the README's first session and finds its answer in
                   the terminal; switches the backend from the page
                   (native, trace, native) and sees the op panel change;
                   types `pv` on the VGA screen's keyboard and finds the
                   answer in the screen's text; makes v86 panic
                   (`run crash vm86_iret`) and sees the "emulator stopped"
                   banner and its reboot work; sees a `test=printk` boot's
                   exit said; checks that the commit shown is HEAD, that
                   nothing came from outside the site and that the site is
                   under 1 MB gzipped.  Its log holds the figures (ready
                   time, weight; also build/test-logs/web-chromium.json)
                   and build/test-logs/web-chromium.png the page.

  web-CHECK        tests/web/defects.mjs --only CHECK: one defect class the
                   page once had, tried as a student, a teacher or an
                   attacker would (the file says what each check does):
                     cmdline-refused  a link's ?cmdline= with a control
                                      character or over 255 bytes boots
                                      nothing and says why; the kernel
                                      echoes the rest escaped
                     reboot-serialized  six Reboot clicks 150 ms apart,
                                      each PC's load 400 ms late: one
                                      emulator runs at the end, never two
                                      at once, clicks during a load make
                                      one boot, no uncaught error
                     typeahead-step  `sites` typed during the boot, then
                                      step 4: `pvops` runs alone (after
                                      the ^U the page asks for, if the
                                      shell shows the line)
                     network-failure  v86.wasm, the BIOS, the kernel: each
                                      failing on the network brings a
                                      banner naming it, and its Retry boots
                     terminal-keyboard  Tab, Shift+Tab and Escape leave the
                                      COM1 terminal; other keys still type
                     memory-values  ?memory= outside 4-1024 MiB or not a
                                      number is named and boots nothing;
                                      4 and 1024 boot with that much
                     suite-panel      a suite's own `pv: switched` lines
                                      leave the panel idle, not asking a
                                      shell that is not there
                     phone-layout     at 390 px the page fits its width,
                                      nothing spills, and a line typed in
                                      the page's own input reaches the shell
                     layout-stable    load to shell: layout shift under
                                      0.1, the Boot button still, the
                                      first hint kept
                     file-url         opened as a file://, the page says to
                                      run `make serve`, and where to go
                     link-values      an unknown boot or module (__proto__
                                      too) is named and boots nothing;
                                      autostart=false/0/no/off boot nothing
                     status-backend   the status line follows a live switch,
                                      from the panel or typed
                     copy-link        the URL follows the menu; the copy
                                      button copies a link that boots it
                     command-link     ?c=pvops types pvops after the prompt;
                                      a ?c= with a CR is refused
                     transcript       the COM1 transcript downloads as .txt
                     own-kernel       a picked or dropped kernel (and module)
                                      boots; a file with no Multiboot header
                                      or a bad checksum is refused, saying so

  web-serve-after-web-builds-nothing
                   a fresh copy of the tree builds a user program twice: the
                   second build runs no compiler or linker (the first once
                   deleted the objects as intermediates, so `make serve`
                   after `make web` built and linked again)

  web-bench-figures
                   tools/web-bench (make bench's web figures), 3 runs: each
                   waits for a quiet machine and says how busy it was, the
                   figures are the runs' medians, and on a quiet machine
                   pv386 is ready within 2 s of Boot

  web-choices-leave-out-v86s-panics
                   the page's suite choices leave out (notest=, in
                   boot/web/choices.js) exactly the cases
                   tests/suite/gaps/v86.py's LEFT_OUT says stop v86.

`make test` builds the site first (`make web`); without it this test
fails saying so.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile

from .gaps import v86 as v86_gaps

from .harness import LOG_DIR, ROOT, Failure, Test, fresh_log, last_lines, need_file, need_tool

SITE = "build/web/index.html"
CHROMIUM = "/usr/bin/chromium"
PLAYWRIGHT = "build/npm/node_modules/playwright-core/package.json"
WEB_TEST = "tests/web/chromium.mjs"
DEFECTS_TEST = "tests/web/defects.mjs"
# tests/web/defects.mjs's checks, each a row web-NAME (names whole, so
# that grep finds each row).
WEB_CHECKS = ["web-cmdline-refused", "web-reboot-serialized", "web-typeahead-step",
              "web-network-failure", "web-terminal-keyboard", "web-memory-values",
              "web-suite-panel", "web-phone-layout", "web-layout-stable",
              "web-file-url", "web-link-values", "web-status-backend",
              "web-copy-link", "web-command-link", "web-transcript", "web-own-kernel"]
WEB_TIMEOUT = 120          # seconds; a pass takes about 15
CHOICES = "boot/web/choices.js"
PROGRAM = "build/user/hello.elf"   # a user program, and the library it links
STOPPERS = re.compile(r'^export const V86_STOPPERS = "([^"]*)";$', re.M)


def run_web_test(script=WEB_TEST, *args):
    """A tests/web script in a process group of its own, so that a run
    killed at WEB_TIMEOUT takes its Chromium and its server with it:
    (status or None, output)."""
    proc = subprocess.Popen(["node", script, "--logs", LOG_DIR, *args], cwd=ROOT,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace",
                            start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=WEB_TIMEOUT)
        return proc.returncode, output
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        return None, f"{output}\n(killed after {WEB_TIMEOUT} s)"


def need_browser():
    need_file(SITE, "make web")
    need_tool("node", "web")
    need_file(CHROMIUM, "tools/ensure-deps web")
    need_file(PLAYWRIGHT, "tools/ensure-deps web")


def web_chromium(log):
    """The page in Chromium (tests/web/chromium.mjs says what it checks)."""
    need_browser()
    fresh_log(log)
    status, output = run_web_test()
    with open(log, "w") as f:
        f.write(output)
    if status != 0:
        failed = [line for line in output.splitlines() if line.startswith("FAILED: ")]
        reason = failed[0][len("FAILED: "):] if failed else f"{WEB_TEST} exited with {status}"
        raise Failure(reason, last_lines(output))


def web_check(log, name):
    """One check of tests/web/defects.mjs."""
    need_browser()
    fresh_log(log)
    status, output = run_web_test(DEFECTS_TEST, "--only", name)
    with open(log, "w") as f:
        f.write(output)
    if status != 0:
        failed = [line for line in output.splitlines() if line.startswith(f"FAIL {name}: ")]
        reason = (failed[0][len(f"FAIL {name}: "):] if failed
                  else f"{DEFECTS_TEST} exited with {status}")
        raise Failure(reason, last_lines(output))


def web_choices_leave_out_v86s_panics(log):
    """The page's list of the tests that stop v86 is the suite's."""
    with open(os.path.join(ROOT, CHOICES)) as f:
        found = STOPPERS.search(f.read())
    if not found:
        raise Failure(f"{CHOICES} has no line 'export const V86_STOPPERS = \"...\";'")
    page = set(found.group(1).split(","))
    suite = set(v86_gaps.LEFT_OUT)
    with open(log, "w") as f:
        f.write(f"page: {sorted(page)}\ngaps/v86.py's LEFT_OUT: {sorted(suite)}\n")
    if page != suite:
        raise Failure(f"{CHOICES} leaves out {sorted(page)}, tests/suite/gaps/v86.py's "
                      f"LEFT_OUT {sorted(suite)}: make them the same")


def web_serve_after_web_builds_nothing(log):
    """`make serve` right after `make web` on a fresh tree must build
    nothing: the first build once deleted the user programs' objects as
    intermediate files, which the next build (whose dependency files
    name them) compiled and linked again, kernel and all.  A copy of the
    tree's files builds one program twice; the second build must run no
    compiler and no linker."""
    fresh_log(log)
    with tempfile.TemporaryDirectory(prefix="pv386-fresh-") as tree:
        files = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True,
                               check=True).stdout.decode().split("\0")
        for name in filter(None, files):
            if os.path.isfile(os.path.join(ROOT, name)):
                os.makedirs(os.path.join(tree, os.path.dirname(name)), exist_ok=True)
                shutil.copy2(os.path.join(ROOT, name), os.path.join(tree, name))
        runs = []
        for _ in range(2):
            done = subprocess.run(["make", "--no-print-directory", PROGRAM], cwd=tree,
                                  capture_output=True, text=True)
            runs.append(done.stdout + done.stderr)
            if done.returncode != 0:
                raise Failure(f"make {PROGRAM} failed in a fresh copy",
                              runs[-1].splitlines()[-20:])
    with open(log, "w") as f:
        f.write("".join(f"--- make {PROGRAM}, run {i + 1}:\n{out}" for i, out in enumerate(runs)))
    again = [line for line in runs[1].splitlines() if re.match(r"(gcc|cc|ld|strip) ", line)]
    if again:
        raise Failure(f"the second make {PROGRAM} in a fresh tree built again: {again[0][:100]}",
                      again[:6])


WEB_BENCH = "tools/web-bench"
BENCH_RUNS = 5     # the median of five: one slow start of the browser moves none
BOOT_TO_READY_MS = 2000    # the page's figure: the ready line within 2 s of Boot


def median(values):
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def web_bench_figures(log):
    """tools/web-bench, as `make bench` runs it: each run waits for a quiet
    machine (and says how busy it was), the figures are the medians of
    the runs, and on a quiet machine pv386 is ready within 2 s of Boot."""
    need_browser()
    fresh_log(log)
    proc = subprocess.run([WEB_BENCH, str(BENCH_RUNS)], cwd=ROOT, capture_output=True,
                          text=True, timeout=WEB_TIMEOUT * 3, stdin=subprocess.DEVNULL,
                          env={**os.environ, "WEB_BENCH_QUIET_WAIT_S": "5"})
    with open(log, "w") as f:
        f.write(proc.stdout + proc.stderr)
    if proc.returncode != 0:
        raise Failure(f"{WEB_BENCH} exited with {proc.returncode}", last_lines(proc.stderr))
    figures = json.loads(proc.stdout)
    busy = figures.get("machine_busy")
    if not isinstance(busy, list) or len(busy) != BENCH_RUNS or "quiet" not in figures:
        raise Failure(f"{WEB_BENCH} does not say how busy the machine was for each of its "
                      f"{BENCH_RUNS} runs (machine_busy, quiet): {sorted(figures)}")
    for key in ("ready_ms", "ready_after_load_ms", "boot_to_ready_ms"):
        if figures[f"{key}_median"] != median(figures[key]):
            raise Failure(f"{key}_median {figures[f'{key}_median']} is not the median of "
                          f"{figures[key]}")
    boot = figures["boot_to_ready_ms_median"]
    with open(log, "a") as f:
        f.write(f"\nboot to ready: median {boot} ms of {figures['boot_to_ready_ms']}; machine busy "
                f"{busy}; quiet: {figures['quiet']}\n")
    if figures["quiet"] and boot > BOOT_TO_READY_MS:
        raise Failure(f"on a quiet machine pv386 was ready {boot} ms after Boot (median of "
                      f"{figures['boot_to_ready_ms']}), over {BOOT_TO_READY_MS}")


def tests():
    return [Test("web-choices-leave-out-v86s-panics", web_choices_leave_out_v86s_panics),
            Test("web-chromium", web_chromium),
            Test("web-serve-after-web-builds-nothing", web_serve_after_web_builds_nothing),
            Test("web-bench-figures", web_bench_figures)] + \
        [Test(name, web_check, (name.removeprefix("web-"),)) for name in WEB_CHECKS]
