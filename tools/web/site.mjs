// tools/web/site.mjs - the built site (build/web/, `make web`) as the web
// page's test and tools/web-bench see it: served by tools/web-serve on a
// free port of 127.0.0.1, and weighed as a browser would fetch it
// compressed: each file the page loaded, gzip -9, summed.

import { spawn } from "node:child_process";
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { gzipSync, constants } from "node:zlib";
import { ROOT } from "./browser.mjs";

export const SITE = path.join(ROOT, "build/web");
const SERVE_TIMEOUT_MS = 10000;

// serve: tools/web-serve on a port of its choosing; resolves with {url,
// stop()} once it has printed its address.
export function serve(dir = SITE) {
  if (!existsSync(path.join(dir, "index.html")))
    return Promise.reject(new Error(`${dir}/index.html is missing: build the site with make web`));
  const server = spawn(path.join(ROOT, "tools/web-serve"), ["--port", "0", dir],
    { stdio: ["ignore", "pipe", "pipe"] });
  server.stderr.resume();      // its request log: not needed, must not block it
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("tools/web-serve printed no address")),
      SERVE_TIMEOUT_MS);
    let out = "";
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const address = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (!address) return;
      clearTimeout(timer);
      resolve({ url: address[0], stop: () => server.kill() });
    });
    server.on("error", (e) => reject(new Error(`tools/web-serve: ${e.message}`)));
    server.on("exit", (code) => reject(new Error(`tools/web-serve exited (${code}): ${out}`)));
  });
}

// weigh: the gzip -9 size of each file of dir the page loaded (urls under
// base), and their sum: {total, files: {path: bytes}}.
export function weigh(urls, base, dir = SITE) {
  const files = {};
  for (const url of urls) {
    if (!url.startsWith(base)) continue;
    let file = decodeURIComponent(new URL(url).pathname.slice(1)) || "index.html";
    if (file.endsWith("/")) file += "index.html";
    const full = path.join(dir, file);
    if (!existsSync(full) || file in files) continue;
    files[file] = gzipSync(readFileSync(full), { level: constants.Z_BEST_COMPRESSION }).length;
  }
  const total = Object.values(files).reduce((a, b) => a + b, 0);
  return { total, files };
}
