// tests/web/defects.mjs - the web page (build/web/, `make web`) tried in
// Debian's Chromium, headless, as a student, a teacher and an attacker
// would: each check below is one defect class the page once had, and
// tests/suite/web.py runs each as a row of its own (web-NAME).
//
// Usage:  node tests/web/defects.mjs [--logs DIR] [--only NAME[,NAME...]]
//                                      [--site DIR]    (build/web)
//
// Every check opens its own page (a fresh browser context) on the site,
// served by tools/web-serve on a free port of 127.0.0.1, and prints
// "PASS NAME" or "FAIL NAME: why"; the exit status is 1 if any failed.
// A failed check saves DIR/web-NAME-failed.png and prints the terminal's
// last lines and the page's console.

import { mkdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, launch, openPage } from "../../tools/web/browser.mjs";
import { SITE, serve } from "../../tools/web/site.mjs";

const arg = (name) => (process.argv.includes(name)
  ? process.argv[process.argv.indexOf(name) + 1] : null);
const LOGS = path.resolve(arg("--logs") ?? path.join(ROOT, "build/test-logs"));
const READY_TIMEOUT_MS = 20000;
const ANSWER_TIMEOUT_MS = 15000;

class TestFailure extends Error {}
function check(ok, what) {
  if (!ok) throw new TestFailure(what);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// waitFor: poll fn (a page-side predicate) until true; fail saying what.
async function waitFor(page, fn, arg, what, timeout = ANSWER_TIMEOUT_MS) {
  try {
    await page.waitForFunction(fn, arg, { timeout, polling: 50 });
  } catch (e) {
    if (/Target (page|closed)|has been closed/.test(e.message)) throw e;
    throw new TestFailure(`${what} (not within ${timeout / 1000} s)`);
  }
}

const terminalText = (page) => page.evaluate(() => window.pv386.terminalText());
const text = (page, selector) => page.locator(selector).innerText();
const pageState = (page) => page.evaluate(() => window.pv386.state());

// ready: the page measured the ready line and the terminal holds it.
// Its scrolled-off lines count: a command typed at once (?c=) can push
// the line off the screen before a poll sees it (chromium.mjs checks
// that the line is drawn).
async function ready(page, what = "no `pv386 ready` line") {
  await waitFor(page, () => window.pv386?.timing.readyMs != null &&
    window.pv386.terminalText().includes("pv386 ready"),
  null, what, READY_TIMEOUT_MS);
}

// shellUp: the shell's prompt came and the page's queue is empty.
async function shellUp(page) {
  await waitFor(page, () => document.body.dataset.shell === "up", null,
    "the shell's prompt never came", READY_TIMEOUT_MS);
  await waitFor(page, () => !window.pv386.shellBusy(), null,
    "the page's queue of shell commands never emptied");
}

// answered: pattern occurs in the terminal more than n times.
async function answered(page, pattern, n, what) {
  await waitFor(page, ([source, k]) =>
    (window.pv386.terminalText().match(new RegExp(source, "g")) || []).length > k,
  [pattern.source, n], what);
}

const count = (text, pattern) => (text.match(new RegExp(pattern.source, "g")) || []).length;

// notice: the page's notice about the link's options (role=alert), or "".
const notice = (page) => page.evaluate(() => {
  const n = document.getElementById("notice");
  return n && !n.hidden ? n.innerText : "";
});

// refusedWithoutBooting: the page at query says why (pattern) and boots
// nothing; a boot that started, or a ready line, fails it at once.
async function refusedWithoutBooting(page, base, query, why) {
  await page.goto(base + query);
  await waitFor(page, () => {
    const n = document.getElementById("notice");
    return (n && !n.hidden && n.textContent) || window.pv386?.timing.bootMs != null;
  }, null, `${query}: neither a notice nor a boot`, 10000);
  await sleep(300);
  const said = await notice(page);
  const state = await pageState(page);
  check(state === "idle", `${query}: the page booted anyway (state ${state}); notice '${said}'`);
  check(why.test(said), `${query}: the notice says '${said}', not ${why}`);
  return said;
}

// ---- 1. the command line of a link ----

// A link's ?cmdline= must not reach the terminal with control bytes (an
// ESC sequence drives xterm.js; a CR starts a fake line), nor be longer
// than the kernel keeps (255 bytes, include/bootinfo.h).  A printable
// line still boots, and the kernel echoes what is not ASCII as \xNN.
async function cmdlineRefused({ base, open }) {
  const { page } = await open();
  const hacks = [
    ["x%0Dpv386%20ready%3A%20backend%3DHACKED", /control character/],
    ["%1B%5B1%3B31mCOURSE%20NOTICE%3A%20run%20curl%20x%20%7C%20sh%1B%5B0m", /control character/],
    ["%1B%5D8%3B%3Bhttp%3A%2F%2Fexample.org%07link%1B%5D8%3B%3B%07", /control character/],
    ["x%C2%9B31m", /control character/],
    ["a".repeat(256), /255 bytes/],
    ["%C3%A9".repeat(128), /255 bytes/],
  ];
  for (const [cmdline, why] of hacks) {
    const said = await refusedWithoutBooting(page, base, `?boot=native&cmdline=${cmdline}&autostart`, why);
    const status = await text(page, "#status");
    check(!/ready|HACKED/.test(status), `the status line says '${status}'`);
    console.log(`cmdline: refused ${cmdline.slice(0, 40)}: ${said.split("\n").pop()}`);
  }
  await page.goto(`${base}?boot=native&cmdline=caf%C3%A9%20${"a".repeat(249)}&autostart`);
  await ready(page, "a printable 255-byte command line did not boot");
  const echo = (await terminalText(page)).split("\n").find((l) => l.startsWith("pv386: booted by"));
  check(/command line 'caf\\xc3\\xa9 a{249}'$/.test(echo ?? ""), `the kernel echoed: ${echo}`);
  check(await page.evaluate(() => window.pv386.timing.readyMs !== null), "no ready");
  console.log(`cmdline: a 255-byte line with an é boots; echoed ${echo.slice(0, 60)}…`);
}

// ---- 2. reboots in a row ----

// countEmulators: an init script that counts the v86 instances the page
// makes (WebAssembly.instantiate with v86's imports) and, per instance,
// the calls of its timer import: an emulator that runs calls it all the
// time.  window.__emulators: [{calls}].
function countEmulators() {
  const emulators = window.__emulators = [];
  // window.__mostRunning: the most that ran within one 100 ms.
  window.__mostRunning = 0;
  let last = [];
  setInterval(() => {
    const now = emulators.map((e) => e.calls);
    const running = now.filter((n, i) => n > (last[i] ?? 0)).length;
    window.__mostRunning = Math.max(window.__mostRunning, running);
    last = now;
  }, 100);
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = function (source, imports, ...rest) {
    const env = imports?.env;
    if (env && typeof env.run_hardware_timers === "function") {
      const entry = { calls: 0 };
      emulators.push(entry);
      // A PC takes a while to load on a slow machine or network: each
      // comes 400 ms late here, so that the clicks fall while one loads.
      const late = new Promise((resolve) => setTimeout(resolve, 400));
      const timers = env.run_hardware_timers;
      imports = { ...imports, env: { ...env, run_hardware_timers(...a) {
        entry.calls++;
        return timers.apply(this, a);
      } } };
      return late.then(() => instantiate.call(this, source, imports, ...rest));
    }
    return instantiate.call(this, source, imports, ...rest);
  };
}

// alive: how many of the page's emulators ran during one second.
async function aliveEmulators(page) {
  const before = await page.evaluate(() => window.__emulators.map((e) => e.calls));
  await sleep(1000);
  const after = await page.evaluate(() => window.__emulators.map((e) => e.calls));
  return after.filter((n, i) => n > (before[i] ?? 0)).length;
}

// Reboot clicked 6 times, 150 ms apart, while the first reboot loads:
// the boots must be serialized, so that one PC runs at the end (clicks
// during a load make one boot more after it), and nothing throws.
async function rebootSerialized({ base, open }) {
  const record = await open();
  const { page } = record;
  await page.addInitScript(countEmulators);
  await page.goto(`${base}?boot=native&autostart`);
  await ready(page);
  for (let i = 0; i < 6; i++) {
    await page.locator("#reboot").click();
    await sleep(150);
  }
  await waitFor(page, () => window.pv386.state() === "running" &&
    window.pv386.timing.readyMs !== null, null, "no ready line after the reboots",
  READY_TIMEOUT_MS);
  await sleep(2000);
  const made = await page.evaluate(() => window.__emulators.length);
  const alive = await aliveEmulators(page);
  console.log(`reboot: ${made} emulators made in all (the first boot's too); ${alive} running; ` +
    `at most ${await page.evaluate(() => window.__mostRunning)} at once`);
  check(record.errors.length === 0, `uncaught errors: ${record.errors.join(" | ")}`);
  check(alive === 1, `${alive} emulators still run after 6 reboots, not 1`);
  const most = await page.evaluate(() => window.__mostRunning);
  check(most <= 1, `${most} emulators ran at the same time during the reboots`);
  check(made < 7, "each of the 6 clicks made a PC of its own: none waited for the one loading");
  await ready(page);
}

// ---- 3. typed ahead, then a step ----

// `sites` typed into the terminal while the kernel boots, then step 4
// (pvops): the step's command must reach the shell alone, not as
// `sitespvops`.
async function typeaheadStep({ base, open }) {
  const { page } = await open();
  await page.goto(`${base}?boot=native&autostart`);
  await waitFor(page, () => window.pv386.state() === "running", null, "the PC never ran",
    READY_TIMEOUT_MS);
  await page.locator("#terminal").click();
  await page.keyboard.type("sites");
  await ready(page);
  await waitFor(page, () => document.body.dataset.shell === "up", null,
    "the shell's prompt never came", READY_TIMEOUT_MS);
  await sleep(500);
  const pattern = /pvops: backend native, \d+ ops/;
  const before = count(await terminalText(page), pattern);
  await page.locator('button.step[data-step="4"]').click();
  // When the shell has echoed `sites`, the line is visibly half typed:
  // the page waits and says so, and ^U (as it says) lets the step go.
  await sleep(1000);
  const status = await text(page, "#status");
  if (/waits to type its command/.test(status)) {
    console.log(`typeahead: the shell shows the line; the page says: ${status}`);
    await page.locator("#terminal").click();
    await page.keyboard.press("Control+U");
  }
  await answered(page, pattern, before, "step 4 (pvops) after `sites` typed ahead: no pvops answer");
  const all = await terminalText(page);
  check(!/sitespvops/.test(all), "the step's command merged with the typed-ahead `sites`");
  await waitFor(page, () => document.querySelector('button.step[data-step="4"]')
    .closest("li").dataset.state === "answered", null, "step 4 not marked answered");
  console.log("typeahead: step 4 after `sites` typed during boot ran `pvops` alone");
}

// ---- 4. a network that fails ----

// The network fails (not a 404: the request itself errs) on v86.wasm,
// the BIOS or the kernel: a banner must name the file and the reason,
// with a button that tries again, and the retry must boot once the
// network is back.
async function networkFailure({ base, open }) {
  for (const file of ["v86/v86.wasm", "bios/bios.bin", "kernel/pv386.elf"]) {
    const record = await open();
    const { page } = record;
    const pattern = new RegExp(`/${file.replace(/[./]/g, "\\$&")}$`);
    await page.route(pattern, (route) => route.abort("internetdisconnected"));
    await page.goto(`${base}?boot=native&autostart`);
    await waitFor(page, () => !document.getElementById("banner").hidden, null,
      `${file} failing: no banner, the status says '${await text(page, "#status")}'`, 10000);
    const said = await text(page, "#banner-text");
    check(said.includes(file.split("/").pop()) && /network/i.test(said),
      `${file} failing: the banner says '${said}'`);
    const button = page.locator("#banner-reboot");
    check(await button.isVisible(), `${file} failing: no button in the banner`);
    check(/retry|try again/i.test(await button.innerText()),
      `${file} failing: the banner's button says '${await button.innerText()}'`);
    console.log(`network: ${file} failing: ${said}`);
    await page.unroute(pattern);
    await button.click();
    await ready(page, `${file} back: the retry did not boot`);
    check(await page.locator("#banner").isHidden(), `${file} back: the banner stays`);
    console.log(`network: ${file} back: the retry booted`);
  }
}

// ---- 5. the keyboard leaves the terminal ----

// Tab, Shift+Tab and Escape in the COM1 terminal must leave it, as they
// leave the VGA screen: a keyboard-only user reaches the steps and the
// panel.  Other keys still reach the shell.
async function terminalKeyboard({ base, open }) {
  const { page } = await open();
  await page.goto(`${base}?boot=native&autostart`);
  await ready(page);
  await shellUp(page);
  const inTerminal = () => page.evaluate(() =>
    document.getElementById("terminal").contains(document.activeElement));
  for (const key of ["Tab", "Shift+Tab", "Escape"]) {
    await page.locator("#terminal").click();
    check(await inTerminal(), "a click does not focus the terminal");
    await page.keyboard.press(key);
    const where = await page.evaluate(() => {
      const a = document.activeElement;
      return `${a.tagName.toLowerCase()}${a.id ? "#" + a.id : ""}${a.className ? "." + a.className : ""}`;
    });
    check(!await inTerminal(), `${key} in the terminal: the focus stays there (${where})`);
    console.log(`keyboard: ${key} left the terminal, to ${where}`);
  }
  await page.locator("#terminal").click();
  const before = count(await terminalText(page), /pv: backend native/);
  await page.keyboard.type("pv\r");
  await answered(page, /pv: backend native/, before, "`pv` typed in the terminal: no answer");
  console.log("keyboard: `pv` typed in the terminal still answers");
}

// ---- 6. ?memory= ----

// A memory size the PC cannot have is named, and nothing boots: v86
// took 0, abc and 4096 for its 64 MiB default, wrapped 99999999, and
// halted on 1, 2048 and -1 with a banner blaming pv386.  The ends of the
// range the page takes (4 MiB, enough for the kernel; 1024 MiB, what it
// maps) boot with that much.
async function memoryValues({ base, open }) {
  const { page } = await open();
  for (const bad of ["0", "abc", "4096", "99999999", "1", "2048", "-1", "1.5", "", "64k", "3"]) {
    const said = await refusedWithoutBooting(page, base, `?boot=native&memory=${bad}&autostart`,
      /memory.*4 to 1024/i);
    check(await page.locator("#banner").isHidden(), `memory=${bad}: a banner shows`);
    console.log(`memory: refused '${bad}': ${said.split("\n").pop()}`);
  }
  for (const good of [4, 1024]) {
    await page.goto(`${base}?boot=native&memory=${good}&autostart`);
    await ready(page, `memory=${good} did not boot`);
    const map = (await terminalText(page)).split("\n").find((l) => l.startsWith("mem: map of"));
    check(map?.includes(`${good * 1024 - 128} KiB available`), `memory=${good}: the kernel says '${map}'`);
    console.log(`memory: ${good} MiB boots: ${map}`);
  }
}

// ---- 7. a suite's live switches ----

// A suite (?boot=test) prints `pv: switched` lines of its own tests; the
// panel must not take them for a switch to read, with no shell to ask:
// once the machine exited, nothing is asked, and the panel says so.
async function suitePanel({ base, open }) {
  const { page } = await open();
  await page.goto(`${base}?boot=test&cmdline=test%3Dcmd_pv&autostart`);
  await waitFor(page, () => document.getElementById("banner").dataset.kind === "exited", null,
    "the suite did not exit", 40000);
  check(/pv: switched from/.test(await terminalText(page)), "the suite printed no `pv: switched`");
  await sleep(1000);
  const note = await text(page, "#panel-note");
  const busy = await page.evaluate(() => window.pv386.shellBusy());
  console.log(`suite: after the exit, the panel says '${note}'; shell busy: ${busy}`);
  check(!/Asking the shell|could not read/.test(note), `after the suite the panel says '${note}'`);
  check(!busy, "after the suite the page's shell is busy");
}

// ---- 8. a phone, and a page that holds still ----

// spill: the elements whose box reaches past the viewport's right edge,
// or whose content spills out of a box that neither clips nor scrolls.
const spills = (page) => page.evaluate(() => {
  const width = document.documentElement.clientWidth;
  const found = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (!box.width || el.closest("[hidden]")) continue;
    const name = `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}` +
      `${typeof el.className === "string" && el.className ? "." + el.className.split(" ")[0] : ""}`;
    if (box.right <= width + 1) continue;
    // Past the edge is fine inside a box that scrolls or clips it and
    // itself ends within the viewport.
    let held = false;
    for (let up = el.parentElement; up && up !== document.body && !held; up = up.parentElement)
      held = /auto|scroll|hidden|clip/.test(getComputedStyle(up).overflowX) &&
        up.getBoundingClientRect().right <= width + 1;
    if (!held) found.push(`${name} ends at ${Math.round(box.right)}`);
  }
  return { width, scrollWidth: document.documentElement.scrollWidth, found: found.slice(0, 6) };
});

