// tests/web/chromium.mjs - the web page (build/web/, `make web`) in a real
// browser: Debian's Chromium, headless, driven by playwright-core
// (tools/web/browser.mjs).  tests/suite/web.py runs it as web-chromium.
//
// Usage:  node tests/web/chromium.mjs [--logs DIR]     (build/test-logs)
//
// It serves the site on a free port (tools/web-serve), opens
// ?boot=native&autostart, and checks, failing on the first that does not
// hold:
//   - the ready line shows in the terminal's DOM text (xterm.js's DOM
//     renderer) and the page shows the commit it was built from (HEAD);
//   - each step of the first session, clicked, gets its answer in the
//     terminal (a pattern per step, the README's answer), and the page
//     marks the step answered;
//   - the panel reads the op table; switching the backend from the page
//     (native -> trace -> native) changes it: the backend, a Calls column
//     under trace only, write_cr3's sites direct under trace and inline
//     under native;
//   - keys typed on the focused VGA screen reach the shell: `pv`'s answer
//     shows in the screen's text-mode DOM;
//   - a program whose ring-3 iret makes v86 itself panic
//     (`run crash vm86_iret`) brings the "emulator stopped" banner with a
//     reboot button, the tab still answers, and the reboot boots again;
//   - a boot that ends in pv386's exit port (test=printk) says the
//     machine exited, with the value;
//   - nothing was fetched from outside the site, no request failed, no
//     uncaught error before the panic, and the site's weight (gzip -9 of
//     each file the page loaded) is under 1 MB.
// It prints the figures (ready time as the page measured it, weight),
// writes them to DIR/web-chromium.json, and saves DIR/web-chromium.png
// (DIR/web-chromium-failed.png and the terminal's text when it fails).

import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT, launch, openPage, waitReady } from "../../tools/web/browser.mjs";
import { serve, weigh } from "../../tools/web/site.mjs";

const LOGS = path.resolve(process.argv.includes("--logs")
  ? process.argv[process.argv.indexOf("--logs") + 1] : path.join(ROOT, "build/test-logs"));
const READY_TIMEOUT_MS = 20000;
const ANSWER_TIMEOUT_MS = 15000;
const WEIGHT_LIMIT = 1000000;   // the site, gzipped: under 1 MB

