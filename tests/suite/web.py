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

`make test` builds the site first (`make web`); without it this test
fails saying so.
"""

import os
import signal
import subprocess

from .harness import LOG_DIR, ROOT, Failure, Test, fresh_log, last_lines, need_file, need_tool

SITE = "build/web/index.html"
CHROMIUM = "/usr/bin/chromium"
PLAYWRIGHT = "build/npm/node_modules/playwright-core/package.json"
WEB_TEST = "tests/web/chromium.mjs"
WEB_TIMEOUT = 120          # seconds; a pass takes about 15


def run_web_test():
    """tests/web/chromium.mjs in a process group of its own, so that a run
    killed at WEB_TIMEOUT takes its Chromium and its server with it:
    (status or None, output)."""
    proc = subprocess.Popen(["node", WEB_TEST, "--logs", LOG_DIR], cwd=ROOT,
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


def web_chromium(log):
    """The page in Chromium (tests/web/chromium.mjs says what it checks)."""
    need_file(SITE, "make web")
    need_tool("node", "web")
    need_file(CHROMIUM, "tools/ensure-deps web")
    need_file(PLAYWRIGHT, "tools/ensure-deps web")
    fresh_log(log)
    status, output = run_web_test()
    with open(log, "w") as f:
        f.write(output)
    if status != 0:
        failed = [line for line in output.splitlines() if line.startswith("FAILED: ")]
        reason = failed[0][len("FAILED: "):] if failed else f"{WEB_TEST} exited with {status}"
        raise Failure(reason, last_lines(output))


def tests():
    return [Test("web-chromium", web_chromium)]