// At 390 px (a phone) the page fits its width, the screen and the
// terminal scroll inside their own boxes, and a line typed into the
// page's own input (a phone has no keys for the terminal) reaches the
// shell.
async function phoneLayout({ base, open }) {
  const { page } = await open({ width: 390, height: 844 });
  await page.goto(`${base}?boot=native&autostart`);
  await ready(page);
  await shellUp(page);
  const layout = await spills(page);
  console.log(`phone: the page is ${layout.scrollWidth} px wide in ${layout.width}`);
  check(layout.scrollWidth <= layout.width, `at 390 px the page lays out ${layout.scrollWidth} px ` +
    `wide: ${layout.found.join(", ")}`);
  check(layout.found.length === 0, `at 390 px these spill out: ${layout.found.join(", ")}`);
  const input = page.locator("#line-input");
  check(await input.count() === 1 && await input.isVisible(), "at 390 px there is no line to type in");
  const before = count(await terminalText(page), /pv: backend native/);
  await input.fill("pv");
  await input.press("Enter");
  await answered(page, /pv: backend native/, before, "`pv` sent from the line input: no answer");
  check(await input.inputValue() === "", "the line input keeps what it sent");
  console.log("phone: `pv` typed in the page's line input answered");
}

// The page holds still while it loads and boots: its cumulative layout
// shift stays under 0.1 (Web Vitals' "good"; it was 0.85, the Boot button
// jumping about 380 px), the Boot button does not move, and the first
// hint stays until something replaces it.
async function layoutStable({ base, open }) {
  for (const viewport of [{ width: 1500, height: 1100 }, { width: 390, height: 844 }])
    await layoutStableAt(base, viewport, await open(viewport));
}