// The README's first session: each step's command and what its answer holds.
const STEPS = [
  ["sites write_cr3", /sites: \d+ shown of \d+, backend native/],
  ["pv use trace", /pv: switched from native to trace: 0 inline, \d+ direct/],
  ["run hello", /hello from user mode/],
  ["pvops", /pvops: backend trace, \d+ ops; calls counted by trace/],
  ["sites write_cr3", /sites: \d+ shown of \d+, backend trace/],
  ["pv use native", /pv: switched from trace to native: \d+ inline, 0 direct/],
  ["pv use rom", /pv: backend rom refused \(no ops ROM among the modules/],
  ["help", /\^U clears the/],
];

class TestFailure extends Error {}
function check(ok, what) {
  if (!ok) throw new TestFailure(what);
}

// count: how often pattern occurs in text.
const count = (text, pattern) => (text.match(new RegExp(pattern.source, "g")) || []).length;

const terminalText = (page) => page.evaluate(() => window.pv386.terminalText());

// waitFor: poll fn (a page-side predicate) until true; fail saying what.
async function waitFor(page, fn, arg, what, timeout = ANSWER_TIMEOUT_MS) {
  try {
    await page.waitForFunction(fn, arg, { timeout, polling: 50 });
  } catch {
    throw new TestFailure(`${what} (not within ${timeout / 1000} s)`);
  }
}

const shellIdle = (page) => waitFor(page, () => !window.pv386.shellBusy(), null,
  "the page's queue of shell commands never emptied");

// bootAndWait: open the page at query; the ready line in the terminal's DOM.
async function bootAndWait(page, base, query) {
  await page.goto(base + query);
  await waitFor(page, () => document.querySelector("#terminal .xterm-rows")?.textContent
    .includes("pv386 ready"), null, "no `pv386 ready` line in the terminal's DOM text",
  READY_TIMEOUT_MS);
  return waitReady(page);
}

async function checkBuildCommit(page) {
  const head = execFileSync("git", ["-C", ROOT, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
  await waitFor(page, () => document.getElementById("build-commit"), null, "no commit shown");
  const shown = await page.locator("#build-commit").innerText();
  check(shown.replace(/-dirty$/, "") === head,
    `the page shows commit ${shown}, HEAD is ${head} (a stale build/web? make web)`);
}

// runSteps: click each step; its answer must come to the terminal.
async function runSteps(page) {
  await waitFor(page, () => document.body.dataset.shell === "up", null,
    "the shell's prompt never came");
  for (const [i, [command, answer]] of STEPS.entries()) {
    const step = `step ${i + 1} '${command}'`;
    await shellIdle(page);
    const before = count(await terminalText(page), answer);
    const button = page.locator(`button.step[data-step="${i + 1}"]`);
    const label = await button.innerText();
    check(label === command, `step ${i + 1} is '${label}', not '${command}'`);
    await button.click();
    await waitFor(page, ([source, n]) =>
      (window.pv386.terminalText().match(new RegExp(source, "g")) || []).length > n,
    [answer.source, before], `${step}: no answer matching ${answer}`);
    await waitFor(page, (n) => document.querySelector(`button.step[data-step="${n}"]`)
      .closest("li").dataset.state === "answered", i + 1,
    `${step}: the page did not mark it answered`);
    console.log(`${step}: answered`);
  }
  await shellIdle(page);
}

// panelState: what the panel shows now.
const panelState = (page) => page.evaluate(() => {
  const panel = document.getElementById("panel");
  const heads = [...panel.querySelectorAll("#ops-table thead th")].map((th) => th.textContent);
  const states = [...panel.querySelectorAll("#sites-table tbody tr")].map((tr) => tr.dataset.state);
  return { backend: panel.dataset.backend, reads: +(panel.dataset.reads ?? 0), heads,
    ops: panel.querySelectorAll("#ops-table tbody tr").length,
    sitesOp: panel.querySelector("#sites-table").dataset.op, states };
});

// readPanel: press button (read or a switch) and wait for the panel to
// have read the table again, under backend.
async function readPanel(page, selector, backend) {
  await shellIdle(page);
  const reads = (await panelState(page)).reads;
  await page.locator(selector).click();
  await waitFor(page, ([n, b]) => +(document.getElementById("panel").dataset.reads ?? 0) > n &&
    document.getElementById("panel").dataset.backend === b, [reads, backend],
  `the panel did not read the table again under ${backend} after ${selector}`);
  await shellIdle(page);
  return panelState(page);
}

// checkPanel: native, trace, native again, each as the kernel reports it.
async function checkPanel(page) {
  const native = await readPanel(page, "#panel-read", "native");
  check(native.ops >= 40 && !native.heads.includes("Calls") && native.sitesOp === "write_cr3",
    `panel under native: ${JSON.stringify(native)}`);
  check(native.states.includes("inline") && !native.states.includes("direct"),
    `write_cr3's sites under native are ${native.states}`);
  const trace = await readPanel(page, 'button.switch[data-backend="trace"]', "trace");
  check(trace.heads.includes("Calls") && trace.ops === native.ops,
    `panel under trace: ${JSON.stringify(trace)}`);
  check(trace.states.includes("direct") && !trace.states.includes("inline"),
    `write_cr3's sites under trace are ${trace.states}`);
  const direct = trace.states.filter((s) => s === "direct").length;
  console.log(`panel: native -> trace: ${direct} sites direct, calls column shown`);
  return async () => {
    const back = await readPanel(page, 'button.switch[data-backend="native"]', "native");
    check(!back.heads.includes("Calls") && back.states.includes("inline") &&
      !back.states.includes("direct"), `panel back under native: ${JSON.stringify(back)}`);
    console.log("panel: trace -> native: sites inline again, no calls column");
  };
}

// checkScreenKeyboard: type `pv` on the focused VGA screen.
async function checkScreenKeyboard(page) {
  await shellIdle(page);
  await page.locator("#screen").click();
  await page.keyboard.type("pv");
  await page.keyboard.press("Enter");
  await waitFor(page, () => /pv: backend native \(\d+ live switches\)/
    .test(document.querySelector("#screen .screen-text").textContent), null,
  "`pv` typed on the VGA screen's keyboard: no answer in the screen's text");
  console.log("vga: `pv` typed on the PS/2 keyboard answered on the screen");
}

// checkEmulatorStop: v86's panic on `crash vm86_iret`, a ring-3 iret whose
// frame has EFLAGS.VM set and a CS beyond the GDT (docs/v86-bugs.md).
async function checkEmulatorStop(page) {
  await shellIdle(page);
  await page.locator("#terminal").click();
  await page.keyboard.type("run crash vm86_iret\r");
  await waitFor(page, () => !document.getElementById("banner").hidden, null,
    "no banner after v86's panic (run crash vm86_iret)");
  const banner = await page.locator("#banner-text").innerText();
  check(/^The emulator \(v86\) stopped: its CPU code panicked \(src\/rust\/cpu\//.test(banner),
    `the banner says: ${banner}`);
  check(await page.locator("#banner-reboot").isVisible(), "no reboot button in the banner");
  check((await page.evaluate(() => 1 + 1)) === 2, "the tab does not answer");
  console.log(`stopped: ${banner.slice(0, 100)}`);
  await page.screenshot({ path: path.join(LOGS, "web-chromium-stopped.png"), fullPage: true });
  await page.locator("#banner-reboot").click();
  await waitFor(page, () => window.pv386.timing.readyMs !== null &&
    window.pv386.state() === "running", null,
  "the reboot after the panic did not come to the ready line", READY_TIMEOUT_MS);
  console.log("stopped: the reboot button booted again");
}

// checkExit: a boot that ends in the exit port says so, with the value.
async function checkExit(page, base) {
  await page.goto(`${base}?boot=test&cmdline=test%3Dprintk&autostart`);
  await waitFor(page, () => document.getElementById("banner").dataset.kind === "exited", null,
    "test=printk: the page did not say the machine exited", READY_TIMEOUT_MS);
  const banner = await page.locator("#banner-text").innerText();
  check(/^The machine has exited: pv386 wrote 0x10 \(the suite passed\)/.test(banner),
    `after test=printk the banner says: ${banner}`);
  console.log(`exited: ${banner}`);
}

// checkRequests: only the site, nothing failed, no error in the page.
function checkRequests(record, base, failed, until) {
  const outside = record.requests.filter((u) => !u.startsWith(base) && !/^(blob|data):/.test(u));
  check(outside.length === 0, `requests outside the site: ${outside.join(" ")}`);
  check(failed.length === 0, `requests that failed: ${failed.join(" ")}`);
  check(record.errors.length === 0,
    `uncaught errors in the page ${until}: ${record.errors.join(" | ")}`);
}

async function main() {
  mkdirSync(LOGS, { recursive: true });
  const site = await serve();
  const browser = await launch();
  const record = await openPage(browser);
  const { page } = record;
  const failed = [];
  page.on("response", (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
  try {
    const timing = await bootAndWait(page, site.url, "?boot=native&autostart");
    const weight = weigh(record.requests, site.url);
    await checkBuildCommit(page);
    await runSteps(page);
    const back = await checkPanel(page);
    await page.screenshot({ path: path.join(LOGS, "web-chromium.png"), fullPage: true });
    await back();
    await checkScreenKeyboard(page);
    checkRequests(record, site.url, failed, "before the panic");
    check(weight.total < WEIGHT_LIMIT,
      `the site weighs ${weight.total} bytes gzipped, over ${WEIGHT_LIMIT}`);
    await checkEmulatorStop(page);
    await checkExit(page, site.url);
    const figures = { ready_ms: Math.round(timing.readyMs),
      ready_after_load_ms: Math.round(timing.readyMs - timing.loadMs),
      boot_to_ready_ms: Math.round(timing.bootToReadyMs), load_ms: Math.round(timing.loadMs),
      weight_gzip_bytes: weight.total, files: weight.files };
    writeFileSync(path.join(LOGS, "web-chromium.json"), JSON.stringify(figures, null, 1) + "\n");
    console.log(`figures: ready ${figures.ready_ms} ms after the page started loading, ` +
      `${figures.ready_after_load_ms} ms after its load event, ` +
      `${figures.boot_to_ready_ms} ms after Boot; weight ${figures.weight_gzip_bytes} bytes ` +
      `gzip -9 over ${Object.keys(weight.files).length} files`);
    console.log("web-chromium: all checks passed");
  } catch (e) {
    console.log(`FAILED: ${e.message}`);
    await page.screenshot({ path: path.join(LOGS, "web-chromium-failed.png"), fullPage: true })
      .catch(() => {});
    const text = await terminalText(page).catch(() => "(no terminal)");
    const tail = text.trimEnd().split("\n").slice(-30).join("\n");
    console.log(`--- the terminal's last lines:\n${tail}`);
    console.log("--- the page's console:\n" + record.console.slice(-20).join("\n"));
    console.log("--- the page's uncaught errors:\n" + record.errors.slice(-10).join("\n"));
    process.exitCode = 1;
  } finally {
    await browser.close();
    site.stop();
  }
}

await main();
