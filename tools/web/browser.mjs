// tools/web/browser.mjs - Debian's Chromium, headless, driven by npm
// playwright-core, for the web page's test (tests/web/) and tools/web-bench.
//
// No browser is downloaded: playwright-core (boot/web/package-lock.json,
// installed into build/npm/ by tools/ensure-deps web) drives the system's
// /usr/bin/chromium.  playwright starts it with a fresh temporary profile
// (its own --user-data-dir) and --headless; the flags below are the rest
// of what Chromium needs here: as root it runs only without its sandbox,
// there is no GPU, and it must not reach the network on its own (updates,
// sync, QUIC probes) - the page itself must load everything from the site.

import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CHROMIUM = "/usr/bin/chromium";
const NPM = path.join(ROOT, "build/npm/node_modules");

const CHROMIUM_FLAGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

// playwright: the npm package, from build/npm/ (the source tree has no
// node_modules).
function playwright() {
  if (!existsSync(path.join(NPM, "playwright-core")))
    throw new Error(`${NPM}/playwright-core is missing: run tools/ensure-deps web`);
  return createRequire(path.join(NPM, "noop.js"))("playwright-core");
}

// launch: a headless Chromium.
export async function launch() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run tools/ensure-deps web`);
  return playwright().chromium.launch({ executablePath: CHROMIUM, headless: true,
    args: CHROMIUM_FLAGS });
}

// openPage: a new page of its own context, whose every request and
// console line are recorded: {page, requests: [url], console: [text],
// errors: [text]}.
export async function openPage(browser, viewport = { width: 1500, height: 1100 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const record = { page, context, requests: [], console: [], errors: [] };
  page.on("request", (r) => record.requests.push(r.url()));
  page.on("console", (m) => record.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => record.errors.push(`${e}`));
  return record;
}

// waitReady: after the page was opened with ?autostart, the ready line's
// time as the page measured it ({readyMs, bootToReadyMs, loadMs}).
export async function waitReady(page, timeout = 20000) {
  await page.waitForFunction(() => window.pv386?.timing.readyMs !== null &&
    window.pv386?.timing.readyMs !== undefined, null, { timeout });
  return page.evaluate(() => ({ ...window.pv386.timing }));
}