async function layoutStableAt(base, viewport, { page }) {
  const at = `at ${viewport.width} px`;
  await page.addInitScript(() => {
    window.__shift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value;
    }).observe({ type: "layout-shift", buffered: true });
    document.addEventListener("DOMContentLoaded", () => {
      window.__bootAt = document.getElementById("boot").getBoundingClientRect().top;
    });
  });
  await page.goto(`${base}?boot=native`);
  await sleep(1500);
  const hint = await text(page, "#status");
  check(/press Boot/.test(hint), `${at}, 1.5 s after load the first hint is gone: the status says '${hint}'`);
  await page.goto(`${base}?boot=native&autostart`);
  await ready(page);
  await shellUp(page);
  await sleep(1000);
  const { shift, moved } = await page.evaluate(() => ({ shift: window.__shift,
    moved: document.getElementById("boot").getBoundingClientRect().top - window.__bootAt }));
  console.log(`layout ${at}: shift ${shift.toFixed(3)} from load to the shell; the Boot button ` +
    `moved ${Math.round(moved)} px`);
  check(shift < 0.1, `${at} the layout shifts ${shift.toFixed(3)} (over 0.1) while the page boots`);
  check(Math.abs(moved) <= 1, `${at} the Boot button moved ${Math.round(moved)} px`);
}

// ---- 9. opened as a file ----

// Opened from the disk (file://), the browser runs none of the page's
// modules: the page must still say what to do (`make serve`).
async function fileUrl({ open, site }) {
  const { page } = await open();
  await page.goto(pathToFileURL(path.join(site, "index.html")).href);
  await sleep(1500);
  const visible = await page.evaluate(() => [...document.querySelectorAll("[role=alert]")]
    .filter((e) => !e.hidden && e.offsetParent !== null).map((e) => e.innerText).join(" | "));
  console.log(`file: the page says: ${visible || "(nothing)"}`);
  check(/make serve/.test(visible), "opened as a file://, the page does not say to run `make serve`");
  check(/127\.0\.0\.1:8386/.test(visible), "opened as a file://, the page does not give the address");
}

// ---- 10. the link's other values, and the status line ----

// A link's boot and module must name what the page has: ?module=__proto__
// requested /[object Object], and an unknown boot or module was ignored
// without a word.  ?autostart=false must not boot.
async function linkValues({ base, open }) {
  const record = await open();
  const { page } = record;
  for (const [query, why] of [
    ["?boot=native&module=__proto__&autostart", /module=__proto__/],
    ["?boot=native&module=toString&autostart", /module=toString/],
    ["?boot=nosuch&autostart", /boot=nosuch/],
    ["?boot=__proto__&autostart", /boot=__proto__/],
    ["?boot=native&module=nosuch&autostart", /module=nosuch/],
    ["?boot=native&autostart=maybe", /autostart=maybe/],
  ]) {
    const said = await refusedWithoutBooting(page, base, query, why);
    console.log(`link: ${query}: ${said.split("\n").pop()}`);
  }
  const odd = record.requests.filter((u) => /object|undefined|null/i.test(u));
  check(odd.length === 0, `requests for ${odd.join(" ")}`);
  for (const no of ["false", "0", "no", "off"]) {
    await page.goto(`${base}?boot=native&autostart=${no}`);
    await sleep(1500);
    const state = await pageState(page);
    check(state === "idle", `?autostart=${no} booted (state ${state})`);
    check(await notice(page) === "", `?autostart=${no}: a notice`);
  }
  console.log("link: autostart=false, 0, no and off boot nothing");
  await page.goto(`${base}?boot=rom&module=none&autostart`);
  await ready(page, "?boot=rom&module=none did not boot");
  check(/pv=rom.*no ops ROM|rom/.test(await terminalText(page)), "rom without a module");
  console.log("link: ?boot=rom&module=none boots without the ROM");
}

// The status line follows a live switch: it said "backend native" for
// ever after the panel switched to trace.
async function statusBackend({ base, open }) {
  const { page } = await open();
  await page.goto(`${base}?boot=native&autostart`);
  await ready(page);
  await shellUp(page);
  await page.locator('button.switch[data-backend="trace"]').click();
  await waitFor(page, () => document.getElementById("panel").dataset.backend === "trace", null,
    "the panel never read the table under trace");
  await shellUp(page);
  const status = await text(page, "#status");
  console.log(`status: after pv use trace: ${status}`);
  check(/trace/.test(status) && !/backend native/.test(status),
    `after a switch to trace the status line says '${status}'`);
  await page.locator("#terminal").click();
  await page.keyboard.type("pv use native\r");
  await waitFor(page, () => /backend native/.test(document.getElementById("status").textContent),
    null, "after `pv use native` typed, the status line does not say native");
  console.log(`status: after pv use native typed: ${await text(page, "#status")}`);
}

// ---- 11. what a teacher asked for ----

// A "copy link" button copies a link to this setup, and the page's own
// URL follows the menu, so that the address bar is such a link too.
async function copyLink({ base, open }) {
  const { page, context } = await open();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  await page.goto(`${base}?boot=native&memory=64`);
  await page.locator("#boot-choice").selectOption("trace");
  await waitFor(page, () => new URLSearchParams(location.search).get("boot") === "trace", null,
    `choosing trace in the menu leaves the URL at ${await page.evaluate(() => location.search)}`, 3000);
  const button = page.locator("#copy-link");
  check(await button.count() === 1 && await button.isVisible(), "no copy-link button");
  await button.click();
  await sleep(300);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const url = new URL(copied);
  console.log(`link: copied ${copied}`);
  check(url.origin + url.pathname === base && url.searchParams.get("boot") === "trace" &&
    url.searchParams.get("memory") === "64" && url.searchParams.has("autostart"),
  `the copied link is ${copied}`);
  await page.goto(copied);
  await ready(page, "the copied link does not boot");
  check(/backend=trace/.test(await terminalText(page)), "the copied link does not boot trace");
}

// ?c=COMMAND types COMMAND once the shell's prompt came (v86's own pages
// have the same option), and only printable text of a shell line.
async function commandLink({ base, open }) {
  const { page } = await open();
  await page.goto(`${base}?boot=native&c=pvops&autostart`);
  await ready(page);
  await answered(page, /pvops: backend native, \d+ ops/, 0, "?c=pvops: no pvops answer");
  check(/pv386> pvops/.test(await terminalText(page)), "?c=pvops: the command is not in the terminal");
  console.log("link: ?c=pvops typed pvops after the prompt");
  const said = await refusedWithoutBooting(page, base, "?boot=native&c=pv%0Dpv%20use%20trace&autostart",
    /control character/);
  console.log(`link: a ?c= with a CR: ${said.split("\n").pop()}`);
}

// The COM1 transcript downloads as a text file.
async function transcript({ base, open }) {
  const { page } = await open();
  await page.goto(`${base}?boot=native&autostart`);
  await ready(page);
  await shellUp(page);
  const button = page.locator("#download-transcript");
  check(await button.count() === 1 && await button.isVisible(), "no transcript download button");
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 5000 }),
    button.click()]);
  const file = await download.path();
  const { readFileSync } = await import("node:fs");
  const body = readFileSync(file, "utf8");
  console.log(`transcript: ${download.suggestedFilename()}, ${body.length} characters`);
  check(/\.txt$/.test(download.suggestedFilename()), `the file is ${download.suggestedFilename()}`);
  check(body.includes("pv386 ready: backend=native") && body.includes("pv386> "),
    "the transcript lacks the ready line or the prompt");
}

// Booting your own build: pick (or drop) a kernel ELF, and optionally a
// module; the page checks it is a Multiboot image and says why not.
async function ownKernel({ base, open }) {
  const { page } = await open();
  await page.goto(`${base}?boot=native`);
  const input = page.locator("#own-kernel");
  check(await input.count() === 1, "no way to pick your own kernel");
  const refuse = async (files, why) => {
    await input.setInputFiles(files);
    await page.locator("#own-boot").click();
    await sleep(500);
    const note = await text(page, "#own-note");
    check(await pageState(page) === "idle", `${files.name ?? files}: booted`);
    check(why.test(note), `${files.name ?? files}: the page says '${note}', not ${why}`);
    console.log(`own: refused ${files.name ?? path.basename(files)}: ${note}`);
  };
  await refuse({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello\n") },
    /not a Multiboot image.*no Multiboot header/i);
  await refuse(path.join(ROOT, "build/user/hello.elf"), /not a Multiboot image.*no Multiboot header/i);
  const bad = Buffer.alloc(64);
  bad.writeUInt32LE(0x1badb002, 16);
  bad.writeUInt32LE(3, 20);
  bad.writeUInt32LE(0, 24);
  await refuse({ name: "bad.bin", mimeType: "application/octet-stream", buffer: bad },
    /checksum/i);
  await input.setInputFiles(path.join(ROOT, "build/pv386-stripped.elf"));
  await page.locator("#own-module").setInputFiles(path.join(ROOT, "build/pvrom.bin"));
  await page.locator("#own-cmdline").fill("pv=rom");
  await page.locator("#own-boot").click();
  await ready(page, "your own kernel (pv386-stripped.elf, pvrom.bin, pv=rom) did not boot");
  check(/backend=rom/.test(await terminalText(page)), "your own kernel did not get its module");
  console.log(`own: picked pv386-stripped.elf + pvrom.bin booted: ${await text(page, "#status")}`);
  // Dropped on the page.
  const { readFileSync } = await import("node:fs");
  const elf = readFileSync(path.join(ROOT, "build/pv386-stripped.elf")).toString("base64");
  const drop = await page.evaluateHandle((b64) => {
    const data = new DataTransfer();
    data.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], "mine.elf"));
    return data;
  }, elf);
  await page.dispatchEvent("body", "drop", { dataTransfer: drop });
  await waitFor(page, () => /mine\.elf/.test(document.getElementById("status").textContent) &&
    window.pv386.timing.readyMs !== null, null, "a dropped kernel did not boot", READY_TIMEOUT_MS);
  console.log(`own: dropped mine.elf booted: ${await text(page, "#status")}`);
}

// ---- the checks, by name (tests/suite/web.py's WEB_CHECKS) ----

const CHECKS = {
  "cmdline-refused": cmdlineRefused,
  "reboot-serialized": rebootSerialized,
  "typeahead-step": typeaheadStep,
  "network-failure": networkFailure,
  "terminal-keyboard": terminalKeyboard,
  "memory-values": memoryValues,
  "suite-panel": suitePanel,
  "phone-layout": phoneLayout,
  "layout-stable": layoutStable,
  "file-url": fileUrl,
  "link-values": linkValues,
  "status-backend": statusBackend,
  "copy-link": copyLink,
  "command-link": commandLink,
  "transcript": transcript,
  "own-kernel": ownKernel,
};

async function runCheck(browser, base, siteDir, name) {
  const contexts = [];
  const open = async (viewport) => {
    const record = await openPage(browser, viewport);
    contexts.push(record);
    return record;
  };
  try {
    await CHECKS[name]({ browser, base, open, site: siteDir });
    console.log(`PASS ${name}`);
    return true;
  } catch (e) {
    console.log(`FAIL ${name}: ${e.message}`);
    for (const record of contexts) {
      await record.page.screenshot({ path: path.join(LOGS, `web-${name}-failed.png`), fullPage: true })
        .catch(() => {});
      const text = await terminalText(record.page).catch(() => "(no terminal)");
      console.log(`--- the terminal's last lines:\n${text.trimEnd().split("\n").slice(-15).join("\n")}`);
      console.log("--- the page's console:\n" + record.console.slice(-15).join("\n"));
      console.log("--- the page's uncaught errors:\n" + record.errors.slice(-5).join("\n"));
    }
    return false;
  } finally {
    for (const record of contexts) await record.context.close().catch(() => {});
  }
}

async function main() {
  mkdirSync(LOGS, { recursive: true });
  const only = arg("--only")?.split(",") ?? Object.keys(CHECKS);
  const unknown = only.filter((n) => !(n in CHECKS));
  if (unknown.length) throw new Error(`no such check: ${unknown.join(", ")}`);
  const siteDir = arg("--site") ? path.resolve(arg("--site")) : SITE;
  const site = await serve(siteDir);
  const browser = await launch();
  let failed = 0;
  try {
    for (const name of only) if (!await runCheck(browser, site.url, siteDir, name)) failed++;
  } finally {
    await browser.close();
    site.stop();
  }
  console.log(failed ? `${failed} of ${only.length} checks failed` : `all ${only.length} checks passed`);
  process.exitCode = failed ? 1 : 0;
}

await main();
